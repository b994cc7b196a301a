/**
 * OAuth end to end in Chromium: the production demo app under its strict CSP, the reference
 * server (its /oauth routes and callback) and the local identity provider stand-in of
 * examples/server/idp (every provider's authorize, token and profile endpoints; Apple by
 * form_post). Nothing is mocked: the browser goes app → stand-in's consent page → the
 * server's callback → the app (redirect mode) or the popup page that answers its opener.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOAuthIdp } from '../../examples/server/idp/server'
import { startHarness, type Harness } from './harness'

const OAUTH_APP = 'portico-test-oauth-000001'
const METHODS = 'google,github,apple,twitter'

let h: Harness
let idp: Server
const timings: Record<string, number> = {}
const step = (s: string) => process.env.E2E_DEBUG && console.log(`[oauth e2e] ${s}`)

beforeAll(async () => {
  // The stand-in on a random port; the test app's providers point at it.
  const port = await new Promise<number>((resolve) => {
    const probe = serve({ fetch: () => new Response(''), port: 0, hostname: '127.0.0.1' }, (info) => {
      probe.close()
      resolve(info.port)
    })
  })
  const origin = `http://127.0.0.1:${port}`
  const { app } = await createOAuthIdp({ origin })
  idp = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server
  })
  // The server reads the providers' base URL per request (this worker's environment only).
  process.env.PORTICO_OAUTH_BASE_URL = origin
  h = await startHarness()
}, 180_000)

afterAll(async () => {
  delete process.env.PORTICO_OAUTH_BASE_URL
  await h?.close()
  await new Promise((r) => (idp ? idp.close(r) : r(null)))
  if (Object.keys(timings).length) console.log(`[oauth e2e] return → logged in (ms): ${JSON.stringify(timings)}`)
})

const status = (page: Page) => page.locator('[data-testid=status]').textContent()
const userRecord = async (page: Page) => JSON.parse((await page.locator('[data-testid=user]').textContent()) || 'null')

const open = (query: Record<string, string> = {}) => h.openPage({ app: OAUTH_APP, methods: METHODS, ...query })

/** The stand-in's consent page: pick the test user, Allow or Deny. */
async function consent(page: Page, user: string, decision: 'Allow' | 'Deny' = 'Allow') {
  await page.locator('select[name=user]').waitFor({ timeout: 20_000 })
  await page.selectOption('select[name=user]', user)
  await page.getByRole('button', { name: decision, exact: true }).click()
}

async function waitLoggedIn(page: Page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent === 'logged in', undefined, { timeout: 20_000 })
}

/** Redirect mode: choose the row, consent at the stand-in, come back; returns ms from the return to logged in. */
async function loginByRedirect(page: Page, provider: string, user: string): Promise<number> {
  await h.openModal(page)
  await page.locator(`[role=dialog] [data-method=${provider}]`).click()
  await page.waitForURL((u) => !u.href.startsWith(h.appUrl), { timeout: 20_000 })
  step(`${provider}: at the stand-in ${page.url().split('?')[0]}`)
  await consent(page, user)
  await page.waitForURL((u) => u.href.startsWith(h.appUrl), { waitUntil: 'commit', timeout: 20_000 })
  const back = Date.now()
  await waitLoggedIn(page)
  return Date.now() - back
}

describe('OAuth', { timeout: 90_000 }, () => {
  it('logs in with Google by redirect: the return is claimed at start-up and its parameters leave the address', async () => {
    const page = await open()
    timings.googleRedirect = await loginByRedirect(page, 'google', 'alice')
    // 'Successfully connected' for about 1.4 s, then the modal closes (no terms, no wallet for this app).
    await page.getByText('Successfully connected').waitFor()
    await page.locator('[role=dialog]').waitFor({ state: 'detached' })
    const user = await userRecord(page)
    expect(user.google).toMatchObject({ type: 'google_oauth', email: 'alice@example.com', name: 'Alice Example' })
    expect(page.url()).not.toMatch(/privy_oauth_|portico_oauth_/)
    expect(page.url()).toContain(`app=${OAUTH_APP}`)
    // The provider's tokens reached the app through useOAuthTokens (the demo shows what, not the tokens).
    expect(await page.locator('[data-testid=oauth-grant]').textContent()).toMatch(/^google login: access token/)
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toMatch(/pending/)
    expect(h.consoleErrors(page)).toEqual([])
  })

  it('logs in with Google in a popup (origin-checked message to the opener)', async () => {
    const page = await open({ oauth: 'popup' })
    await h.openModal(page)
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('[role=dialog] [data-method=google]').click()])
    await page.getByText('Verifying connection').waitFor()
    await page.getByText('Finish connecting in the Google window.').waitFor()
    await consent(popup, 'bob')
    await popup.waitForEvent('close', { timeout: 30_000 })
    const t0 = Date.now()
    await waitLoggedIn(page)
    timings.googlePopup = Date.now() - t0
    expect((await userRecord(page)).google).toMatchObject({ email: 'bob@example.com' })
    expect(page.url()).not.toMatch(/privy_oauth_/)
  })

  it('logs in with GitHub, Apple (form_post) and Twitter', async () => {
    for (const [provider, user] of [['github', 'alice'], ['apple', 'carol'], ['twitter', 'bob']] as const) {
      const page = await open()
      timings[provider] = await loginByRedirect(page, provider, user)
      const record = await userRecord(page)
      expect(record[provider], provider).toMatchObject({ type: `${provider}_oauth` })
      expect(typeof record[provider].subject).toBe('string')
      await page.context().close()
    }
  })

  it("shows a denied consent as 'Authentication failed' with Retry", async () => {
    const page = await open()
    await h.openModal(page)
    await page.locator('[role=dialog] [data-method=google]').click()
    await consent(page, 'alice', 'Deny')
    await page.getByText('Authentication failed').waitFor({ timeout: 20_000 })
    await page.getByText('Retry and check Google to finish connecting your account.').waitFor()
    expect(await page.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(1)
    expect(await status(page)).toBe('logged out')
    expect(page.url()).not.toMatch(/privy_oauth_/)
  })

  it("shows a suspended provider account: 'Your Google account is suspended. …'", async () => {
    const page = await open()
    await h.openModal(page)
    await page.locator('[role=dialog] [data-method=google]').click()
    await consent(page, 'dave')
    await page.getByText('Your Google account is suspended. Please try another login method.').waitFor({ timeout: 20_000 })
    expect(await page.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(0)
    expect(await status(page)).toBe('logged out')
  })

  it("'no-signup' (disableSignup) refuses a new user with 'Account not found'", async () => {
    const page = await open({ noSignup: '1' })
    await h.openModal(page)
    await page.locator('[role=dialog] [data-method=github]').click()
    await page.locator('select[name=user]').waitFor({ timeout: 20_000 })
    // A user the stand-in creates on the fly, unknown to Portico.
    await page.evaluate(() => {
      const o = document.createElement('option')
      o.value = o.textContent = `newcomer-${Date.now()}`
      document.querySelector('select[name=user]')!.append(o)
    })
    await page.selectOption('select[name=user]', { index: (await page.locator('select[name=user] option').count()) - 1 })
    await page.getByRole('button', { name: 'Allow', exact: true }).click()
    await page.getByText('Account not found').waitFor({ timeout: 20_000 })
    expect(await status(page)).toBe('logged out')
  })

  it('refuses a returned state that differs from the stored one', async () => {
    const page = await open()
    // On the way back, before the app starts, the stored state no longer matches the returned one.
    await page.addInitScript(() => {
      if (!new URLSearchParams(location.search).has('privy_oauth_state')) return
      for (const key of Object.keys(sessionStorage)) {
        if (!key.endsWith(':pending')) continue
        const p = JSON.parse(sessionStorage.getItem(key)!)
        sessionStorage.setItem(key, JSON.stringify({ ...p, state: 'another-state' }))
      }
    })
    await h.openModal(page)
    await page.locator('[role=dialog] [data-method=google]').click()
    await consent(page, 'alice')
    await page.getByText('Unexpected auth flow. This may be a phishing attempt.').waitFor({ timeout: 20_000 })
    expect(await status(page)).toBe('logged out')
    expect(page.url()).not.toMatch(/privy_oauth_/)
  })

  it('links Google to a GitHub user, then unlinks it', async () => {
    const page = await open()
    await loginByRedirect(page, 'github', 'carol')
    await page.getByRole('button', { name: 'Link Google', exact: true }).click()
    await consent(page, 'carol')
    await page.waitForFunction(() => document.querySelector('[data-testid=user]')?.textContent?.includes('google_oauth'), undefined, { timeout: 20_000 })
    const linked = await userRecord(page)
    expect(linked.google).toMatchObject({ type: 'google_oauth', name: 'Carol Nomail', email: null })
    expect(linked.github).toBeTruthy()
    await page.getByRole('button', { name: 'Unlink Google', exact: true }).click()
    await page.locator('[data-demo-confirm]').getByRole('button', { name: 'Unlink', exact: true }).click() // the demo asks first
    await page.getByText('complete: unlink google').waitFor()
    expect((await userRecord(page)).google).toBeFalsy()
  })

  it('transfers a Google account from another user after the link conflict prompt', async () => {
    // Another user owns bob's Google account.
    const first = await open()
    await loginByRedirect(first, 'google', 'bob')
    await first.context().close()
    // A GitHub user links that Google account: the server asks for a transfer.
    const page = await open()
    await loginByRedirect(page, 'github', 'bob')
    await page.getByRole('button', { name: 'Link Google', exact: true }).click()
    await consent(page, 'bob')
    await page.getByText('Google profile is associated with another account').waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Transfer and delete account', exact: true }).click()
    await page.getByRole('button', { name: 'Success!', exact: true }).waitFor().catch(async (e) => {
      await h.screenshot(page, 'oauth-transfer-failed')
      throw e
    })
    await page.waitForFunction(() => document.querySelector('[data-testid=user]')?.textContent?.includes('google_oauth'), undefined, { timeout: 20_000 })
    const record = await userRecord(page)
    expect(record.google).toMatchObject({ email: 'bob@example.com' })
    expect(record.github).toBeTruthy()
  })

  it('shows the in-app-browser screen in an embedded webview instead of going to Google', async () => {
    const context = await h.browser.newContext({
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.0.0.0',
      reducedMotion: 'reduce',
    })
    const page = await context.newPage()
    await page.goto(`${h.appUrl}/?${new URLSearchParams({ app: OAUTH_APP, methods: METHODS, api: h.apiUrl })}`)
    await page.waitForFunction(() => { const s = document.querySelector('[data-testid=status]')?.textContent; return !!s && s !== 'loading' })
    await page.locator('[data-testid=login]').click()
    await page.locator('[role=dialog] [data-method=google]').click()
    await page.getByText('Could not log in with provider').waitFor()
    await page.getByText("It looks like you're using an in-app browser. To log in, please try again using an external browser.").waitFor()
    expect(page.url().startsWith(h.appUrl)).toBe(true)
    await context.close()
  })
})
