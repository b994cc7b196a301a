/**
 * MFA in Chromium against the reference server (real database, real codes): enrol an
 * authenticator app (the test computes TOTP codes with `otpauth`), verify before a sensitive
 * action, four wrong codes block input, remove the app after verifying; enrol SMS with the
 * code from the dev outbox and verify with SMS; enrol a passkey with Chromium's virtual
 * authenticator and verify with it. The page runs at http://localhost:<port> (WebAuthn needs a
 * domain as relying party id).
 */
import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startHarness, type Harness } from './harness'
import { totpStepWithMargin } from './totp'

const APP = 'portico-test-mfa-00000001'
const T = {
  introTitle: 'Add extra security',
  chooseTitle: 'Choose a verification method',
  verifyTitle: 'Verify your identity',
  totpAdded: 'Authenticator app verification added',
  smsAdded: 'SMS verification added',
  passkeyAdded: 'Passkey verification added',
  invalid: 'The code you entered is not valid',
  maxAttempts: 'You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.',
  changeNeedsVerification: 'To add or delete verification methods, verification is required.',
  consent: 'By providing your mobile number, you agree to receive text messages from MFA Test. Some carrier charges may apply',
}

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

let n = 0
const email = (tag: string) => `mfa-${tag}-${process.pid}-${Date.now().toString(36)}-${n++}@example.com`

const result = (page: Page) => page.textContent('[data-testid=result]')
async function waitResult(page: Page, want: string) {
  await page.waitForFunction((w) => document.querySelector('[data-testid=result]')?.textContent === w, want)
}
async function waitStatus(page: Page, want: string) {
  await page.waitForFunction((w) => document.querySelector('[data-testid=status]')?.textContent === w, want)
}
const userRecord = async (page: Page) => JSON.parse((await page.textContent('[data-testid=user]')) ?? 'null')

async function typeCode(page: Page, code: string) {
  await page.waitForSelector('[role=dialog] .portico-code-box:not([disabled])')
  await page.click('[role=dialog] .portico-code-box >> nth=0')
  await page.keyboard.type(code, { delay: 15 })
}

async function logIn(page: Page, address: string) {
  await h.openModal(page)
  const since = Date.now()
  await page.fill('input[type=email]', address)
  await page.press('input[type=email]', 'Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code] .portico-code-box')
  await typeCode(page, await h.readOutboxCode(address, since))
  await waitStatus(page, 'logged in')
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
}

async function logOut(page: Page) {
  await page.click('[data-testid=logout]')
  await waitStatus(page, 'logged out')
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name }).waitFor()

async function openMethods(page: Page, first: boolean) {
  await page.getByRole('button', { name: 'MFA', exact: true }).click()
  if (first) {
    await heading(page, T.introTitle)
    await page.getByRole('button', { name: 'Continue' }).click()
  }
  await heading(page, T.chooseTitle)
}

/** Enrols TOTP through the screens; returns the generator (codes computed like an authenticator app). */
async function enrolTotp(page: Page, shots = false) {
  await openMethods(page, true)
  if (shots) await h.screenshot(page, 'mfa-methods')
  expect(await page.locator('[data-mfa-method=totp]').textContent()).toContain('Recommended')
  await page.click('[data-mfa-method=totp] button')
  await page.waitForSelector('[data-mfa-totp-enrol] svg.portico-qr-code')
  const secret = await page.inputValue('[data-mfa-totp-secret]')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  if (shots) await h.screenshot(page, 'mfa-totp-enrol')
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.waitForSelector('[data-mfa-totp-code]')
  if (shots) await h.screenshot(page, 'mfa-totp-code')
  const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' })
  // The previous step (accepted for clock drift): later verifications use the current and next steps.
  await totpStepWithMargin()
  await typeCode(page, gen.generate({ timestamp: Date.now() - 30_000 }))
  await heading(page, T.totpAdded)
  await waitResult(page, 'complete: mfa enrolled totp')
  if (shots) await h.screenshot(page, 'mfa-totp-added')
  await page.getByRole('button', { name: 'Done' }).click()
  await page.waitForSelector('[role=dialog]', { state: 'detached' })
  return gen
}

async function sensitiveAction(page: Page) {
  await page.getByRole('button', { name: 'Sensitive action' }).click()
  await heading(page, T.verifyTitle)
}

describe('MFA in the browser', { timeout: 180_000 }, () => {
  it('TOTP: enrol (QR, secret, code), verify before a sensitive action, remove after verifying', async () => {
    const page = await h.openPage({ app: APP }, { host: 'localhost' })
    await logIn(page, email('totp'))
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await heading(page, T.introTitle)
    await h.screenshot(page, 'mfa-intro')
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    const gen = await enrolTotp(page, true)
    expect((await userRecord(page)).mfaMethods.map((m: { type: string }) => m.type)).toEqual(['totp'])

    // A sensitive action: 'Verify your identity' with the authenticator app preselected.
    await sensitiveAction(page)
    await page.waitForSelector('[data-mfa-verify][data-mfa-method=totp][data-mfa-status=awaiting-code]')
    await h.screenshot(page, 'mfa-verify-totp')
    await typeCode(page, gen.generate())
    await waitResult(page, 'complete: sensitive action allowed')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    // A fresh page (this browser has not verified): removing asks for a verification first.
    await page.reload()
    await waitStatus(page, 'logged in')
    await openMethods(page, false)
    expect(await page.locator('[data-mfa-method=totp]').textContent()).toContain('Enabled')
    await page.getByRole('button', { name: 'Remove Authenticator app' }).click()
    await heading(page, 'Remove Authenticator app?')
    await h.screenshot(page, 'mfa-remove')
    await page.getByRole('button', { name: 'Remove', exact: true }).click()
    await heading(page, T.verifyTitle)
    await page.getByText(T.changeNeedsVerification).waitFor()
    await h.screenshot(page, 'mfa-verify-change')
    await typeCode(page, gen.generate({ timestamp: Date.now() + 30_000 }))
    await heading(page, T.chooseTitle)
    await page.waitForFunction(() => !document.querySelector('[data-mfa-method=totp][data-mfa-enabled]'))
    expect((await userRecord(page)).mfaMethods).toEqual([])
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    // Without methods a sensitive action goes on at once.
    await page.getByRole('button', { name: 'Sensitive action' }).click()
    await waitResult(page, 'complete: sensitive action allowed')
    expect(h.consoleErrors(page).filter((e) => !/status of 4\d\d/.test(e))).toEqual([])
  })

  it('four wrong codes block input with the blocking text; Not now cancels', async () => {
    const page = await h.openPage({ app: APP }, { host: 'localhost' })
    await logIn(page, email('wrong'))
    const gen = await enrolTotp(page)
    await sensitiveAction(page)
    const good = gen.generate()
    const wrong = String((Number(good) + 500_000) % 1_000_000).padStart(6, '0')
    for (let i = 1; i <= 4; i++) {
      await typeCode(page, wrong)
      if (i < 4) {
        await page.getByText(T.invalid).waitFor()
        await page.waitForFunction(() => [...document.querySelectorAll<HTMLInputElement>('[role=dialog] .portico-code-box')].every((b) => b.value === ''))
      }
    }
    await page.waitForSelector('[data-mfa-blocking=max_attempts]')
    expect(await page.textContent('[data-mfa-blocking-text]')).toBe(T.maxAttempts)
    expect(await page.locator('[role=dialog] .portico-code-box').evaluateAll((bs) => bs.every((b) => (b as HTMLInputElement).disabled))).toBe(true)
    await waitResult(page, 'error: mfa_verification_max_attempts_reached')
    await h.screenshot(page, 'mfa-verify-blocked')
    await page.getByRole('button', { name: 'Not now' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    // 'Not now' on a new prompt cancels the action.
    await sensitiveAction(page)
    await page.getByRole('button', { name: 'Not now' }).click()
    await waitResult(page, 'error: mfa_canceled')
  })

  it('SMS: enrol with the code from the outbox (back returns to the number), then verify with SMS', async () => {
    const page = await h.openPage({ app: APP }, { host: 'localhost' })
    await logIn(page, email('sms'))
    const phone = `+1415555${String(1000 + Math.floor(Math.random() * 8999))}`
    await openMethods(page, true)
    await page.click('[data-mfa-method=sms] button')
    await page.waitForSelector('[data-mfa-sms-phone]')
    expect(await page.textContent('[data-mfa-sms-consent]')).toBe(T.consent)
    await page.fill('[data-mfa-sms-phone] input[type=tel]', phone)
    await h.screenshot(page, 'mfa-sms-phone')
    let since = Date.now()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForSelector('[data-mfa-sms-code]')
    // Back from the code returns to the number.
    await page.click('[data-portico-back]')
    await page.waitForSelector('[data-mfa-sms-phone]')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForSelector('[data-mfa-sms-code]')
    await h.screenshot(page, 'mfa-sms-code')
    await typeCode(page, await h.readOutboxCode(phone, since))
    await heading(page, T.smsAdded)
    await waitResult(page, 'complete: mfa enrolled sms')
    await page.getByRole('button', { name: 'Done' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    since = Date.now()
    await sensitiveAction(page)
    await page.waitForSelector('[data-mfa-verify][data-mfa-method=sms][data-mfa-status=awaiting-code]')
    await h.screenshot(page, 'mfa-verify-sms')
    await typeCode(page, await h.readOutboxCode(phone, since))
    await waitResult(page, 'complete: sensitive action allowed')
  })

  it('passkey: enrol with the virtual authenticator, then verify with it by itself', async () => {
    const page = await h.openPage({ app: APP }, { host: 'localhost' })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable', { enableUI: false })
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    await logIn(page, email('passkey'))
    await openMethods(page, true)
    await page.click('[data-mfa-method=passkey] button')
    await page.waitForSelector('[data-mfa-passkey-intro]')
    await h.screenshot(page, 'mfa-passkey-intro')
    await page.getByRole('button', { name: 'Add a new passkey' }).click()
    await heading(page, T.passkeyAdded)
    await waitResult(page, 'complete: mfa enrolled passkey')
    await h.screenshot(page, 'mfa-passkey-added')
    await page.getByRole('button', { name: 'Done' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    const user = await userRecord(page)
    expect(user.mfaMethods.map((m: { type: string }) => m.type)).toEqual(['passkey'])
    expect(user.linkedAccounts.find((a: { type: string }) => a.type === 'passkey').enrolledInMfa).toBe(true)

    // The list screen with the passkey.
    await openMethods(page, false)
    expect(await page.locator('[data-mfa-method=passkey]').textContent()).toContain('Enabled')
    await h.screenshot(page, 'mfa-methods-enabled')
    await page.keyboard.press('Escape')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })

    // Verification initialises and submits by itself.
    await page.getByRole('button', { name: 'Sensitive action' }).click()
    await waitResult(page, 'complete: sensitive action allowed')
    expect(await result(page)).toBe('complete: sensitive action allowed')
  })

  it('accessibility (axe, serious and critical) and the dark theme on the MFA screens', async () => {
    const page = await h.openPage({ app: APP, theme: 'dark' }, { host: 'localhost', bypassCSP: true })
    await logIn(page, email('a11y'))
    await page.getByRole('button', { name: 'MFA', exact: true }).click()
    await heading(page, T.introTitle)
    expect(await h.axe(page)).toEqual([])
    await page.getByRole('button', { name: 'Continue' }).click()
    await heading(page, T.chooseTitle)
    expect(await h.axe(page)).toEqual([])
    await h.screenshot(page, 'mfa-methods-dark')
    await page.click('[data-mfa-method=totp] button')
    await page.waitForSelector('[data-mfa-totp-enrol] svg.portico-qr-code')
    expect(await h.axe(page)).toEqual([])
    const secret = await page.inputValue('[data-mfa-totp-secret]')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForSelector('[data-mfa-totp-code]')
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' })
    await totpStepWithMargin()
    await typeCode(page, gen.generate({ timestamp: Date.now() - 30_000 }))
    await heading(page, T.totpAdded)
    await page.getByRole('button', { name: 'Done' }).click()
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await sensitiveAction(page)
    await page.waitForSelector('[data-mfa-verify][data-mfa-status=awaiting-code]')
    expect(await h.axe(page)).toEqual([])
    await h.screenshot(page, 'mfa-verify-dark')
    // Escape closes the modal: the action is canceled.
    await page.keyboard.press('Escape')
    await waitResult(page, 'error: mfa_canceled')
  })
})
