/**
 * Captcha (Turnstile) in Chromium against the reference server: the demo app's turnstile()
 * loads Cloudflare's script (answered by the local stand-in widget), the captcha screen is
 * inserted on the landing and continues by itself, the e-mail init carries the token, and the
 * server checks it with a local siteverify stand-in (test/stand-ins/captcha.ts). A widget that
 * keeps failing shows the spec's texts; a token the server refuses shows 'Please try again.'
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSiteverify, widgetScript, type Siteverify } from '../stand-ins/captcha'
import { startHarness, type Harness } from './harness'
import { captchaApp, errorsOf, openStandInApp, openWithCaptcha, ownBrowser, submitEmail, type StandIns } from './tgcap-shared'

const SECRET = 'e2e-captcha-secret'
const CAP_OK = 'portico-test-cap-e2e-0001'
const CAP_FAIL = 'portico-test-cap-e2e-0002'
const CAP_REFUSE = 'portico-test-cap-e2e-0003'

let h: Harness
let browser: Browser
let sv: Siteverify
const standIns: StandIns = { telegramScript: () => '', turnstileScript: () => widgetScript('turnstile') }

beforeAll(async () => {
  sv = await startSiteverify({ secret: SECRET })
  const app = (id: string, siteKey: string) => captchaApp(id, { name: 'Captcha E2E', provider: 'turnstile', siteKey, secret: SECRET, verifyUrl: sv.url })
  h = await startHarness({ extraApps: [app(CAP_OK, 'sk-pass'), app(CAP_FAIL, 'fail-e2e'), app(CAP_REFUSE, 'sk-refuse')] })
  browser = await ownBrowser()
})
afterAll(async () => {
  await browser?.close()
  await h?.close()
  await sv?.close()
})

describe('captcha (Turnstile stand-in) in the browser', { timeout: 90_000 }, () => {
  it('logs in by e-mail: captcha screen, auto-continue, token verified by siteverify', async () => {
    const { page, scriptRequests } = await openStandInApp(h, browser, standIns, { app: CAP_OK })
    await openWithCaptcha(page)
    await page.waitForSelector('[role=dialog][data-screen=captcha-challenge] >> text=Success')
    await h.screenshot(page, 'captcha-success')
    // Continues by itself back to the landing.
    const address = `captcha-${Date.now()}@example.com`
    const since = Date.now()
    const before = sv.calls.length
    await submitEmail(page, address)
    await page.waitForSelector('[role=dialog][data-screen=email-code]', { timeout: 10_000 })
    expect(sv.calls.length).toBe(before + 1)
    expect(sv.calls[before]).toMatchObject({ secret: SECRET })
    expect(sv.calls[before].response).toMatch(/^pass\.sk-pass\./)
    const code = await h.readOutboxCode(address, since)
    await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
    await page.keyboard.type(code)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    await page.waitForSelector('[data-testid=status]:text-is("logged in")')
    expect(scriptRequests.every((u) => u.startsWith('https://challenges.cloudflare.com/turnstile/v0/api.js'))).toBe(true)
    expect(errorsOf(page)).toEqual([])
  })

  it("a widget that keeps failing: 'You did not pass CAPTCHA. Please try again.' and, after 3 retries, the adblocker hint", async () => {
    const { page } = await openStandInApp(h, browser, standIns, { app: CAP_FAIL })
    await openWithCaptcha(page)
    await page.waitForSelector('[role=dialog] .portico-title:text-is("You did not pass CAPTCHA. Please try again.")', { timeout: 20_000 })
    expect(await page.textContent('[role=dialog] .portico-description')).toBe('If you use an adblocker or VPN, try disabling and re-attempting.')
    expect(await page.getByRole('button', { name: 'Try again', exact: true }).count()).toBe(1)
    await h.screenshot(page, 'captcha-failure')
  })

  it("a token the server refuses: 'Please try again.'", async () => {
    const { page } = await openStandInApp(h, browser, standIns, { app: CAP_REFUSE })
    await openWithCaptcha(page)
    await submitEmail(page, `refused-${Date.now()}@example.com`)
    await page.waitForSelector('[role=dialog] >> text=Please try again.', { timeout: 10_000 })
    await h.screenshot(page, 'captcha-invalid')
  })

  it('a blocked captcha script never breaks start-up: the captcha screen shows the failure', async () => {
    const { page, scriptRequests } = await openStandInApp(h, browser, standIns, { app: CAP_OK }, { allowScripts: false })
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
    await openWithCaptcha(page)
    await page.waitForSelector('[role=dialog] .portico-title:text-is("You did not pass CAPTCHA. Please try again.")', { timeout: 20_000 })
    expect(scriptRequests).toEqual([])
  })
})
