// @vitest-environment happy-dom
/**
 * The Acme ID plugin's own suite, written as a third party would: `portico/testing` for the
 * kernel (its fetch double also answers Acme ID's /token), the contract and `renderScreen`,
 * and a fake browser window for the popup.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { PorticoError, type WireUser } from 'portico'
import { authResponse, createTestKernel, pluginContract, renderScreen, wireUser, type FetchDouble } from 'portico/testing'
import {
  acmeId,
  acmeIdErrorView,
  authorizeInPopup,
  ACME_ID_SCREEN,
  ACME_ID_TEXTS as T,
  RESPONSE_TYPE,
  type PopupHost,
} from './index'
import { beginAuthorization } from './flow'
import { challengeOf, createVerifier } from 'portico/kits/browser'

afterEach(() => cleanup())

const IDP = 'http://127.0.0.1:8791'
const APP = 'http://127.0.0.1:5173'
const ID_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln'

interface FakePopup {
  closed: boolean
  close(): void
  location: { href: string }
}

/** A browser window double: `open()` records popups, `post()` delivers a message event. */
function fakeHost(options: { blocked?: boolean } = {}) {
  const target = new EventTarget()
  const popups: FakePopup[] = []
  const host: PopupHost = {
    location: { origin: APP },
    open: vi.fn(() => {
      if (options.blocked) return null
      const p: FakePopup = { closed: false, close: () => void (p.closed = true), location: { href: '' } }
      popups.push(p)
      return p
    }),
    addEventListener: (t, l) => target.addEventListener(t, l as EventListener),
    removeEventListener: (t, l) => target.removeEventListener(t, l as EventListener),
  }
  const post = (data: unknown, from: { source?: unknown; origin?: string } = {}) =>
    target.dispatchEvent(Object.assign(new Event('message'), { data, origin: from.origin ?? IDP, source: from.source ?? popups.at(-1) }))
  /** The /authorize URL the popup was sent to (once the challenge is computed). */
  const authorizeUrl = async (i = -1) => {
    await vi.waitFor(() => expect(popups.at(i)?.location.href).toContain('/authorize'))
    return new URL(popups.at(i)!.location.href)
  }
  return { host, popups, post, authorizeUrl }
}

const acmeUser = (sub: string): WireUser =>
  wireUser({ accounts: [{ type: 'custom_auth', custom_user_id: sub, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }] })

pluginContract(() => acmeId(), { loginMethods: ['acme-id'] })

describe('PKCE and state', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })

  it('makes verifiers from 36 random bytes: 48 base64url characters, never the same twice', () => {
    const a = createVerifier()
    expect(a).toMatch(/^[A-Za-z0-9_-]{48}$/)
    expect(createVerifier()).not.toBe(a)
  })
})

describe('authorizeInPopup()', () => {
  const start = (h: ReturnType<typeof fakeHost>, more: Partial<Parameters<typeof authorizeInPopup>[0]> = {}) =>
    authorizeInPopup({ issuer: IDP, clientId: 'portico-demo', host: h.host, ...more })

  it('opens the popup at once, then sends it to /authorize with state and an S256 challenge', async () => {
    const h = fakeHost()
    const a = start(h)
    expect(h.host.open).toHaveBeenCalledTimes(1) // synchronously, inside the click
    const url = await h.authorizeUrl()
    expect(url.origin + url.pathname).toBe(`${IDP}/authorize`)
    const q = Object.fromEntries(url.searchParams)
    expect(q).toMatchObject({ response_type: 'code', client_id: 'portico-demo', redirect_uri: APP, code_challenge_method: 'S256' })
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(url.searchParams.has('code_verifier')).toBe(false)
    h.post({ type: RESPONSE_TYPE, state: q.state, code: 'the-code' })
    const grant = await a.result
    expect(grant).toMatchObject({ code: 'the-code', redirectUri: APP })
    expect(await challengeOf(grant.verifier)).toBe(q.code_challenge)
    expect(h.popups[0].closed).toBe(true)
  })

  it('ignores messages from other windows and of other types', async () => {
    const h = fakeHost()
    const a = start(h)
    const state = (await h.authorizeUrl()).searchParams.get('state')!
    h.post({ type: RESPONSE_TYPE, state, code: 'forged' }, { source: {} }) // another window, right origin
    h.post({ type: 'something-else', state })
    h.post({ type: RESPONSE_TYPE, state, code: 'real' })
    expect((await a.result).code).toBe('real')
  })

  it("rejects a message from our popup at another origin: 'Origins between parent and child windows do not match.'", async () => {
    const h = fakeHost()
    const a = start(h)
    const state = (await h.authorizeUrl()).searchParams.get('state')!
    h.post({ type: RESPONSE_TYPE, state, code: 'x' }, { origin: 'https://evil.example' })
    await expect(a.result).rejects.toMatchObject({ code: 'oauth_unexpected', message: T.originMismatch })
    expect(T.originMismatch).toBe('Origins between parent and child windows do not match.')
  })

  it("rejects another state: 'Unexpected auth flow. This may be a phishing attempt.'", async () => {
    const h = fakeHost()
    const a = start(h)
    await h.authorizeUrl()
    h.post({ type: RESPONSE_TYPE, state: 'not-the-state-we-sent', code: 'x' })
    await expect(a.result).rejects.toMatchObject({ code: 'oauth_unexpected', message: 'Unexpected auth flow. This may be a phishing attempt.' })
  })

  it("'User rejected request' when the user denies or closes the popup", async () => {
    const h = fakeHost()
    const denied = start(h)
    const state = (await h.authorizeUrl()).searchParams.get('state')!
    h.post({ type: RESPONSE_TYPE, state, error: 'access_denied' })
    await expect(denied.result).rejects.toMatchObject({ code: 'oauth_user_denied', message: 'User rejected request' })

    const closed = start(h, { pollMs: 5 })
    h.popups.at(-1)!.closed = true
    await expect(closed.result).rejects.toMatchObject({ code: 'oauth_user_denied', message: 'User rejected request' })
  })

  it('polls every 300 ms (a closed window counts after one poll of grace) and times out after 2 minutes by default', async () => {
    vi.useFakeTimers()
    try {
      const h = fakeHost()
      const a = start(h)
      const seen = vi.fn()
      a.result.catch(seen)
      await vi.advanceTimersByTimeAsync(119_999)
      expect(seen).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(seen.mock.calls[0][0]).toMatchObject({ code: 'client_request_timeout', message: 'Authorization request timed out after 2 minutes.' })
      expect(h.popups[0].closed).toBe(true)

      const b = start(h)
      h.popups.at(-1)!.closed = true
      const gone = vi.fn()
      b.result.catch(gone)
      // Polled every 300 ms; the first poll that sees it closed is the grace for a late answer.
      await vi.advanceTimersByTimeAsync(599)
      expect(gone).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(gone).toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })

  it('says so when the popup is blocked', async () => {
    const a = start(fakeHost({ blocked: true }))
    await expect(a.result).rejects.toMatchObject({ code: 'acme_id_popup_blocked', message: T.popupBlocked })
  })

  it('cancel() closes the popup; a grant can be claimed once', async () => {
    const h = fakeHost()
    const a = start(h)
    expect(a.claim()).toBe(true)
    expect(a.claim()).toBe(false)
    a.cancel()
    await expect(a.result).rejects.toMatchObject({ code: 'oauth_user_denied' })
    expect(h.popups[0].closed).toBe(true)
  })
})

describe('error mappings', () => {
  it('claims its own errors and invalid_credentials for this method, nothing else', async () => {
    const h = fakeHost()
    const a = authorizeInPopup({ issuer: IDP, clientId: 'c', host: h.host })
    a.cancel()
    const denied = (await a.result.catch((e: unknown) => e)) as PorticoError
    expect(acmeIdErrorView(denied, {})).toMatchObject({ title: T.rejectedTitle, detail: 'User rejected request', action: 'back' })
    const invalid = new PorticoError('invalid_credentials', 'Invalid custom auth token', { kind: 'api_error' })
    expect(acmeIdErrorView(invalid, { method: 'acme-id' })).toMatchObject({ detail: T.invalidToken })
    expect(acmeIdErrorView(invalid, { method: 'email' })).toBeUndefined()
    expect(acmeIdErrorView(new PorticoError('allowlist_rejected', 'no'), { method: 'acme-id' })).toBeUndefined()
  })
})

describe('acmeId() in a kernel', () => {
  async function setup(app: string[] = ['acme-id', 'email']) {
    const h = fakeHost()
    let net!: FetchDouble
    // Acme ID's /token goes through the same fetch double as the Portico API.
    const settings = { issuer: IDP, clientId: 'portico-demo', host: h.host, pollMs: 5, fetch: ((...a) => net.fetch(...a)) as typeof fetch }
    const k = await createTestKernel({ app: { login_methods: app }, plugins: [acmeId(settings)] })
    net = k.net
    net.on('POST', '/token', { id_token: ID_TOKEN, token_type: 'Bearer', expires_in: 300 })
    net.on('POST', '/custom_jwt_account/authenticate', authResponse(acmeUser('alice')))
    return { ...k, h, settings }
  }

  it("adds the 'Acme ID' row only when the app lists 'acme-id'", async () => {
    const on = await setup()
    const entries = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(entries).toMatchObject([{ id: 'acme-id', label: 'Acme ID', group: 'web2', screen: ACME_ID_SCREEN }])
    const off = await setup(['email'])
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
  })

  it('logs in end to end: popup, code, token exchange with the verifier, custom JWT login, success', async () => {
    const { kernel, net, h, settings } = await setup()
    const authorization = beginAuthorization(kernel.screens, settings)
    const view = await renderScreen(kernel, ACME_ID_SCREEN, { settings, authorization })
    expect(await view.findByText(T.waiting)).toBeTruthy()
    const url = await h.authorizeUrl()
    h.post({ type: RESPONSE_TYPE, state: url.searchParams.get('state'), code: 'code-123' })
    const result = await view.flow
    expect(result).toMatchObject({ ok: true, value: { method: 'acme-id' } })
    expect(kernel.session.authenticated).toBe(true)
    expect(kernel.session.user?.customAuth?.customUserId).toBe('alice')

    const [exchange] = net.callsTo('POST', '/token')
    const form = Object.fromEntries(new URLSearchParams(exchange.body as string))
    expect(form).toMatchObject({ grant_type: 'authorization_code', code: 'code-123', client_id: 'portico-demo', redirect_uri: APP })
    expect(await challengeOf(form.code_verifier)).toBe(url.searchParams.get('code_challenge'))
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')[0].body).toEqual({ token: ID_TOKEN })
    // No code, verifier or token ever travels in a URL.
    for (const c of net.calls) expect(c.url).not.toMatch(/code-123|eyJ|code_verifier/)
  })

  it("shows 'User rejected request' when the popup is closed, and 'Try again' opens a new popup", async () => {
    const { kernel, h, settings } = await setup()
    const view = await renderScreen(kernel, ACME_ID_SCREEN, { settings, authorization: beginAuthorization(kernel.screens, settings) })
    await h.authorizeUrl()
    h.popups[0].closed = true
    expect(await view.findByText(T.rejectedTitle)).toBeTruthy()
    expect(view.getByText('User rejected request')).toBeTruthy()
    fireEvent.click(view.getByRole('button', { name: T.tryAgain }))
    fireEvent.click(await view.findByRole('button', { name: T.start }))
    expect(h.host.open).toHaveBeenCalledTimes(2)
    const url = await h.authorizeUrl()
    h.post({ type: RESPONSE_TYPE, state: url.searchParams.get('state'), code: 'second' })
    expect(await view.flow).toMatchObject({ ok: true })
  })

  it('maps a token the server refuses to its own message', async () => {
    const { kernel, net, h, settings } = await setup()
    net.on('POST', '/custom_jwt_account/authenticate', { status: 401, body: { code: 'invalid_credentials', error: 'Invalid custom auth token' } })
    const view = await renderScreen(kernel, ACME_ID_SCREEN, { settings, authorization: beginAuthorization(kernel.screens, settings) })
    const url = await h.authorizeUrl()
    h.post({ type: RESPONSE_TYPE, state: url.searchParams.get('state'), code: 'c' })
    expect(await view.findByText(T.invalidToken)).toBeTruthy()
    expect(kernel.session.authenticated).toBe(false)
  })

  it('reports a failed code exchange without showing Acme ID internals', async () => {
    const { kernel, net, h, settings } = await setup()
    net.on('POST', '/token', { status: 400, body: { error: 'invalid_grant', error_description: 'PKCE verification failed.' } })
    const view = await renderScreen(kernel, ACME_ID_SCREEN, { settings, authorization: beginAuthorization(kernel.screens, settings) })
    const url = await h.authorizeUrl()
    h.post({ type: RESPONSE_TYPE, state: url.searchParams.get('state'), code: 'c' })
    expect(await view.findByText(T.exchangeFailed)).toBeTruthy()
    expect(view.queryByText(/PKCE/)).toBeNull()
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(0)
  })

  it('closing the modal while waiting closes the popup and ends the flow as exited', async () => {
    const { kernel, h, settings } = await setup()
    const view = await renderScreen(kernel, ACME_ID_SCREEN, { settings, authorization: beginAuthorization(kernel.screens, settings) })
    await h.authorizeUrl()
    fireEvent.keyDown(view.dialog, { key: 'Escape' })
    expect(await view.flow).toMatchObject({ ok: false, error: { code: 'exited_auth_flow' } })
    await waitFor(() => expect(h.popups[0].closed).toBe(true))
  })

  it('the landing row opens the popup inside the click', async () => {
    const { kernel, h } = await setup()
    await renderScreen(kernel, 'landing')
    fireEvent.click(await screen.findByRole('button', { name: /Acme ID/ }))
    expect(h.host.open).toHaveBeenCalledTimes(1)
    expect(await screen.findByText(T.waiting)).toBeTruthy()
  })

  it('refuses link and update: Acme ID only logs in', async () => {
    const { kernel, h, settings } = await setup()
    const view = await renderScreen(kernel, ACME_ID_SCREEN, { settings }, { intent: 'link' })
    fireEvent.click(await view.findByRole('button', { name: T.start }))
    expect(await view.findByText(T.loginOnly)).toBeTruthy()
    expect(h.host.open).not.toHaveBeenCalled()
  })
})

describe('acmeId() on contract v2', () => {
  it("declares its method: id 'acme-id', custom JWT accounts on user.customAuth", async () => {
    const k = await createTestKernel({ plugins: [acmeId({ host: fakeHost().host })], app: { login_methods: ['acme-id'] } })
    expect(k.kernel.methods.get('acme-id')).toMatchObject({ id: 'acme-id', displayName: 'Acme ID', accountTypes: ['custom_auth'], userField: 'customAuth' })
    expect(k.kernel.methods.get('acme-id')?.transfer).toBeUndefined()
    k.kernel.destroy()
    expect(k.kernel.methods.get('acme-id')).toBeUndefined()
  })

  it("declares its errors in its manifest; the kernel resolves them once loaded (every screen's load waits for them)", async () => {
    const k = await createTestKernel({ plugins: [acmeId({ host: fakeHost().host })], app: { login_methods: ['acme-id'] } })
    await k.kernel.loadDeclarations()
    const blocked = new PorticoError('acme_id_popup_blocked', T.popupBlocked, { data: { provider: 'acme-id' } })
    expect(k.kernel.screens.resolveError(blocked)).toMatchObject({ title: T.blockedTitle, detail: T.popupBlocked })
    const refused = new PorticoError('invalid_credentials', 'Invalid custom auth token', { kind: 'api_error' })
    expect(k.kernel.screens.resolveError(refused, { method: 'acme-id' })).toMatchObject({ detail: T.invalidToken })
    expect(k.kernel.hooks.errorView.call(refused, { method: 'email' })).toBeUndefined()
  })

  it("hands out its API (kernel.plugin('acme-id')) and keeps its state in the kernel", async () => {
    const h = fakeHost()
    const k = await createTestKernel({ plugins: [acmeId({ host: h.host })], app: { login_methods: ['acme-id'] } })
    const acme = k.kernel.plugin('acme-id')
    expect(acme.settings.issuer).toBe(IDP)
    expect(k.kernel.pluginState('acme-id')?.get()).toEqual({ status: 'idle' })
    const a = acme.authorize()
    expect(h.host.open).toHaveBeenCalledTimes(1)
    expect(acme.state.get()).toEqual({ status: 'waiting' })
    a.cancel()
    await expect(a.result).rejects.toMatchObject({ code: 'oauth_user_denied' })
  })

  it("takes the app's texts (texts: { 'acme-id': {...} })", async () => {
    const k = await createTestKernel({
      plugins: [acmeId({ host: fakeHost().host })],
      app: { login_methods: ['acme-id'] },
      config: { texts: { 'acme-id': { label: 'Acme-Konto' } } },
    })
    expect(k.kernel.hooks.loginMethods.call([], { config: k.kernel.config, recent: null })[0].label).toBe('Acme-Konto')
  })
})
