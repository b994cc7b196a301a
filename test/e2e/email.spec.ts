/**
 * E-mail login end to end (code from the server's dev outbox), terms consent, allowlist,
 * user limit, development mode, plus-address rule, the error screen, update and unlink.
 * Every screen is screenshotted and checked with axe-core (no serious or critical violation).
 * Pages here bypass the CSP so axe can be injected; the CSP itself is tested in modal.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { APPS, startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

let n = 0
const address = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}@example.com`

async function noSeriousViolations(page: Page, where: string) {
  const v = await h.axe(page)
  expect(v, `${where}: ${JSON.stringify(v, null, 1)}`).toEqual([])
}

const open = (query: Record<string, string> = {}, viewport?: { width: number; height: number }) =>
  h.openPage(query, { bypassCSP: true, viewport })

/** Type the address, submit with Enter, wait for the code screen; returns when the code was sent. */
async function sendCode(page: Page, email: string) {
  const since = Date.now()
  await page.fill('input[type=email]', email)
  await page.press('input[type=email]', 'Enter')
  await page.waitForSelector('[role=dialog][data-screen=email-code] .portico-code-box')
  return since
}

async function typeCode(page: Page, code: string) {
  await page.click('.portico-code-box >> nth=0')
  await page.keyboard.type(code, { delay: 20 })
}

describe('e-mail login', { timeout: 60_000 }, () => {
  it('logs in end to end with the code from the dev outbox', async () => {
    const page = await open()
    await h.openModal(page)
    await noSeriousViolations(page, 'landing')
    const email = address('ana')
    const since = await sendCode(page, email)
    expect(await page.textContent('.portico-title')).toBe('Enter confirmation code')
    expect(await page.textContent('[data-portico-code-sent]')).toBe('Code sent')
    await h.screenshot(page, 'email-code')
    await noSeriousViolations(page, 'email-code')
    const code = await h.readOutboxCode(email, since)
    expect(code).toMatch(/^\d{6}$/)
    await typeCode(page, code)
    await page.waitForSelector('[data-portico-code-status=success]')
    await h.screenshot(page, 'email-code-success')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect(await page.textContent('[data-testid=result]')).toBe('complete: email (new user)')
    expect(await page.textContent('[data-testid=user]')).toContain(email)
    await h.screenshot(page, 'demo-logged-in')
    expect(h.consoleErrors(page)).toEqual([])
    // The method is remembered: after logging out, the e-mail input carries the 'Recent' chip.
    await page.click('[data-testid=logout]')
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged out')
    await h.openModal(page)
    expect(await page.textContent('.portico-landing-input[data-method=email] .portico-chip')).toBe('Recent')
    await h.screenshot(page, 'landing-recent')
  })

  it('a wrong code shows the inline error and clears the boxes after 1.4 s', async () => {
    const page = await open()
    await h.openModal(page)
    const email = address('wrong')
    const since = await sendCode(page, email)
    const code = await h.readOutboxCode(email, since)
    const wrong = code === '000000' ? '111111' : '000000'
    await typeCode(page, wrong)
    await page.waitForSelector('text=Invalid or expired verification code')
    await h.screenshot(page, 'email-code-wrong')
    await noSeriousViolations(page, 'email-code error')
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>('.portico-code-box')].every((b) => b.value === ''),
    )
    await typeCode(page, code)
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
  })

  it("plus addresses are refused inline with the spec's text", async () => {
    const page = await open({ app: APPS.noPlus })
    await h.openModal(page)
    await page.fill('input[type=email]', 'ana+news@example.com')
    expect(await page.textContent('.portico-field-error')).toBe("Please enter a valid email address without a '+'.")
    expect(await page.isDisabled('.portico-email-form button[type=submit]')).toBe(true)
    await h.screenshot(page, 'email-plus-refused')
    await noSeriousViolations(page, 'plus address')
  })

  it('update the e-mail from the demo buttons; unlinking the last account is refused', { timeout: 60_000 }, async () => {
    const page = await open()
    await h.openModal(page)
    const first = address('old')
    let since = await sendCode(page, first)
    await typeCode(page, await h.readOutboxCode(first, since))
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    await page.click('text=Update email')
    await page.waitForSelector('[role=dialog][data-screen=email-form]')
    expect(await page.textContent('.portico-title')).toBe('Update your email')
    await h.screenshot(page, 'email-update-form')
    await noSeriousViolations(page, 'update form')
    const second = address('new')
    since = await sendCode(page, second)
    await typeCode(page, await h.readOutboxCode(second, since))
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=result]')).toBe('complete: update')
    const user = await page.textContent('[data-testid=user]')
    expect(user).toContain(second)
    expect(user).not.toContain(first)
    await page.click('text=Unlink email')
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    // The server keeps a user's last account: the unlink is refused and nothing is lost.
    await page.waitForFunction(() => document.querySelector('[data-testid=result]')?.textContent !== 'complete: update')
    expect(await page.textContent('[data-testid=result]')).toBe('error: invalid_data')
    expect(await page.textContent('[data-testid=user]')).toContain(second)
  })
})

describe('terms consent', { timeout: 60_000 }, () => {
  it("'One last step' cannot be closed; Accept records acceptance and closes", async () => {
    const page = await open({ app: APPS.terms })
    await h.openModal(page)
    expect(await page.locator('[data-portico-legal]').count()).toBe(0)
    const email = address('terms')
    const since = await sendCode(page, email)
    await typeCode(page, await h.readOutboxCode(email, since))
    await page.waitForSelector('[role=dialog][data-screen=terms-consent] .portico-title')
    expect(await page.textContent('.portico-title')).toBe('One last step')
    expect(await page.textContent('.portico-description')).toBe('By signing up, you agree to our terms and privacy policy.')
    expect(await page.getAttribute('a:has-text("View Terms")', 'href')).toBe('https://example.com/terms')
    expect(await page.getAttribute('a:has-text("View Privacy Policy")', 'href')).toBe('https://example.com/privacy')
    expect(await page.locator('[data-portico-close]').count()).toBe(0)
    await h.screenshot(page, 'terms-consent')
    await noSeriousViolations(page, 'terms consent')
    await page.keyboard.press('Escape')
    await page.mouse.click(10, 10)
    expect(await page.locator('[role=dialog][data-screen=terms-consent]').count()).toBe(1)
    await page.click('button:has-text("Accept")')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect(await page.textContent('[data-testid=user]')).toContain('"hasAcceptedTerms": true')
  })

  it("'No thanks' logs the user out and reports exited_auth_flow", async () => {
    const page = await open({ app: APPS.terms })
    await h.openModal(page)
    const email = address('decline')
    const since = await sendCode(page, email)
    await typeCode(page, await h.readOutboxCode(email, since))
    await page.click('button:has-text("No thanks")')
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
    expect(await page.textContent('[data-testid=result]')).toBe('error: exited_auth_flow')
  })
})

describe('rejection and error screens', { timeout: 60_000 }, () => {
  it('allowlist rejection shows the configured texts and link', async () => {
    const page = await open({ app: APPS.allowlist })
    await h.openModal(page)
    const email = address('stranger')
    const since = await sendCode(page, email)
    await typeCode(page, await h.readOutboxCode(email, since))
    await page.waitForSelector('[role=dialog][data-screen=allowlist-rejection] .portico-title')
    expect(await page.textContent('.portico-title')).toBe("You don't have access to this app")
    expect(await page.textContent('.portico-description')).toBe('Have you been invited?')
    expect(await page.getAttribute('a:has-text("Try another account")', 'href')).toBe('https://example.com/waitlist')
    await h.screenshot(page, 'allowlist-rejection')
    await noSeriousViolations(page, 'allowlist')
  })

  it("user limit: 'Unable to sign in'", async () => {
    for (const who of ['limit-a', 'limit-b']) {
      const r = await h.loginViaApi(APPS.userLimit, address(who))
      expect(r.status).toBe(200)
    }
    const page = await open({ app: APPS.userLimit })
    await h.openModal(page)
    const email = address('limit-c')
    const since = await sendCode(page, email)
    await typeCode(page, await h.readOutboxCode(email, since))
    await page.waitForSelector('[role=dialog][data-screen=user-limit] .portico-title')
    expect(await page.textContent('.portico-title')).toBe('Unable to sign in')
    await h.screenshot(page, 'user-limit')
    await noSeriousViolations(page, 'user limit')
    await page.click('button:has-text("Try another method")')
    await page.waitForSelector('[role=dialog][data-screen=landing]')
  })

  it('development mode refuses new users with the spec text', async () => {
    for (const who of ['dev-a', 'dev-b']) await h.loginViaApi(APPS.devMode, address(who))
    const page = await open({ app: APPS.devMode })
    await h.openModal(page)
    const email = address('dev-c')
    const since = await sendCode(page, email)
    await typeCode(page, await h.readOutboxCode(email, since))
    await page.waitForSelector('[role=dialog][data-screen=development-mode] .portico-title')
    expect(await page.textContent('.portico-description')).toBe(
      'This application is in development mode and must be upgraded to production to log in new users.',
    )
    await h.screenshot(page, 'development-mode')
    await noSeriousViolations(page, 'development mode')
  })

  it('the error screen returns to the previous screen', async () => {
    const page = await open()
    await h.openModal(page)
    await page.evaluate(() => (window as any).portico.screens.error(new Error('boom')))
    await page.waitForSelector('[role=dialog][data-screen=error] .portico-title')
    expect(await page.textContent('.portico-title')).toBe('Something went wrong')
    expect(await page.textContent('.portico-description')).toBe('Try again later')
    await h.screenshot(page, 'error-generic')
    await noSeriousViolations(page, 'error screen')
    await page.click('button:has-text("Try again")')
    await page.waitForSelector('[role=dialog][data-screen=landing]')
  })
})

// A deadline, not a wait: four pages and four axe passes take over a minute on a loaded 2-core machine.
describe('accessibility of the landing variants', { timeout: 150_000 }, () => {
  it('groups, dark, overflow and the mobile sheet have no serious or critical violation', async () => {
    const variants: [string, Record<string, string>, { width: number; height: number }?][] = [
      ['groups', { layout: 'groups' }],
      ['dark', { theme: 'dark', accent: '#e4572e' }],
      ['mobile', {}, { width: 390, height: 844 }],
    ]
    for (const [name, q, vp] of variants) {
      const page = await open(q, vp)
      await h.openModal(page)
      await noSeriousViolations(page, name)
    }
    const page = await open()
    await h.openModal(page)
    await page.click('[data-method=more-options]')
    await page.waitForSelector('.portico-landing[data-view=overflow]')
    await noSeriousViolations(page, 'overflow')
    const mobile = await open({ theme: 'dark' }, { width: 390, height: 844 })
    await h.openModal(mobile)
    await h.screenshot(mobile, 'landing-mobile-dark')
  })
})
