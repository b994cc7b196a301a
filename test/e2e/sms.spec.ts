/**
 * SMS login in Chromium against the reference server (production build, strict CSP): the
 * phone form (formatting, country clears, Submit disabled while invalid, consent), the code
 * read from the dev outbox, a wrong code then the right one, and the 30 s resend cooldown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  // The server's own resend throttle off: the client's 30 s cooldown is what is tested.
  h = await startHarness({ limits: { resendCooldownS: 0 } })
})
afterAll(async () => {
  await h?.close()
})

let n = 0
/** A fresh valid US number per test: +1 415 555 01xx. */
const freshNumber = () => {
  const tail = String(10 + ((Date.now() / 1000 + n++ * 7) % 90 | 0)).padStart(2, '0')
  return { national: `41555501${tail}`, e164: `+141555501${tail}` }
}

async function openSms(page: Page) {
  await h.openModal(page)
  await page.locator('[role=dialog] [data-method=sms]').click()
  await page.waitForSelector('[role=dialog][data-screen=sms-phone]')
}

const codeBoxes = (page: Page) => page.locator('[role=dialog] input[aria-label^="Digit "]')
async function typeCode(page: Page, code: string) {
  await codeBoxes(page).first().click()
  await page.keyboard.type(code)
}

describe('sms', () => {
  it('phone form: US default, formatting as typed, Submit disabled while invalid, country change clears, consent with app name', async () => {
    const page = await h.openPage({})
    await openSms(page)
    const input = page.getByRole('textbox', { name: 'Phone number' })
    const submit = page.locator('[role=dialog] button[type=submit]')
    expect(await page.locator('[role=dialog] select[aria-label=Country]').inputValue()).toBe('US')
    expect(await submit.isDisabled()).toBe(true)
    await input.pressSequentially('415555')
    expect(await submit.isDisabled()).toBe(true)
    await input.pressSequentially('0100')
    expect(await input.inputValue()).toBe('(415) 555-0100')
    expect(await submit.isDisabled()).toBe(false)
    expect(await page.textContent('[data-portico-sms-consent]')).toBe(
      'By providing your phone number, you agree to receive SMS messages from Portico Demo.',
    )
    await h.screenshot(page, 'sms-phone-form')
    await page.selectOption('[role=dialog] select[aria-label=Country]', 'GB')
    expect(await input.inputValue()).toBe('')
    expect(await submit.isDisabled()).toBe(true)
    await input.pressSequentially('02071838750')
    expect(await input.inputValue()).toBe('020 7183 8750')
    expect(await submit.isDisabled()).toBe(false)
    expect(h.consoleErrors(page)).toEqual([])
  })

  it('logs in with the code from the dev outbox after a wrong code; the boxes reset 1.4 s after the failure', async () => {
    const page = await h.openPage({})
    await openSms(page)
    const phone = freshNumber()
    const since = Date.now()
    await page.getByRole('textbox', { name: 'Phone number' }).pressSequentially(phone.national)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog][data-screen=sms-code]')
    expect(await page.textContent('[role=dialog] .portico-title')).toBe('Enter confirmation code')
    expect(await page.isVisible('[data-portico-code-sent]')).toBe(true)
    const code = await h.readOutboxCode(phone.e164, since)
    const wrong = code === '000000' ? '111111' : '000000'
    // The page's own clock times the reset: when the code entry turns to 'error' and when it is
    // back to 'awaiting' (a busy test process would see both late).
    await page.evaluate(() => {
      const w = window as any
      new MutationObserver(() => {
        const status = document.querySelector('[role=dialog] [data-portico-code-status]')?.getAttribute('data-portico-code-status')
        if (w.__failedAt === undefined && status === 'error') w.__failedAt = performance.now()
        if (w.__failedAt !== undefined && w.__resetAt === undefined && status === 'awaiting') w.__resetAt = performance.now()
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-portico-code-status'] })
    })
    await typeCode(page, wrong)
    await page.getByText('Invalid or expired verification code').waitFor()
    await h.screenshot(page, 'sms-code-wrong')
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>('[role=dialog] input[aria-label^="Digit "]')].every((b) => b.value === ''),
    )
    expect(await page.evaluate(() => (window as any).__resetAt - (window as any).__failedAt)).toBeGreaterThan(1000)
    await typeCode(page, code)
    await page.waitForSelector('[role=dialog] [data-portico-code-status=success]')
    await h.screenshot(page, 'sms-code-success')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect(await page.textContent('[data-testid=result]')).toBe('complete: sms (new user)')
    expect(await page.textContent('[data-testid=user]')).toContain(phone.e164)
    // Remembered as the recent method.
    expect(await page.evaluate(() => localStorage.getItem('portico:portico-demo-app-00000001:recent-login-method'))).toBe('sms')
    expect(h.consoleErrors(page).filter((e) => !/status of 401/.test(e))).toEqual([])
  })

  it("'Resend code' only after 30 s; it sends a new code that logs in", async () => {
    const page = await h.openPage({})
    await page.clock.install()
    await openSms(page)
    const phone = freshNumber()
    await page.getByRole('textbox', { name: 'Phone number' }).pressSequentially(phone.national)
    // The installed clock also flows with real time, which on a busy machine can pass 5 s
    // while the outbox is read: the 25 s check stops the page's clock at 25 s after t0 (the
    // code is sent after t0, so at most 25 s after the send), then lets it flow again.
    const t0 = await page.evaluate(() => Date.now())
    await page.keyboard.press('Enter')
    await page.waitForSelector('[role=dialog][data-screen=sms-code]')
    const first = await h.readOutboxCode(phone.e164)
    expect(await page.getByText('Resend code').count()).toBe(0)
    await page.clock.pauseAt(t0 + 25_000)
    await page.locator('[data-portico-code-sent]').waitFor()
    expect(await page.getByText('Resend code').count()).toBe(0)
    await page.clock.resume()
    await page.clock.runFor(6_000)
    await page.getByText('Resend code').waitFor()
    await h.screenshot(page, 'sms-code-resend')
    const since = Date.now()
    await page.getByText('Resend code').click()
    await page.waitForSelector('[data-portico-code-sent]')
    // The resent code replaces the first in the outbox: poll for it (no fixed sleep).
    await expect.poll(() => h.readOutboxCode(phone.e164, since), { timeout: 10_000, interval: 100 }).not.toBe(first)
    const second = await h.readOutboxCode(phone.e164, since)
    await typeCode(page, second)
    await page.waitForSelector('[role=dialog] [data-portico-code-status=success]')
    await page.clock.runFor(2_000)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
  })
})
