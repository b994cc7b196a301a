/**
 * Account management in Chromium against the reference server: link, update and unlink a
 * phone number, and a transfer that moves an e-mail from one account to another and deletes
 * the other account (link conflict screen → 'Transfer and delete account' → 'Success!').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  // The same e-mail gets a code in two browsers within seconds: the server's resend throttle off.
  h = await startHarness({ limits: { resendCooldownS: 0 } })
})
afterAll(async () => {
  await h?.close()
})

const userRecord = async (page: Page) => JSON.parse((await page.textContent('[data-testid=user]'))!) as Record<string, any>
const waitStatus = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.textContent === t, text)
const waitResult = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=result]')?.textContent === t, text)

let n = 0
const freshNumber = () => {
  const tail = String(10 + ((Date.now() / 1000 + n++ * 13) % 90 | 0)).padStart(2, '0')
  return { national: `21255501${tail}`, e164: `+121255501${tail}` }
}

async function enterCode(page: Page, to: string, since: number) {
  const code = await h.readOutboxCode(to, since)
  await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
  await page.keyboard.type(code)
}

async function loginEmail(page: Page, address: string) {
  await h.openModal(page)
  const since = Date.now()
  await page.fill('[role=dialog] input[type=email]', address)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code]')
  await enterCode(page, address, since)
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
  await waitStatus(page, 'logged in')
}

async function loginSms(page: Page, phone: { national: string; e164: string }) {
  await h.openModal(page)
  await page.locator('[role=dialog] [data-method=sms]').click()
  const since = Date.now()
  await page.getByRole('textbox', { name: 'Phone number' }).pressSequentially(phone.national)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=sms-code]')
  await enterCode(page, phone.e164, since)
  await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 8000 })
  await waitStatus(page, 'logged in')
}

/** With the phone screen open (link or update): type a number and enter its code. */
async function phoneScreen(page: Page, phone: { national: string; e164: string }) {
  const since = Date.now()
  await page.getByRole('textbox', { name: 'Phone number' }).pressSequentially(phone.national)
  await page.keyboard.press('Enter')
  await page.waitForSelector('[role=dialog][data-screen=sms-code]')
  await enterCode(page, phone.e164, since)
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
}

describe('account management', { timeout: 60_000 }, () => {
  it('links, updates and unlinks a phone number', async () => {
    const page = await h.openPage({})
    const address = `phone-owner-${Date.now()}@example.com`
    await loginEmail(page, address)
    const me = await userRecord(page)

    const first = freshNumber()
    await page.getByRole('button', { name: 'Link phone', exact: true }).click()
    await page.waitForSelector('[role=dialog][data-screen=sms-phone]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Link your phone number')
    await phoneScreen(page, first)
    await waitResult(page, 'complete: link')
    expect((await userRecord(page)).phone.number).toBe(first.e164)

    const second = freshNumber()
    await page.getByRole('button', { name: 'Update phone', exact: true }).click()
    await page.waitForSelector('[role=dialog][data-screen=sms-phone]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Update your phone number')
    await h.screenshot(page, 'account-update-phone')
    await phoneScreen(page, second)
    await waitResult(page, 'complete: update phone')
    const updated = await userRecord(page)
    expect(updated.phone.number).toBe(second.e164)
    expect(updated.id).toBe(me.id)

    await page.getByRole('button', { name: 'Unlink phone', exact: true }).click()
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    await waitResult(page, 'complete: unlink phone')
    const unlinked = await userRecord(page)
    expect(unlinked.phone).toBeUndefined()
    expect(unlinked.email.address).toBe(address)
    expect(await page.isDisabled('button:has-text("Update phone")')).toBe(true)
  })

  it('moves an e-mail from another account after the link conflict prompt and deletes the other account', async () => {
    // The other account: logged in with the e-mail in its own browser context (kept open).
    const other = await h.openPage({})
    const address = `moving-${Date.now()}@example.com`
    await loginEmail(other, address)
    const otherUser = await userRecord(other)

    // This account: logged in with SMS, links the same e-mail.
    const page = await h.openPage({})
    await loginSms(page, freshNumber())
    const me = await userRecord(page)
    expect(me.id).not.toBe(otherUser.id)
    await page.getByRole('button', { name: 'Link email', exact: true }).click()
    const since = Date.now()
    await page.fill('[role=dialog] input[type=email]', address)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog][data-screen=email-code]', { timeout: 8000 })
    await enterCode(page, address, since)
    await page.waitForSelector('[role=dialog][data-screen=account-link-conflict]', { timeout: 8000 })
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Email address is associated with another account')
    expect(await page.textContent('[role=dialog] .portico-description')).toContain(address)
    expect(await page.getByRole('button', { name: 'No thanks', exact: true }).count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Continue', exact: true }).count()).toBe(0)
    await h.screenshot(page, 'account-link-conflict')
    await page.getByRole('button', { name: 'Transfer and delete account', exact: true }).click()
    await page.getByRole('button', { name: 'Success!', exact: true }).waitFor()
    await h.screenshot(page, 'account-transfer-success')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await waitResult(page, 'complete: link')
    const after = await userRecord(page)
    expect(after.id).toBe(me.id)
    expect(after.email.address).toBe(address)
    expect(after.phone).toBeTruthy()

    // The other account is gone: its session no longer refreshes.
    await other.evaluate(() => {
      for (const k of Object.keys(localStorage)) if (/:token$/.test(k)) localStorage.removeItem(k)
    })
    await other.reload()
    await waitStatus(other, 'logged out')
    // And the e-mail now logs in to this account.
    await loginEmail(other, address)
    expect((await userRecord(other)).id).toBe(me.id)
  })

  it("'No thanks' leaves both accounts as they were", async () => {
    const other = await h.openPage({})
    const address = `staying-${Date.now()}@example.com`
    await loginEmail(other, address)
    const otherUser = await userRecord(other)
    const page = await h.openPage({})
    await loginSms(page, freshNumber())
    await page.getByRole('button', { name: 'Link email', exact: true }).click()
    const since = Date.now()
    await page.fill('[role=dialog] input[type=email]', address)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog][data-screen=email-code]')
    await enterCode(page, address, since)
    await page.waitForSelector('[role=dialog][data-screen=account-link-conflict]')
    await page.getByRole('button', { name: 'No thanks', exact: true }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await waitResult(page, 'error: exited_link_flow')
    expect((await userRecord(page)).email).toBeUndefined()
    await other.reload()
    await waitStatus(other, 'logged in')
    expect((await userRecord(other)).id).toBe(otherUser.id)
  })
})
