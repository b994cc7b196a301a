/**
 * OAuth routes (issue 12) over HTTP against the local identity provider stand-in
 * (examples/server/idp), both on loopback ports: the server is the OAuth client, the stand-in
 * the provider. Every bad input of the issue ends in the spec's code and leaves nothing
 * half-written.
 */
import { createHash, randomBytes } from 'node:crypto'
import { serve } from '@hono/node-server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { WireAuthResponse } from '../../../kernel/wire'
import { createOAuthIdp, type OAuthIdp } from '../idp/server'
import { OAUTH_PROVIDERS, type OAuthProvider } from '../src/features/oauth/providers'
import type { Store } from '../src/core/store'
import { EMAILONLY, freePort, ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const OAUTH = 'portico-test-oauth-000001'
const UNCONFIGURED = 'portico-test-oauthoff-001'
const NOTRANSFER = 'portico-test-oauthnotx-01'
const DEMO = 'portico-demo-app-00000001'

let store: Store
let s: TestServer
let idp: OAuthIdp
let idpUrl: string
let closeIdp: () => Promise<void>

beforeAll(async () => {
  store = await openTestStore()
  const port = await freePort()
  idpUrl = `http://127.0.0.1:${port}`
  idp = await createOAuthIdp({ origin: idpUrl })
  const server = serve({ fetch: idp.app.fetch, port, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closeIdp = () => new Promise<void>((r) => server.close(() => r()))
  s = await startTestServer(store, { oauth: { timeoutMs: 1000, env: { PORTICO_OAUTH_BASE_URL: idpUrl } } })
})
afterAll(async () => {
  await s?.close()
  await closeIdp?.()
  await store?.close()
})
afterEach(() => {
  idp.control.delayMs = 0
  idp.control.tokenStatus = null
  idp.control.profileStatus = null
})

let n = 0
const uniqueUser = (tag = 'u') => `${tag}-${process.pid}-${n++}`
const newVerifier = () => randomBytes(36).toString('base64url')
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url')
const newState = () => randomBytes(24).toString('base64url')

async function init(server: TestServer, o: { provider: OAuthProvider; appId?: string; verifier?: string; state?: string; redirectTo?: string }) {
  const verifier = o.verifier ?? newVerifier()
  const state = o.state ?? newState()
  const r = await server.call('/api/v1/oauth/init', {
    appId: o.appId ?? OAUTH,
    body: { provider: o.provider, redirect_to: o.redirectTo ?? `${ORIGIN}/login?x=1`, code_challenge: challengeOf(verifier), state_code: state },
  })
  return { r, verifier, state }
}

/** The browser's part: init, the stand-in's consent form, the server's callback; returns where it lands. */
async function flow(o: { provider: OAuthProvider; user?: string; decision?: 'allow' | 'deny'; appId?: string }) {
  const { r, verifier, state } = await init(s, o)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  const url = new URL(r.body.url)
  const form = new URLSearchParams(url.searchParams)
  form.set('user', o.user ?? uniqueUser())
  form.set('decision', o.decision ?? 'allow')
  const consent = await fetch(url.origin + url.pathname, { method: 'POST', body: form, redirect: 'manual', headers: { origin: idpUrl } })
  let cb: Response
  if (consent.status === 303) {
    cb = await fetch(consent.headers.get('location')!, { redirect: 'manual' })
  } else {
    // form_post (Apple): the page's auto-submitted form, posted as the browser would.
    expect(consent.status).toBe(200)
    const html = await consent.text()
    const action = /<form data-auto method="post" action="([^"]+)"/.exec(html)![1].replace(/&#38;/g, '&')
    const fields = new URLSearchParams()
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      fields.set(m[1], m[2].replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d))))
    }
    cb = await fetch(action, { method: 'POST', body: fields, redirect: 'manual' })
  }
  expect(cb.status).toBe(303)
  const back = new URL(cb.headers.get('location')!)
  return { verifier, state, back, code: back.searchParams.get('privy_oauth_code'), url }
}

const authenticate = (body: Record<string, unknown>, o: { appId?: string; token?: string } = {}) =>
  s.call<WireAuthResponse>('/api/v1/oauth/authenticate', { appId: o.appId ?? OAUTH, body, token: o.token })

async function login(provider: OAuthProvider, user?: string, extra: Record<string, unknown> = {}) {
  const f = await flow({ provider, user })
  return authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider, ...extra })
}

async function counts() {
  const [u] = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM users')
  const [a] = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')
  const [orphans] = await store.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM users u WHERE NOT u.is_guest AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = u.id)',
  )
  return { users: u.n, accounts: a.n, orphans: orphans.n }
}

const EXPECTED: Record<OAuthProvider, (u: string) => Record<string, unknown>> = {
  google: (u) => ({ email: `${u}@example.com`, name: u[0].toUpperCase() + u.slice(1), username: null }),
  apple: (u) => ({ email: `${u}@example.com`, name: u[0].toUpperCase() + u.slice(1), username: null }),
  discord: (u) => ({ email: `${u}@example.com`, username: u }),
  github: (u) => ({ email: `${u}@example.com`, username: u }),
  instagram: (u) => ({ email: null, username: u }),
  spotify: (u) => ({ email: `${u}@example.com`, username: null }),
  tiktok: (u) => ({ email: null, username: u }),
  twitter: (u) => ({ email: null, username: u }),
  linkedin: (u) => ({ email: `${u}@example.com`, username: null }),
}

describe('oauth: a login per provider against the stand-in', () => {
  for (const provider of OAUTH_PROVIDERS) {
    it(`${provider}: init → consent → callback → authenticate signs up, then logs in`, async () => {
      const user = uniqueUser('p')
      const f = await flow({ provider, user })
      // Back on the app page: its own query kept, the flow's parameters added.
      expect(f.back.origin + f.back.pathname).toBe(`${ORIGIN}/login`)
      expect(f.back.searchParams.get('x')).toBe('1')
      expect(f.back.searchParams.get('privy_oauth_state')).toBe(f.state)
      expect(f.back.searchParams.get('privy_oauth_provider')).toBe(provider)
      expect(f.code).toBeTruthy()
      // The browser never sees a client secret; the provider URL carries the challenge for PKCE providers.
      expect(f.url.href).not.toContain('secret')
      const r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.is_new_user).toBe(true)
      expect(r.body.token).toBeTruthy()
      const acct = r.body.user.linked_accounts.find((a) => a.type === `${provider}_oauth`) as any
      expect(acct).toBeTruthy()
      expect(acct.subject).toBeTruthy()
      expect(acct).toMatchObject(EXPECTED[provider](user))
      expect(r.body.oauth_tokens).toMatchObject({ provider, access_token: expect.any(String) })
      expect(Array.isArray(r.body.oauth_tokens!.scopes)).toBe(true)
      if (provider !== 'github' && provider !== 'instagram') expect(r.body.oauth_tokens!.access_token_expires_in_seconds).toBeGreaterThan(0)
      if (provider === 'tiktok' || provider === 'linkedin') expect(r.body.oauth_tokens!.refresh_token_expires_in_seconds).toBeGreaterThan(0)

      const again = await login(provider, user)
      expect(again.status).toBe(200)
      expect(again.body.is_new_user).toBe(false)
      expect(again.body.user.id).toBe(r.body.user.id)
    })
  }

  it('the provider URL carries the provider’s own parameter names (TikTok client_key, Twitter PKCE, Apple form_post)', async () => {
    const tiktok = new URL((await init(s, { provider: 'tiktok' })).r.body.url)
    expect(tiktok.searchParams.get('client_key')).toBe('portico-local-tiktok')
    expect(tiktok.searchParams.get('client_id')).toBeNull()
    expect(tiktok.searchParams.get('scope')).toBe('user.info.basic,user.info.profile')
    const twitter = new URL((await init(s, { provider: 'twitter' })).r.body.url)
    expect(twitter.searchParams.get('code_challenge_method')).toBe('S256')
    expect(twitter.searchParams.get('redirect_uri')).toBe(`${s.url}/api/v1/oauth/callback`)
    const apple = new URL((await init(s, { provider: 'apple' })).r.body.url)
    expect(apple.searchParams.get('response_mode')).toBe('form_post')
    expect(apple.pathname).toBe('/apple/auth/authorize')
  })

  it('the stand-in’s consent page has a test-user picker, Allow and Deny, and is labelled as a stand-in', async () => {
    const { r } = await init(s, { provider: 'google' })
    const url = new URL(r.body.url)
    url.searchParams.set('login_hint', 'bob')
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await res.text()
    expect(html).toContain('Local test identity provider — Google stand-in')
    expect(html).toMatch(/<option value="bob" selected>/)
    expect(html).toContain('>Allow</button>')
    expect(html).toContain('>Deny</button>')
  })

  it('a profile without an e-mail links the account with email null', async () => {
    const r = await login('google', uniqueUser('noemail'))
    expect(r.status).toBe(200)
    const acct = r.body.user.linked_accounts.find((a) => a.type === 'google_oauth') as any
    expect(acct.email).toBeNull()
    expect(acct.subject).toBeTruthy()
  })
})

describe('oauth: bad input', () => {
  it('init: foreign redirect_to, malformed challenge or state, unknown provider → 4xx', async () => {
    expect((await init(s, { provider: 'google', redirectTo: 'https://evil.example/cb' })).r).toMatchObject({ status: 400, body: { code: 'invalid_data' } })
    const bad = await s.call('/api/v1/oauth/init', { appId: OAUTH, body: { provider: 'google', redirect_to: ORIGIN, code_challenge: 'short', state_code: newState() } })
    expect(bad).toMatchObject({ status: 422, body: { code: 'invalid_data' } })
    const badState = await s.call('/api/v1/oauth/init', { appId: OAUTH, body: { provider: 'google', redirect_to: ORIGIN, code_challenge: challengeOf(newVerifier()), state_code: 'x' } })
    expect(badState.status).toBe(422)
    expect((await init(s, { provider: 'myspace' as OAuthProvider })).r).toMatchObject({ status: 422, body: { code: 'invalid_data' } })
  })

  it('a state used twice at init is refused', async () => {
    const state = newState()
    expect((await init(s, { provider: 'google', state })).r.status).toBe(200)
    expect((await init(s, { provider: 'google', state })).r).toMatchObject({ status: 400, body: { code: 'oauth_unexpected' } })
  })

  it('a provider the app does not enable, or that is configured nowhere, answers disallowed_login_method', async () => {
    expect((await init(s, { provider: 'google', appId: EMAILONLY })).r).toMatchObject({ status: 403, body: { code: 'disallowed_login_method' } })
    // No client id in apps.json nor the environment (and no stand-in base URL): only this method is off.
    const bare = await startTestServer(store, { oauth: { env: {} } })
    try {
      const off = (await init(bare, { provider: 'google', appId: UNCONFIGURED })).r
      expect(off).toMatchObject({ status: 403, body: { code: 'disallowed_login_method', data: { reason: 'not_configured' } } })
      expect((await bare.emailLogin(uniqueEmail('off'), { appId: UNCONFIGURED })).status).toBe(200)
    } finally {
      await bare.close()
    }
  })

  it('missing codes: the spec’s message', async () => {
    const r = await authenticate({ provider: 'google', code_verifier: newVerifier() })
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid_data', error: 'Authorization and state codes code must be set prior to calling authenticate/link.' } })
  })

  it('denied consent: the callback says oauth_user_denied and an "undefined" code answers 403 oauth_user_denied', async () => {
    for (const provider of ['google', 'apple'] as const) {
      const before = await counts()
      const f = await flow({ provider, decision: 'deny' })
      expect(f.code).toBeNull()
      expect(f.back.searchParams.get('privy_oauth_error')).toBe('oauth_user_denied')
      const r = await authenticate({ authorization_code: 'undefined', state_code: f.state, code_verifier: f.verifier, provider })
      expect(r).toMatchObject({ status: 403, body: { code: 'oauth_user_denied', error: 'User denied confirmation during OAuth flow' } })
      expect(await counts()).toEqual(before)
    }
  })

  it('tampered state: authenticate 400 oauth_unexpected; the callback answers a plain 400 page', async () => {
    const f = await flow({ provider: 'google' })
    const r = await authenticate({ authorization_code: f.code, state_code: `${f.state}x`, code_verifier: f.verifier, provider: 'google' })
    expect(r).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', data: { reason: 'invalid_state' } } })
    const cb = await fetch(`${s.url}/api/v1/oauth/callback?code=abc&state=${newState()}`, { redirect: 'manual' })
    expect(cb.status).toBe(400)
    expect(cb.headers.get('location')).toBeNull()
    expect(await cb.text()).toContain('invalid or has expired')
  })

  it('the callback maps provider errors and refuses oversized or foreign posts', async () => {
    const go = async (q: Record<string, string>) => {
      const { state } = await init(s, { provider: 'discord' })
      const res = await fetch(`${s.url}/api/v1/oauth/callback?${new URLSearchParams({ state, ...q })}`, { redirect: 'manual' })
      expect(res.status).toBe(303)
      const back = new URL(res.headers.get('location')!)
      expect(back.searchParams.get('privy_oauth_code')).toBeNull()
      return back.searchParams.get('privy_oauth_error')
    }
    expect(await go({ error: 'access_denied' })).toBe('oauth_user_denied')
    expect(await go({ error: 'access_denied', error_description: 'The account is suspended' })).toBe('oauth_account_suspended')
    expect(await go({ error: 'server_error' })).toBe('oauth_unexpected')
    const { state } = await init(s, { provider: 'apple' })
    const big = await fetch(`${s.url}/api/v1/oauth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, code: 'c', user: 'x'.repeat(40_000) }),
      redirect: 'manual',
    })
    expect(big.status).toBe(413)
    const json = await fetch(`${s.url}/api/v1/oauth/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state }), redirect: 'manual' })
    expect(json.status).toBe(415)
  })

  it('the stand-in refuses what the real providers refuse', async () => {
    const base = (await init(s, { provider: 'twitter' })).r.body.url as string
    const noPkce = new URL(base)
    noPkce.searchParams.delete('code_challenge')
    noPkce.searchParams.delete('code_challenge_method')
    expect((await fetch(noPkce)).status).toBe(400)
    const apple = new URL((await init(s, { provider: 'apple' })).r.body.url)
    apple.searchParams.delete('response_mode')
    expect((await fetch(apple)).status).toBe(400)
    const tiktok = new URL((await init(s, { provider: 'tiktok' })).r.body.url)
    tiktok.searchParams.set('client_key', 'someone-else')
    expect((await fetch(tiktok)).status).toBe(400)
    const scope = new URL((await init(s, { provider: 'tiktok' })).r.body.url)
    scope.searchParams.set('scope', 'user.info.basic user.info.profile') // TikTok separates with commas
    expect((await fetch(scope)).status).toBe(400)
    // Cross-site consent post.
    const g = new URL((await init(s, { provider: 'google' })).r.body.url)
    const form = new URLSearchParams(g.searchParams)
    form.set('user', 'alice')
    form.set('decision', 'allow')
    const cross = await fetch(g.origin + g.pathname, { method: 'POST', body: form, headers: { origin: 'http://evil.example' }, redirect: 'manual' })
    expect(cross.status).toBe(403)
    // Token endpoint: wrong client secret.
    const tok = await fetch(`${idpUrl}/google/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: 'portico-local-google', client_secret: 'wrong', redirect_uri: 'http://x' }),
    })
    expect(tok.status).toBe(401)
    expect((await tok.json()).error).toBe('invalid_client')
  })

  it('replayed code: the same state twice, and the code again under a new state, both 400 oauth_unexpected', async () => {
    const f = await flow({ provider: 'github' })
    const body = { authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'github' }
    expect((await authenticate(body)).status).toBe(200)
    expect(await authenticate(body)).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', data: { reason: 'invalid_state' } } })
    const again = await init(s, { provider: 'github', verifier: f.verifier })
    const before = await counts()
    const r = await authenticate({ ...body, state_code: again.state })
    expect(r).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', data: { reason: 'invalid_grant' } } })
    expect(await counts()).toEqual(before)
  })

  it('code for another provider: a state of another provider, or a foreign code at this provider → 400 oauth_unexpected', async () => {
    const gh = await flow({ provider: 'github' })
    const r = await authenticate({ authorization_code: gh.code, state_code: gh.state, code_verifier: gh.verifier, provider: 'google' })
    expect(r).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', data: { reason: 'provider_mismatch' } } })
    const gh2 = await flow({ provider: 'github' })
    const g = await init(s, { provider: 'google', verifier: gh2.verifier })
    const r2 = await authenticate({ authorization_code: gh2.code, state_code: g.state, code_verifier: gh2.verifier, provider: 'google' })
    expect(r2).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', data: { reason: 'invalid_grant' } } })
  })

  it('wrong or missing verifier → 400 oauth_unexpected, nothing written', async () => {
    const before = await counts()
    const f = await flow({ provider: 'google' })
    const r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: newVerifier(), provider: 'google' })
    expect(r).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', error: 'Authentication error.', data: { reason: 'invalid_verifier' } } })
    const f2 = await flow({ provider: 'twitter' })
    const r2 = await authenticate({ authorization_code: f2.code, state_code: f2.state, provider: 'twitter' })
    expect(r2).toMatchObject({ status: 400, body: { code: 'oauth_unexpected', data: { reason: 'invalid_verifier' } } })
    expect(await counts()).toEqual(before)
  })

  it('provider slow (time-out), failing or rate limiting: 424 / 429, nothing written', async () => {
    const before = await counts()
    let f = await flow({ provider: 'google' })
    idp.control.delayMs = 1500
    let r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'google' })
    expect(r).toMatchObject({ status: 424, body: { code: 'oauth_unexpected', data: { reason: 'provider_timeout', provider: 'google' } } })
    idp.control.delayMs = 0

    f = await flow({ provider: 'discord' })
    idp.control.tokenStatus = 500
    r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'discord' })
    expect(r).toMatchObject({ status: 424, body: { code: 'oauth_unexpected', data: { reason: 'provider_error' } } })

    f = await flow({ provider: 'spotify' })
    idp.control.tokenStatus = 429
    r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'spotify' })
    expect(r).toMatchObject({ status: 429, body: { code: 'too_many_requests', error: 'Request limit reached for Spotify. Please wait a moment and try again.' } })
    idp.control.tokenStatus = null

    f = await flow({ provider: 'twitter' })
    idp.control.profileStatus = 503
    r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'twitter' })
    expect(r).toMatchObject({ status: 424, body: { code: 'oauth_unexpected' } })
    expect(await counts()).toEqual(before)
  })

  it('provider down (nothing listening): 424 provider_unreachable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`
    const down = await startTestServer(store, { oauth: { timeoutMs: 1000, env: { PORTICO_OAUTH_BASE_URL: closed } } })
    try {
      const { r, verifier, state } = await init(down, { provider: 'google', appId: DEMO })
      expect(r.status).toBe(200)
      expect(r.body.url.startsWith(`${closed}/google/`)).toBe(true)
      const res = await down.call('/api/v1/oauth/authenticate', {
        appId: DEMO,
        body: { authorization_code: 'some-code', state_code: state, code_verifier: verifier, provider: 'google' },
      })
      expect(res).toMatchObject({ status: 424, body: { code: 'oauth_unexpected', data: { reason: 'provider_unreachable' } } })
    } finally {
      await down.close()
    }
  })

  it('a suspended account: 403 oauth_account_suspended with the spec’s text, no user created', async () => {
    const before = await counts()
    const r = await login('twitter', uniqueUser('suspended'))
    expect(r).toMatchObject({
      status: 403,
      body: { code: 'oauth_account_suspended', error: 'Your Twitter account is suspended. Please try another login method.' },
    })
    expect(await counts()).toEqual(before)
  })

  it('no-signup with an unknown account: 404 user_does_not_exist, nothing written', async () => {
    const before = await counts()
    const r = await login('google', uniqueUser(), { mode: 'no-signup' })
    expect(r).toMatchObject({ status: 404, body: { code: 'user_does_not_exist' } })
    expect(await counts()).toEqual(before)
  })
})

describe('oauth: link, unlink, transfer', () => {
  const emailUser = async () => {
    const r = await s.emailLogin(uniqueEmail('oauth'), { appId: OAUTH })
    expect(r.status).toBe(200)
    return r.body as WireAuthResponse
  }
  const link = async (token: string | undefined, provider: OAuthProvider, user?: string) => {
    const f = await flow({ provider, user })
    return s.call<WireAuthResponse>('/api/v1/oauth/link', {
      appId: OAUTH,
      token,
      body: { authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider },
    })
  }

  it('links, refuses a second account of the type, unlinks', async () => {
    const me = await emailUser()
    const r = await link(me.token!, 'google')
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.session_update_action).toBe('ignore')
    expect(r.body.oauth_tokens?.provider).toBe('google')
    const acct = r.body.user.linked_accounts.find((a) => a.type === 'google_oauth') as any
    expect(acct.subject).toBeTruthy()
    const before = await counts()
    expect(await link(me.token!, 'google')).toMatchObject({ status: 400, body: { code: 'cannot_link_more_of_type' } })
    expect(await counts()).toEqual(before)
    const un = await s.call<WireAuthResponse>('/api/v1/oauth/unlink', { appId: OAUTH, token: me.token!, body: { provider: 'google', subject: acct.subject } })
    expect(un.status).toBe(200)
    expect(un.body.user.linked_accounts.some((a) => a.type === 'google_oauth')).toBe(false)
  })

  it('link without a session: 401 must_be_authenticated', async () => {
    expect(await link(undefined, 'github')).toMatchObject({ status: 401, body: { code: 'must_be_authenticated' } })
  })

  it('an account linked to another user: account_transfer_required with the user info, then /oauth/transfer moves it', async () => {
    const owner = uniqueUser('owner')
    const first = await login('discord', owner)
    expect(first.status).toBe(200)
    const me = await emailUser()
    const before = await counts()
    const r = await link(me.token!, 'discord', owner)
    expect(r).toMatchObject({
      status: 400,
      body: {
        code: 'account_transfer_required',
        error: 'This account has already been linked to another user.',
        data: { account_type: 'discord_oauth', link_method: 'discord', oauth_user_info: { provider: 'discord', username: owner } },
      },
    })
    expect(await counts()).toEqual(before)
    const t = await s.call<WireAuthResponse>('/api/v1/oauth/transfer', {
      appId: OAUTH,
      token: me.token!,
      body: { nonce: r.body.data.nonce, userInfo: r.body.data.oauth_user_info },
    })
    expect(t.status, JSON.stringify(t.body)).toBe(200)
    expect(t.body.user.linked_accounts.some((a) => a.type === 'discord_oauth')).toBe(true)
    // The other user (whose only account moved) is gone.
    expect(await store.query('SELECT 1 FROM users WHERE id = $1', [first.body.user.id])).toHaveLength(0)
    expect((await counts()).orphans).toBe(0)
  })

  it('an app without OAuth transfers answers linked_to_another_user, nothing written', async () => {
    const owner = uniqueUser('owner')
    const f = await flow({ provider: 'google', user: owner, appId: NOTRANSFER })
    const first = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'google' }, { appId: NOTRANSFER })
    expect(first.status).toBe(200)
    const me = await s.emailLogin(uniqueEmail('notx'), { appId: NOTRANSFER })
    const before = await counts()
    const g = await flow({ provider: 'google', user: owner, appId: NOTRANSFER })
    const r = await s.call('/api/v1/oauth/link', {
      appId: NOTRANSFER,
      token: me.body.token!,
      body: { authorization_code: g.code, state_code: g.state, code_verifier: g.verifier, provider: 'google' },
    })
    expect(r).toMatchObject({ status: 400, body: { code: 'linked_to_another_user', error: 'This account has already been linked to another user.' } })
    expect(await counts()).toEqual(before)
  })

  it('a guest upgrades in place (demo app, stand-in credentials from PORTICO_OAUTH_BASE_URL)', async () => {
    const g = await s.call<WireAuthResponse>('/api/v1/guest/authenticate', { appId: DEMO, body: { guest_credential: randomBytes(32).toString('base64url') } })
    expect(g.status).toBe(200)
    const f = await flow({ provider: 'google', appId: DEMO })
    const r = await authenticate({ authorization_code: f.code, state_code: f.state, code_verifier: f.verifier, provider: 'google' }, { appId: DEMO, token: g.body.token! })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.user.id).toBe(g.body.user.id)
    expect(r.body.user.is_guest).toBe(false)
  })
})

describe('captcha on the OAuth init (issue 13: every init that takes a token)', () => {
  it('verifies the token with siteverify before any state is written', async () => {
    const { readFileSync } = await import('node:fs')
    const { startSiteverify } = await import('../../../test/stand-ins/captcha')
    const sv = await startSiteverify({ secret: 'oauth-captcha-secret' })
    const file = JSON.parse(readFileSync(new URL('../apps.json', import.meta.url), 'utf8')) as { apps: { id: string }[] }
    const base = file.apps.find((a) => a.id === OAUTH)!
    const capped = { ...base, captcha: { enabled: true, siteKey: 'sk', secret: 'oauth-captcha-secret', verifyUrl: sv.url } }
    const cs = await startTestServer(store, { apps: [capped] as never, appsFile: undefined, oauth: { timeoutMs: 1000, env: { PORTICO_OAUTH_BASE_URL: idpUrl } } })
    try {
      const states = async () => (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_states'))[0].n
      const before = await states()
      const body = (token?: string) => ({
        provider: 'google',
        redirect_to: `${ORIGIN}/login`,
        code_challenge: challengeOf(newVerifier()),
        state_code: newState(),
        ...(token ? { token } : {}),
      })
      const missing = await cs.call('/api/v1/oauth/init', { appId: OAUTH, body: body() })
      expect(missing.status).toBe(400)
      expect(missing.body.code).toBe('invalid_captcha')
      const forged = await cs.call('/api/v1/oauth/init', { appId: OAUTH, body: body('forged') })
      expect(forged.status).toBe(400)
      expect(forged.body.code).toBe('invalid_captcha')
      expect(await states()).toBe(before)
      const ok = await cs.call('/api/v1/oauth/init', { appId: OAUTH, body: body('pass.sk.oauth1') })
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      expect(sv.calls.map((c) => c.response)).toEqual(['forged', 'pass.sk.oauth1'])
    } finally {
      await cs.close()
      await sv.close()
    }
  })
})
