import { describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { isPorticoError } from 'portico'
import { crossApp, type PopupHost, type PopupWindow } from './index'
import { CROSS_APP_RESPONSE, decodeRequest, openTransact } from './popup'
import { CROSS_APP_TEXTS } from './strings'

pluginContract(() => crossApp())

/** A fake window with one popup; `post(origin, data)` delivers a message from the popup. */
function fakeHost() {
  const listeners = new Set<(e: MessageEvent) => void>()
  const popup: PopupWindow & { href?: string } = {
    closed: false,
    close() {
      popup.closed = true
    },
    location: { href: '' },
  }
  const host: PopupHost = {
    open: () => popup,
    addEventListener: (_t, l) => void listeners.add(l),
    removeEventListener: (_t, l) => void listeners.delete(l),
    location: { origin: 'https://requester.example' },
  }
  const post = (origin: string, data: unknown, source: unknown = popup) => {
    for (const l of [...listeners]) l({ origin, data, source } as MessageEvent)
  }
  return { host, popup, post }
}

const opts = (host: PopupHost, extra = {}) => ({
  transactUrl: 'https://provider.example/oauth/transact',
  providerAppId: 'prov',
  request: { appId: 'req', name: 'Requester', logoUrl: null, action: 'login' as const },
  host,
  ...extra,
})
/** The popup gets its address once the PKCE challenge is hashed (WebCrypto, off the main thread). */
const pageUrl = async (popup: PopupWindow) => {
  await vi.waitFor(() => expect(popup.location.href).not.toBe(''))
  return new URL(popup.location.href)
}

describe('openTransact()', () => {
  it('opens the provider page with token (state) and request, and resolves with the code on a good answer', async () => {
    const { host, popup, post } = fakeHost()
    const t = openTransact(opts(host))
    const url = await pageUrl(popup)
    expect(url.origin + url.pathname).toBe('https://provider.example/oauth/transact')
    const request = decodeRequest(url.searchParams.get('request')!)!
    expect(request).toMatchObject({ appId: 'req', name: 'Requester', popup: true, action: 'login', origin: 'https://requester.example', provider_app_id: 'prov' })
    expect(request.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // A message from another window is ignored.
    post('https://provider.example', { type: CROSS_APP_RESPONSE, state: 'x', code: 'c' }, {})
    post('https://provider.example', { type: CROSS_APP_RESPONSE, state: url.searchParams.get('token'), code: 'the-code' })
    const r = await t.result
    expect(r.code).toBe('the-code')
    expect(r.verifier.length).toBeGreaterThanOrEqual(43)
    expect(popup.closed).toBe(true)
  })

  it("another origin: 'Origins between parent and child windows do not match.'", async () => {
    const { host, popup, post } = fakeHost()
    const t = openTransact(opts(host))
    const url = await pageUrl(popup)
    post('https://evil.example', { type: CROSS_APP_RESPONSE, state: url.searchParams.get('token'), code: 'c' })
    await expect(t.result).rejects.toMatchObject({ code: 'oauth_unexpected', message: CROSS_APP_TEXTS.originMismatch })
  })

  it("another state: 'Unexpected auth flow. This may be a phishing attempt.'", async () => {
    const { host, popup, post } = fakeHost()
    const t = openTransact(opts(host))
    await pageUrl(popup)
    post('https://provider.example', { type: CROSS_APP_RESPONSE, state: 'forged', code: 'c' })
    await expect(t.result).rejects.toMatchObject({ code: 'oauth_unexpected', message: 'Unexpected auth flow. This may be a phishing attempt.' })
  })

  it("a closed popup or a refusal: 'User rejected request'; no answer: the 2-minute time-out", async () => {
    const a = fakeHost()
    const t1 = openTransact(opts(a.host, { pollMs: 1 }))
    a.popup.closed = true
    await expect(t1.result).rejects.toMatchObject({ code: 'oauth_user_denied', message: 'User rejected request' })
    const b = fakeHost()
    const t2 = openTransact(opts(b.host))
    const url = await pageUrl(b.popup)
    b.post('https://provider.example', { type: CROSS_APP_RESPONSE, state: url.searchParams.get('token'), error: 'rejected' })
    await expect(t2.result).rejects.toMatchObject({ message: 'User rejected request' })
    const c = fakeHost()
    const t3 = openTransact(opts(c.host, { timeoutMs: 5 }))
    const e = await t3.result.catch((x) => x)
    expect(isPorticoError(e, 'client_request_timeout')).toBe(true)
    expect(e.message).toBe('Authorization request timed out after 2 minutes.')
  })
  it('an answer posted just before the page closes itself still counts (one closed poll of grace)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'setTimeout', 'clearInterval', 'clearTimeout'] })
    try {
      const { host, popup, post } = fakeHost()
      const t = openTransact(opts(host))
      const url = await pageUrl(popup)
      popup.closed = true
      vi.advanceTimersByTime(300) // the first poll sees the window closed: grace, not yet rejected
      post('https://provider.example', { type: CROSS_APP_RESPONSE, state: url.searchParams.get('token'), code: 'late-code' })
      expect((await t.result).code).toBe('late-code')
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('crossApp()', () => {
  it("declares 'cross_app': not remembered, display name 'cross-app', providerApp on the account", async () => {
    const t = await createTestKernel({ plugins: [crossApp()] })
    const m = t.kernel.methods.get('cross_app')!
    expect(m).toMatchObject({ displayName: 'cross-app', accountTypes: ['cross_app'], remembered: false })
    expect(m.transfer).toBeUndefined()
    const acc = m.normalise!({ type: 'cross_app', subject: 'did:x', provider_app_id: 'prov', embedded_wallets: [{ address: '0x1' }], smart_wallets: [], verified_at: 1, first_verified_at: 1, latest_verified_at: 1 } as never) as any
    expect(acc).toMatchObject({ subject: 'did:x', providerAppId: 'prov', providerApp: { id: 'prov' }, embeddedWallets: [{ address: '0x1' }], smartWallets: [] })
  })

  it("refuses to transact against a read-only provider: 'Cannot transact against a read-only provider app'", async () => {
    const t = await createTestKernel({ plugins: [crossApp()] })
    const c = { provider_app_id: 'prov', provider_app_name: 'P', provider_app_icon_url: null, provider_app_custom_api_url: null, read_only: true, transact_url: 'https://p.example/oauth/transact' }
    expect(() => t.kernel.plugin('cross-app').transact(c, 'transact')).toThrow('Cannot transact against a read-only provider app')
  })

  it('loads the connections and shows the provider app as a landing row; a login is not remembered', async () => {
    const t = await createTestKernel({ plugins: [crossApp()], app: { login_methods: ['cross_app'] } })
    t.net.on('GET', /\/cross-app\/connections$/, { connections: [{ provider_app_id: 'prov', provider_app_name: 'Provider App', provider_app_icon_url: null, provider_app_custom_api_url: null, read_only: false, transact_url: 'https://p.example/oauth/transact' }] })
    await t.kernel.plugin('cross-app').loadConnections(true)
    const rows = t.kernel.hooks.loginMethods.call([], { config: t.kernel.config, recent: null })
    expect(rows.find((r) => r.id === 'cross_app')?.label).toBe('Provider App')
    const user = wireUser({ accounts: [{ type: 'cross_app', subject: 's', provider_app_id: 'prov', embedded_wallets: [], smart_wallets: [], verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }] })
    await t.kernel.completeLogin({ user, token: 't', refresh_token: 'r', identity_token: null, session_update_action: 'set', is_new_user: true } as never, { method: 'cross_app' })
    expect(t.kernel.recentLogin()?.method ?? null).not.toBe('cross_app')
  })
})

