/**
 * Guest accounts in Chromium against the reference server: 'Continue as guest' from the
 * landing overflow, the same account after a reload, and the upgrade by e-mail that keeps
 * the account (same user id, no longer a guest).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

const userRecord = async (page: Page) => JSON.parse((await page.textContent('[data-testid=user]'))!) as Record<string, any>

describe('guest', () => {
  it("'Continue as guest' logs in a guest that keeps its account across reloads, then upgrades by e-mail", async () => {
    const page = await h.openPage({})
    await h.openModal(page)
    await page.locator('[role=dialog] [data-method=more-options]').click()
    await page.locator('[role=dialog] [data-method=guest]').waitFor()
    expect(await page.textContent('[role=dialog] [data-method=guest]')).toContain('Continue as guest')
    await h.screenshot(page, 'guest-overflow')
    await page.locator('[role=dialog] [data-method=guest]').click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    const guest = await userRecord(page)
    expect(guest.isGuest).toBe(true)
    expect(guest.linkedAccounts).toEqual([])
    const credential = await page.evaluate(() => localStorage.getItem('portico:portico-demo-app-00000001:guest:credential'))
    expect(credential).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await page.evaluate(() => localStorage.getItem('portico:portico-demo-app-00000001:recent-login-method'))).toBe('guest')

    // Reload: the same guest.
    await page.reload()
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
    expect((await userRecord(page)).id).toBe(guest.id)

    // Upgrade: a guest may still log in; the e-mail lands on the guest's account.
    const address = `guest-${Date.now()}@example.com`
    await h.openModal(page)
    const since = Date.now()
    await page.fill('[role=dialog] input[type=email]', address)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog][data-screen=email-code]')
    const code = await h.readOutboxCode(address, since)
    await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
    await page.keyboard.type(code)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    const upgraded = await userRecord(page)
    expect(upgraded.id).toBe(guest.id)
    expect(upgraded.isGuest).toBe(false)
    expect(upgraded.email.address).toBe(address)
    // The credential is no longer needed once the guest is a full user.
    expect(await page.evaluate(() => localStorage.getItem('portico:portico-demo-app-00000001:guest:credential'))).toBeNull()
    await h.screenshot(page, 'guest-upgraded')
    expect(h.consoleErrors(page).filter((e) => !/status of 401/.test(e))).toEqual([])
  })

  it('headless createGuestAccount() gives the same guest for the same browser until logout', async () => {
    const page = await h.openPage({})
    await page.getByText('Create guest account').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
    const first = await userRecord(page)
    expect(first.isGuest).toBe(true)
    // Session gone (tokens cleared), credential kept: the same guest comes back.
    await page.evaluate(() => {
      for (const k of Object.keys(localStorage)) if (/:(token|refresh_token|identity_token)$/.test(k)) localStorage.removeItem(k)
    })
    await page.reload()
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await page.getByText('Create guest account').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
    expect((await userRecord(page)).id).toBe(first.id)
    // Logout drops the guest account.
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await page.getByText('Create guest account').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in')
    expect((await userRecord(page)).id).not.toBe(first.id)
  })
})
