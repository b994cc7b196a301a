// @vitest-environment happy-dom
/**
 * The shared OAuth engine, through a provider plugin (google) on the test kernel: PKCE and
 * init, the redirect return through `returnPath` (single-use pending authorization, params
 * stripped), every rule and text of part 1 for OAuth, popup mode (origin and source checks,
 * closed = rejected, time-out), in-app browsers, tokens, unlink and transfer.
 */
import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen as dom } from '@testing-library/react'
import { PorticoError, type PorticoPlugin } from 'portico'
import { PorticoProvider, useKernel } from 'portico/ui'
import { TEST_APP_ID, authResponse, createTestKernel, renderScreen, wireUser } from 'portico/testing'
import { google } from 'portico/plugins/google'
import { github } from 'portico/plugins/github'
import { oauthFailure } from './errors'
import { createPendingStore } from './pending'
import { OAUTH_TEXTS } from './strings'
import { challengeOf, createVerifier } from 'portico/kits/browser'
import { POPUP_MESSAGE } from './popup'
import {
  isInAppBrowser,
  useOAuthTokens,
  type OAuthHost,
  type OAuthOptions,
  type OAuthTokenGrant,
} from './index'

afterEach(() => {
  cleanup()
  sessionStorage.clear()
})

const ORIGIN = 'http://app.test'
const PROVIDER_URL = 'http://idp.test/google/o/oauth2/v2/auth?x=1'
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url')

function fakeHost(ua = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120') {
  const listeners = new Set<(e: MessageEvent) => void>()
  const popup = { closed: false, close: vi.fn(() => void (popup.closed = true)), location: { href: '' } }
  const host = {
    open: vi.fn(() => popup as never),
    addEventListener: (_: 'message', l: (e: MessageEvent) => void) => void listeners.add(l),
    removeEventListener: (_: 'message', l: (e: MessageEvent) => void) => void listeners.delete(l),
    location: { origin: ORIGIN, href: `${ORIGIN}/page?keep=1`, assign: vi.fn() },
    navigator: { userAgent: ua },
  } satisfies OAuthHost
  const post = (data: unknown, origin = ORIGIN, source: unknown = popup) =>
    listeners.forEach((l) => l({ data, origin, source } as MessageEvent))
  return { host, popup, post, listeners }
}

const opts = (host: OAuthHost, more: OAuthOptions = {}): OAuthOptions => ({ host, sleep: async () => {}, ...more })
const app = { login_methods: ['google', 'github'] }
const googleUser = () =>
  wireUser({ accounts: [{ type: 'google_oauth', subject: 'g-1', email: 'alice@example.com', name: 'Alice', username: null, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }] as never })

async function started(plugins: (h: OAuthHost) => PorticoPlugin[], more: Parameters<typeof createTestKernel>[0] = {}) {
  const f = fakeHost()
  const t = await createTestKernel({ plugins: plugins(f.host), app, ...more })
  t.net.on('POST', '/oauth/init', { url: PROVIDER_URL })
  return { ...t, ...f }
}

/** Seed what redirect mode stored before leaving, then start up on the return address. */
async function returning(query: string, pending: Partial<{ state: string; verifier: string; intent: string; disableSignup: boolean }> | null, more: Parameters<typeof createTestKernel>[0] = {}) {
  if (pending) {
    createPendingStore(TEST_APP_ID, 'google', { get: () => null, set: () => {} }).save({
      provider: 'google',
      state: 'state-1',
      verifier: 'verifier-1',
      intent: 'login',
      disableSignup: false,
      createdAt: Date.now(),
      ...pending,
    } as never)
  }
  const f = fakeHost()
  const t = await createTestKernel({ plugins: [google(opts(f.host))], app, url: `${ORIGIN}/page?keep=1&${query}`, ready: false, ...more })
  return { ...t, ...f }
}

describe('PKCE and state', () => {
  it('derives the verifier from 36 random bytes and the S256 challenge', async () => {
    const v = createVerifier()
    expect(v).toMatch(/^[A-Za-z0-9_-]{48}$/)
    expect(await challengeOf(v)).toBe(s256(v))
    expect(createVerifier()).not.toBe(v)
  })
})

describe('redirect mode', () => {
  it('inits with the challenge and a state, keeps the verifier for the return, and goes to the provider', async () => {
    const t = await started((h) => [google(opts(h))])
    void t.kernel.plugin('google').login()
    await vi.waitFor(() => expect(t.host.location.assign).toHaveBeenCalledWith(PROVIDER_URL))
    const body = t.net.callsTo('POST', '/oauth/init')[0].body
    expect(body).toMatchObject({ provider: 'google', redirect_to: `${ORIGIN}/page?keep=1` })
    const pending = createPendingStore(TEST_APP_ID, 'google', { get: () => null, set: () => {} }).take()!
    expect(body.state_code).toBe(pending.state)
    expect(body.code_challenge).toBe(s256(pending.verifier))
    expect(JSON.stringify(body)).not.toContain(pending.verifier) // the verifier leaves only with the code
    expect(t.kernel.screens.getState().current?.id).toBe('google-oauth')
    expect(t.kernel.pluginState('google')!.get()).toMatchObject({ status: 'redirecting' })
  })

  it('at start-up: claims and strips the return parameters, exchanges the code once, logs in', async () => {
    const t = await returning('privy_oauth_code=abc&privy_oauth_state=state-1&privy_oauth_provider=google', {})
    const response = authResponse(googleUser(), { oauth_tokens: { provider: 'google', access_token: 'at', access_token_expires_in_seconds: 3600, scopes: ['email'] } })
    t.net.on('POST', '/oauth/authenticate', response)
    const grants: OAuthTokenGrant[] = []
    t.kernel.events.on('oauth:tokens', (g) => grants.push(g))
    await t.kernel.ready()
    await t.kernel.returnFlow
    expect(t.location.href).toBe(`${ORIGIN}/page?keep=1`)
    expect(t.net.callsTo('POST', '/oauth/authenticate')[0].body).toEqual({
      authorization_code: 'abc',
      state_code: 'state-1',
      code_verifier: 'verifier-1',
      provider: 'google',
      mode: 'login-or-sign-up',
    })
    expect(t.kernel.session.user?.google?.subject).toBe('g-1')
    expect(t.kernel.recentLogin()?.method).toBe('google')
    expect(grants).toMatchObject([{ provider: 'google', accessToken: 'at', accessTokenExpiresInSeconds: 3600, refreshToken: null, scopes: ['email'], method: 'google', intent: 'login' }])
    // Single use: the pending authorization is gone.
    expect(createPendingStore(TEST_APP_ID, 'google', { get: () => null, set: () => {} }).take()).toBeNull()
  })

  it("sends mode 'no-signup' when sign-up is disabled", async () => {
    const t = await returning('privy_oauth_code=abc&privy_oauth_state=state-1&privy_oauth_provider=google', { disableSignup: true })
    t.net.on('POST', '/oauth/authenticate', { status: 404, body: { code: 'user_does_not_exist', error: 'User not found' } })
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }} />) // the UI registers 'account-not-found'
    await t.kernel.ready()
    await t.kernel.returnFlow
    expect(t.net.callsTo('POST', '/oauth/authenticate')[0].body.mode).toBe('no-signup')
    // Account not found has its own screen.
    expect(t.kernel.screens.getState().current?.id).toBe('account-not-found')
  })

  it('leaves a return for another provider to that provider', async () => {
    const t = await returning('privy_oauth_code=abc&privy_oauth_state=state-1&privy_oauth_provider=github', {})
    await t.kernel.ready()
    expect(t.kernel.returnFlow).toBeNull()
    expect(t.location.href).toContain('privy_oauth_code=abc')
  })

  const failing: [string, string, Parameters<typeof returning>[1], string, string, boolean][] = [
    ['a returned state that differs from the stored one', 'privy_oauth_code=abc&privy_oauth_state=tampered&privy_oauth_provider=google', {}, 'oauth_unexpected', OAUTH_TEXTS.unexpectedFlow, false],
    ["the authorization code 'undefined' (denied)", 'privy_oauth_code=undefined&privy_oauth_state=state-1&privy_oauth_provider=google', {}, 'oauth_user_denied', OAUTH_TEXTS.invalidCode, true],
    ['a denial from the provider', 'privy_oauth_state=state-1&privy_oauth_provider=google&privy_oauth_error=oauth_user_denied', {}, 'oauth_user_denied', OAUTH_TEXTS.invalidCode, true],
    ['a missing state code', 'privy_oauth_code=abc&privy_oauth_provider=google', {}, 'oauth_unexpected', OAUTH_TEXTS.missingCodes, false],
    ['a missing verifier (no pending authorization)', 'privy_oauth_code=abc&privy_oauth_state=state-1&privy_oauth_provider=google', null, 'unknown_auth_error', OAUTH_TEXTS.missingVerifier, true],
  ]
  it.each(failing)('fails on %s without calling the server', async (_, query, pending, code, message) => {
    const t = await returning(query, pending)
    const errors: PorticoError[] = []
    t.kernel.events.on('error', (e) => errors.push(e))
    await t.kernel.ready()
    await t.kernel.returnFlow
    expect(t.net.callsTo('POST', '/oauth/authenticate')).toHaveLength(0)
    expect(errors[0]).toMatchObject({ code, message })
    expect(t.kernel.session.authenticated).toBe(false)
    expect(t.location.href).toBe(`${ORIGIN}/page?keep=1`)
    expect(t.kernel.pluginState('google')!.get()).toMatchObject({ status: 'error' })
  })

  it("shows a denial as 'Authentication failed' with the provider in the detail, and Retry", async () => {
    const t = await returning('privy_oauth_state=state-1&privy_oauth_provider=google&privy_oauth_error=oauth_user_denied', {})
    await t.kernel.ready()
    await t.kernel.returnFlow
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }} />)
    expect(await dom.findByText('Authentication failed')).toBeTruthy()
    expect(dom.getByText('Retry and check Google to finish connecting your account.')).toBeTruthy()
    t.net.on('POST', '/oauth/init', { url: PROVIDER_URL })
    fireEvent.click(dom.getByRole('button', { name: 'Retry' }))
    await vi.waitFor(() => expect(t.host.location.assign).toHaveBeenCalledWith(PROVIDER_URL))
  })
})

describe("the server's failures (part 1 section 8)", () => {
  const cases: [string, { status: number; body: Record<string, unknown> }, string, string, boolean][] = [
    ['denied', { status: 403, body: { code: 'oauth_user_denied', error: 'User denied confirmation during OAuth flow' } }, 'oauth_user_denied', 'Retry and check Google to finish connecting your account.', true],
    ['invalid credentials', { status: 401, body: { code: 'invalid_credentials', error: 'Invalid' } }, 'invalid_credentials', 'Something went wrong. Try again.', true],
    ['linked to another user', { status: 400, body: { code: 'linked_to_another_user', error: 'x' } }, 'linked_to_another_user', 'This account has already been linked to another user.', false],
    ['too many requests', { status: 429, body: { code: 'too_many_requests', error: 'Too many' } }, 'too_many_requests', 'Too many requests. Please wait before trying again.', false],
    ['a provider rate limit', { status: 429, body: { code: 'too_many_requests', error: 'Provider answered with code 429' } }, 'too_many_requests', 'Request limit reached for Google. Please wait a moment and try again.', false],
    ['a suspended account', { status: 403, body: { code: 'oauth_account_suspended', error: 'suspended' } }, 'oauth_account_suspended', 'Your Google account is suspended. Please try another login method.', false],
    ['cannot link more', { status: 400, body: { code: 'cannot_link_more_of_type', error: 'x' } }, 'cannot_link_more_of_type', 'You cannot authorize more than one account for this user.', false],
  ]
  it.each(cases)('%s', async (_, reply, code, detail, retryable) => {
    const t = await returning('privy_oauth_code=abc&privy_oauth_state=state-1&privy_oauth_provider=google', {})
    t.net.on('POST', '/oauth/authenticate', reply)
    const errors: PorticoError[] = []
    t.kernel.events.on('error', (e) => errors.push(e))
    await t.kernel.ready()
    await t.kernel.returnFlow
    expect(errors[0].code).toBe(code)
    expect(errors[0].message).toBe('Invalid code during OAuth flow.')
    expect(t.kernel.pluginState('google')!.get()).toMatchObject({ status: 'error', detail, retryable })
    // Shown inline on the OAuth screen, not on the generic error screen.
    expect(t.kernel.screens.getState().current?.id).toBe('google-oauth')
  })

  it('a failure without a server code becomes unknown_auth_error', async () => {
    const t = await returning('privy_oauth_code=abc&privy_oauth_state=state-1&privy_oauth_provider=google', {})
    t.net.on('POST', '/oauth/authenticate', () => {
      throw new TypeError('Failed to fetch')
    })
    const errors: PorticoError[] = []
    t.kernel.events.on('error', (e) => errors.push(e))
    await t.kernel.ready()
    await t.kernel.returnFlow
    expect(errors[0]).toMatchObject({ code: 'unknown_auth_error', message: 'Invalid code during OAuth flow.' })
  })

  it('maps failures for any provider name', () => {
    expect(oauthFailure(new PorticoError('oauth_account_suspended', 'x'), 'GitHub', OAUTH_TEXTS).detail).toBe(
      'Your GitHub account is suspended. Please try another login method.',
    )
  })
})

describe('popup mode', () => {
  async function popupFlow(intent: 'login' | 'link' = 'login', more: Parameters<typeof createTestKernel>[0] = {}) {
    const t = await started((h) => [google(opts(h, { mode: 'popup', popupPollMs: 5, popupTimeoutMs: 200 }))], more)
    const done = intent === 'login' ? t.kernel.plugin('google').login() : t.kernel.plugin('google').link()
    done.catch(() => {})
    expect(t.host.open).toHaveBeenCalledTimes(1) // synchronously, inside the click
    await vi.waitFor(() => expect(t.popup.location.href).toBe(PROVIDER_URL))
    const init = t.net.callsTo('POST', '/oauth/init')[0].body
    return { ...t, done, init }
  }

  it('opens the window in the click, returns to this origin, accepts its answer and logs in', async () => {
    const t = await popupFlow()
    expect(t.init.redirect_to).toBe(`${ORIGIN}/page?keep=1&portico_oauth_popup=1`)
    t.net.on('POST', '/oauth/authenticate', authResponse(googleUser()))
    t.post({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: t.init.state_code, error: null })
    await expect(t.done).resolves.toMatchObject({ user: { google: { subject: 'g-1' } } })
    const body = t.net.callsTo('POST', '/oauth/authenticate')[0].body
    expect(body.code_challenge).toBeUndefined()
    expect(s256(body.code_verifier)).toBe(t.init.code_challenge)
    expect(t.popup.closed).toBe(true)
  })

  it('opens the window once in the click whether the engine is in (landing preload) or still loading', async () => {
    const t = await started((h) => [google(opts(h, { mode: 'popup', popupPollMs: 5, popupTimeoutMs: 200 }))])
    const entry = t.kernel.hooks.loginMethods.call([], { config: t.kernel.config, recent: null }).find((e) => e.id === 'google')!
    await entry.preload!() // what the landing's preload runs once ready
    t.kernel.plugin('google').login().catch(() => {})
    expect(t.host.open).toHaveBeenCalledTimes(1) // synchronously, by the loaded engine
    await vi.waitFor(() => expect(t.popup.location.href).toBe(PROVIDER_URL))
  })

  it('a blocked window before the engine is in: popup blocked, as before', async () => {
    const t = await started((h) => [google(opts(h, { mode: 'popup' }))])
    t.host.open.mockImplementation(() => null as never)
    await expect(t.kernel.plugin('google').login()).rejects.toMatchObject({ code: 'oauth_popup_blocked' })
    expect(t.host.open).toHaveBeenCalledTimes(1)
    expect(t.net.callsTo('POST', '/oauth/init')).toHaveLength(0)
  })

  it('ignores messages from other windows, refuses another origin', async () => {
    const t = await popupFlow()
    t.post({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: t.init.state_code }, ORIGIN, {}) // another window
    t.post({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: t.init.state_code }, 'http://evil.test')
    await expect(t.done).rejects.toMatchObject({ code: 'oauth_unexpected', message: 'Origins between parent and child windows do not match.' })
    expect(t.net.callsTo('POST', '/oauth/authenticate')).toHaveLength(0)
  })

  it('fails on a tampered state', async () => {
    const t = await popupFlow()
    t.post({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: 'tampered', error: null })
    await expect(t.done).rejects.toMatchObject({ code: 'oauth_unexpected', message: OAUTH_TEXTS.unexpectedFlow })
  })

  it('a closed popup is the user rejecting', async () => {
    const t = await popupFlow()
    t.popup.closed = true
    await expect(t.done).rejects.toMatchObject({ code: 'oauth_user_denied', message: OAUTH_TEXTS.invalidCode })
    expect(t.kernel.pluginState('google')!.get()).toMatchObject({ status: 'error', retryable: true })
  })

  it('times out', async () => {
    const t = await popupFlow()
    await expect(t.done).rejects.toMatchObject({ code: 'client_request_timeout', message: 'Authorization request timed out after 2 minutes.' })
  })

  it('links for a logged-in user (POST /oauth/link) and hands over the tokens', async () => {
    const t = await popupFlow('link', { user: wireUser() })
    const grants: OAuthTokenGrant[] = []
    t.kernel.events.on('oauth:tokens', (g) => grants.push(g))
    t.net.on('POST', '/oauth/link', { ...authResponse(googleUser(), { token: null, refresh_token: null, session_update_action: 'ignore' }), oauth_tokens: { provider: 'google', access_token: 'at2' } })
    t.post({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: t.init.state_code, error: null })
    await t.done
    expect(t.net.callsTo('POST', '/oauth/link')[0].body).toMatchObject({ authorization_code: 'abc', provider: 'google' })
    expect(t.net.callsTo('POST', '/oauth/link')[0].body.mode).toBeUndefined()
    expect(t.kernel.session.user?.google?.subject).toBe('g-1')
    expect(grants).toMatchObject([{ accessToken: 'at2', intent: 'link' }])
  })

  it("keeps the provider profile of a link conflict for the account plugin's transfer", async () => {
    const t = await popupFlow('link', { user: wireUser() })
    const info = { provider: 'google', subject: 'g-9', email: 'bob@example.com', name: 'Bob', username: null }
    t.net.on('POST', '/oauth/link', {
      status: 400,
      body: { code: 'account_transfer_required', error: 'x', data: { nonce: 'n-9', account: 'bob@example.com', account_type: 'google_oauth', display_name: 'bob@example.com', link_method: 'google', embedded_wallet_address: null, oauth_user_info: info } },
    })
    t.post({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: t.init.state_code, error: null })
    await expect(t.done).rejects.toMatchObject({ code: 'account_transfer_required', data: { nonce: 'n-9' } })
    t.net.on('POST', '/oauth/transfer', authResponse(googleUser(), { session_update_action: 'ignore' }))
    // What the account plugin passes: the transfer data without the provider's fields.
    await t.kernel.methods.forLinkMethod('google')!.transfer!(t.kernel.api, { nonce: 'n-9', account: 'bob@example.com', account_type: 'google_oauth', display_name: 'bob@example.com', link_method: 'google' })
    expect(t.net.callsTo('POST', '/oauth/transfer')[0].body).toEqual({ nonce: 'n-9', userInfo: info })
  })

  it('the popup page posts its return to the opener (own origin) and closes', async () => {
    const f = fakeHost()
    const opener = { postMessage: vi.fn() }
    const close = vi.fn()
    const t = await createTestKernel({
      plugins: [google(opts({ ...f.host, opener, close }))],
      app,
      url: `${ORIGIN}/page?portico_oauth_popup=1&privy_oauth_code=abc&privy_oauth_state=s&privy_oauth_provider=google`,
    })
    await t.kernel.returnFlow
    expect(opener.postMessage).toHaveBeenCalledWith({ type: POPUP_MESSAGE, provider: 'google', code: 'abc', state: 's', error: null }, ORIGIN)
    expect(close).toHaveBeenCalled()
    expect(t.location.href).toBe(`${ORIGIN}/page`)
    expect(t.net.callsTo('POST', '/oauth/authenticate')).toHaveLength(0)
  })
})

describe('refusals, in-app browsers, unlink and transfer', () => {
  it('refuses a login while logged in, and a link while logged out', async () => {
    const t = await started((h) => [google(opts(h))], { user: wireUser() })
    await expect(t.kernel.plugin('google').login()).rejects.toMatchObject({ code: 'already_logged_in' })
    const u = await started((h) => [google(opts(h))])
    await expect(u.kernel.plugin('google').link()).rejects.toMatchObject({ code: 'must_be_authenticated' })
    expect(u.net.callsTo('POST', '/oauth/init')).toHaveLength(0)
  })

  it('shows the in-app-browser screen in embedded webviews (Google), and lets GitHub through', async () => {
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Instagram 309.0.0.0'
    expect(isInAppBrowser(ua)).toBe(true)
    expect(isInAppBrowser('Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/450.0]')).toBe(true)
    expect(isInAppBrowser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15')).toBe(false)
    const f = fakeHost(ua)
    const t = await createTestKernel({ plugins: [google(opts(f.host)), github(opts(f.host))], app })
    t.net.on('POST', '/oauth/init', { url: PROVIDER_URL })
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }} />) // the UI registers 'in-app-browser'
    await act(() => t.kernel.plugin('google').login())
    expect(t.kernel.screens.getState().current?.id).toBe('in-app-browser')
    expect(await dom.findByText('Could not log in with provider')).toBeTruthy()
    expect(dom.getByText("It looks like you're using an in-app browser. To log in, please try again using an external browser.")).toBeTruthy()
    expect(t.net.callsTo('POST', '/oauth/init')).toHaveLength(0)
    act(() => t.kernel.screens.dismiss())
    void t.kernel.plugin('github').login()
    await vi.waitFor(() => expect(f.host.location.assign).toHaveBeenCalled())
  })

  it('unlinks (POST /oauth/unlink {provider, subject}) and transfers (POST /oauth/transfer {nonce, userInfo})', async () => {
    const t = await started((h) => [google(opts(h))], { user: googleUser() })
    t.net.on('POST', '/oauth/unlink', { user: wireUser() })
    await t.kernel.plugin('google').unlink()
    expect(t.net.callsTo('POST', '/oauth/unlink')[0].body).toEqual({ provider: 'google', subject: 'g-1' })
    expect(t.kernel.session.user?.google).toBeUndefined()
    const m = t.kernel.methods.forLinkMethod('google')!
    t.net.on('POST', '/oauth/transfer', authResponse(googleUser(), { session_update_action: 'ignore' }))
    const info = { provider: 'google', subject: 'g-1', email: 'alice@example.com', name: 'Alice', username: null }
    await m.transfer!(t.kernel.api, { nonce: 'n-1', account: 'g-1', account_type: 'google_oauth', display_name: 'Alice', link_method: 'google', oauth_user_info: info } as never)
    expect(t.net.callsTo('POST', '/oauth/transfer')[0].body).toEqual({ nonce: 'n-1', userInfo: info })
  })
})

describe('useOAuthTokens', () => {
  it('hands each grant to the app once and stores nothing', async () => {
    const t = await started((h) => [google(opts(h))])
    const seen: OAuthTokenGrant[] = []
    let kernelSeen = false
    function Probe() {
      useOAuthTokens({ onOAuthTokenGrant: (g) => seen.push(g) })
      kernelSeen = !!useKernel()
      return null
    }
    render(
      <PorticoProvider kernel={t.kernel}>
        <Probe />
      </PorticoProvider>,
    )
    const grant = { provider: 'google', accessToken: 'at', accessTokenExpiresInSeconds: 1, refreshToken: 'rt', refreshTokenExpiresInSeconds: 2, scopes: [], method: 'google', intent: 'login' as const, user: null }
    act(() => t.kernel.events.emit('oauth:tokens', grant))
    expect(kernelSeen).toBe(true)
    expect(seen).toEqual([grant])
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('rt')
  })
})

describe('the status screen', () => {
  it("opened by link() in popup mode offers 'Continue with Google' and opens the window in the click", async () => {
    const f = fakeHost()
    const t = await createTestKernel({ plugins: [google(opts(f.host, { mode: 'popup' }))], app, user: wireUser() })
    t.net.on('POST', '/oauth/init', { url: PROVIDER_URL })
    const view = await renderScreen(t.kernel, 'google-oauth', { plugin: 'google' }, { intent: 'link' })
    fireEvent.click(await view.findByRole('button', { name: 'Continue with Google' }))
    expect(f.host.open).toHaveBeenCalledTimes(1)
    expect(await view.findByText('Verifying connection')).toBeTruthy()
    expect(await view.findByText('Finish connecting in the Google window.')).toBeTruthy()
  })
})
