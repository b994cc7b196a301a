/**
 * Custom auth in Chromium against the reference server: the demo's stand-in host auth gets a
 * JWT from the server's dev issuer (GET /dev/custom-token), the plugin syncs it into a
 * Portico session, follows a host user change, and logs out when the host token disappears.
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
const waitStatus = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.textContent === t, text)
const waitCustom = (page: Page, status: string) =>
  page.waitForFunction((s) => document.querySelector('[data-testid=custom-auth-status]')?.textContent === `custom auth: ${s}`, status)

describe('custom auth', () => {
  it('logs in with the host token, follows a host user change, logs out when the token goes', async () => {
    const page = await h.openPage({})
    await waitCustom(page, 'initial')
    const alice = `alice-${Date.now()}`
    await page.fill('input[aria-label="Host user"]', alice)
    await page.getByText('Sign in to host').click()
    await waitStatus(page, 'logged in')
    await waitCustom(page, 'done')
    const first = await userRecord(page)
    expect(first.customAuth.customUserId).toBe(alice)
    expect(first.linkedAccounts.map((a: { type: string }) => a.type)).toEqual(['custom_auth'])
    expect(await page.evaluate(() => localStorage.getItem('portico:portico-demo-app-00000001:recent-login-method'))).toBe('custom_auth')
    await h.screenshot(page, 'custom-auth-done')

    // A reload keeps the session and does not log in again (same custom user).
    await page.reload()
    await waitStatus(page, 'logged in')
    await waitCustom(page, 'done')
    expect((await userRecord(page)).id).toBe(first.id)

    // The host's user changes: the plugin re-syncs to the new user.
    await page.getByText('Sign out of host').click()
    await waitStatus(page, 'logged out')
    await waitCustom(page, 'initial')
    const bob = `bob-${Date.now()}`
    await page.fill('input[aria-label="Host user"]', bob)
    await page.getByText('Sign in to host').click()
    await waitStatus(page, 'logged in')
    const second = await userRecord(page)
    expect(second.customAuth.customUserId).toBe(bob)
    expect(second.id).not.toBe(first.id)

    // The same host user again later: the same Portico user.
    await page.getByText('Sign out of host').click()
    await waitStatus(page, 'logged out')
    await page.fill('input[aria-label="Host user"]', alice)
    await page.getByText('Sign in to host').click()
    await waitStatus(page, 'logged in')
    expect((await userRecord(page)).id).toBe(first.id)
    expect(h.consoleErrors(page).filter((e) => !/status of 401/.test(e))).toEqual([])
  })

  it("a token the server rejects: 'Failed to sync with custom auth provider'", async () => {
    const page = await h.openPage({})
    await waitCustom(page, 'initial')
    // A token from another issuer (not trusted by the demo app).
    await page.evaluate(() => {
      const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
      localStorage.setItem('portico-demo:host-token', `${b64({ alg: 'ES256' })}.${b64({ sub: 'mallory', iss: 'evil' })}.c2ln`)
    })
    await page.reload()
    await waitCustom(page, 'error (Failed to sync with custom auth provider)')
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
  })
})
