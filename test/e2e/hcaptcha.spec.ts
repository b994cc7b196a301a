/**
 * hCaptcha in Chromium against the reference server: the demo app with `?captcha=hcaptcha`
 * runs hcaptcha() instead of turnstile(). Its script request goes where hCaptcha documents it
 * (`https://js.hcaptcha.com/1/api.js?render=explicit`, answered by the local stand-in widget:
 * `window.hcaptcha.render(container, {sitekey, callback, 'error-callback', ...})`); the token
 * rides on the e-mail init, and the server checks it with the siteverify stand-in the way
 * hCaptcha documents it (POST form `secret`, `response`, `remoteip`, `sitekey`). A valid token
 * logs in; a token siteverify refuses is refused by the server ('Please try again.').
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSiteverify, widgetScript, type Siteverify } from '../stand-ins/captcha'
import { startHarness, type Harness } from './harness'
import { captchaApp, errorsOf, openStandInApp, openWithCaptcha, ownBrowser, submitEmail, type StandIns } from './tgcap-shared'

const SECRET = 'cln-hcaptcha-secret'
const HC_OK = 'cln-hcaptcha-e2e-00000001'
const HC_REFUSE = 'cln-hcaptcha-e2e-00000002'

let h: Harness
let browser: Browser
let sv: Siteverify
const standIns: StandIns = { telegramScript: () => '', turnstileScript: () => '', hcaptchaScript: () => widgetScript('hcaptcha') }

beforeAll(async () => {
  sv = await startSiteverify({ secret: SECRET })
  const app = (id: string, siteKey: string) => captchaApp(id, { name: 'hCaptcha E2E', provider: 'hcaptcha', siteKey, secret: SECRET, verifyUrl: sv.url })
  h = await startHarness({ extraApps: [app(HC_OK, 'hc-pass'), app(HC_REFUSE, 'hc-refuse')] })
  browser = await ownBrowser()
})
afterAll(async () => {
  await browser?.close()
  await h?.close()
  await sv?.close()
})

describe('captcha (hCaptcha stand-in) in the browser', { timeout: 90_000 }, () => {
  it('logs in by e-mail: hCaptcha api.js, the captcha screen continues by itself, siteverify passes the token', async () => {
    const { page, scriptRequests } = await openStandInApp(h, browser, standIns, { app: HC_OK, captcha: 'hcaptcha' })
    await openWithCaptcha(page)
    await page.waitForSelector('[role=dialog][data-screen=captcha-challenge] >> text=Success')
    await h.screenshot(page, 'hcaptcha-success')
    const address = `hcaptcha-${Date.now()}@example.com`
    const since = Date.now()
    const before = sv.calls.length
    await submitEmail(page, address)
    await page.waitForSelector('[role=dialog][data-screen=email-code]', { timeout: 10_000 })
    expect(sv.calls.length).toBe(before + 1)
    expect(sv.calls[before]).toMatchObject({ secret: SECRET, sitekey: 'hc-pass' })
    expect(sv.calls[before].response).toMatch(/^pass\.hc-pass\./)
    expect(sv.calls[before].remoteip).toBeTruthy()
    const code = await h.readOutboxCode(address, since)
    await page.locator('[role=dialog] input[aria-label="Digit 1 of 6"]').click()
    await page.keyboard.type(code)
    await page.waitForSelector('[role=dialog]', { state: 'detached', timeout: 10_000 })
    await page.waitForSelector('[data-testid=status]:text-is("logged in")')
    // The script hCaptcha documents for explicit rendering, and only it.
    expect(scriptRequests.length).toBeGreaterThan(0)
    for (const url of scriptRequests) expect(url).toBe('https://js.hcaptcha.com/1/api.js?render=explicit')
    expect(errorsOf(page)).toEqual([])
  })

  it("a token siteverify refuses: the server answers invalid_captcha, the screen says 'Please try again.', no code is sent", async () => {
    const { page } = await openStandInApp(h, browser, standIns, { app: HC_REFUSE, captcha: 'hcaptcha' })
    await openWithCaptcha(page)
    const address = `hcaptcha-refused-${Date.now()}@example.com`
    const before = sv.calls.length
    const answers: { status: number; body: any }[] = []
    page.on('response', (r) => {
      if (r.url().endsWith('/passwordless/init') && r.request().method() === 'POST') void r.json().then((body) => answers.push({ status: r.status(), body }), () => {})
    })
    await submitEmail(page, address)
    await page.waitForSelector('[role=dialog] >> text=Please try again.', { timeout: 10_000 })
    await h.screenshot(page, 'hcaptcha-invalid')
    expect(sv.calls.length).toBe(before + 1)
    expect(sv.calls[before]).toMatchObject({ secret: SECRET, sitekey: 'hc-refuse' })
    await expect.poll(() => answers.length).toBeGreaterThan(0)
    expect(answers[0]).toMatchObject({ status: 400, body: { code: 'invalid_captcha' } })
    expect(await page.locator('[role=dialog][data-screen=email-code]').count()).toBe(0)
  })
})
