import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SignJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import type { WireAppConfig, WireAuthResponse, WireForkResponse } from '../../../kernel/wire'
import type { Store } from '../src/core/store'
import { loadSigner } from '../src/core/identity/tokens'
import { devKeys, openTestStore } from './helpers'
import {
  ALLOW,
  DEMO,
  DEVMODE,
  EMAILONLY,
  LIMIT,
  NOPLUS,
  ORIGIN,
  TERMS,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from './helpers'

let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store)
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const auth = (r: { body: WireAuthResponse }) => r.body.token!

describe('basics', () => {
  it('GET /health needs no app id', async () => {
    const r = await s.call('/health', { appId: null })
    expect(r.status).toBe(200)
    expect(r.body.ok).toBe(true)
  })

  it('app id header: missing 400, wrong length 400, unknown 404', async () => {
    const missing = await s.call('/api/v1/passwordless/init', { appId: null, body: { email: 'a@b.co' } })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('missing_or_invalid_privy_app_id')
    const short = await s.call('/api/v1/passwordless/init', { appId: 'short', body: { email: 'a@b.co' } })
    expect(short.status).toBe(400)
    expect(short.body.code).toBe('missing_or_invalid_privy_app_id')
    const unknown = await s.call('/api/v1/passwordless/init', { appId: 'x'.repeat(25), body: { email: 'a@b.co' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('missing_or_invalid_privy_app_id')
  })

  it('GET /apps/{appId} returns WireAppConfig and nothing secret', async () => {
    const r = await s.call<WireAppConfig>(`/api/v1/apps/${DEMO}`)
    expect(r.status).toBe(200)
    expect(r.body.id).toBe(DEMO)
    expect(r.body.login_methods).toEqual(['email', 'sms', 'wallet', 'guest', 'google', 'apple', 'discord', 'github', 'instagram', 'spotify', 'tiktok', 'twitter', 'linkedin', 'passkey'])
    expect(JSON.stringify(r.body)).not.toMatch(/clientSecret|client_secret|oauth/)
    expect(r.body.legal?.require_users_accept_terms).toBe(false)
    expect(r.body.development_mode).toBe(false)
    expect(JSON.stringify(r.body)).not.toMatch(/publicJwk|customAuth|allowedOrigins|"d"/)
    const allow = await s.call<WireAppConfig>(`/api/v1/apps/${ALLOW}`, { appId: null })
    expect(allow.body.allowlist_config?.error_title).toBe("You don't have access to this app")
    expect(JSON.stringify(allow.body)).not.toContain('allowed@example.com')
    const terms = await s.call<WireAppConfig>(`/api/v1/apps/${TERMS}`, { appId: TERMS })
    expect(terms.body.legal?.require_users_accept_terms).toBe(true)
    expect((await s.call<WireAppConfig>(`/api/v1/apps/${DEVMODE}`, { appId: DEVMODE })).body.development_mode).toBe(true)
    expect((await s.call<WireAppConfig>(`/api/v1/apps/${NOPLUS}`, { appId: NOPLUS })).body.disable_plus_emails).toBe(true)
    const unknown = await s.call(`/api/v1/apps/${'y'.repeat(25)}`, { appId: null })
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('missing_or_invalid_privy_app_id')
  })

  it('unknown route: 404 not_found', async () => {
    const r = await s.call('/api/v1/nope', { body: {} })
    expect(r.status).toBe(404)
    expect(r.body.code).toBe('not_found')
    expect((await s.call('/nope', { appId: null })).body.code).toBe('not_found')
  })

  it('invalid bodies: bad JSON 400, missing/wrong fields 422 with fields, > 64 KB 413', async () => {
    const bad = await s.call('/api/v1/passwordless/init', { raw: '{"email":' })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('invalid_data')
    const missing = await s.call('/api/v1/passwordless/init', { body: {} })
    expect(missing.status).toBe(422)
    expect(missing.body).toMatchObject({ code: 'invalid_data', error: 'email: Required', data: { fields: { email: 'Required' } } })
    const wrong = await s.call('/api/v1/passwordless/init', { body: { email: 42 } })
    expect(wrong.status).toBe(422)
    expect(wrong.body.error).toBe('email: Expected string, received number')
    const badEmail = await s.call('/api/v1/passwordless/init', { body: { email: 'not-an-email' } })
    expect(badEmail.status).toBe(422)
    expect(badEmail.body.data.fields.email).toBeTruthy()
    const big = await s.call('/api/v1/passwordless/init', { raw: JSON.stringify({ email: 'a@b.co', pad: 'x'.repeat(70_000) }) })
    expect(big.status).toBe(413)
    expect(big.body.code).toBe('invalid_data')
    // Chunked, without Content-Length: counted as it arrives, refused past 64 KB.
    const chunked = async (size: number) => {
      const text = JSON.stringify({ email: 'chunked@example.com', pad: 'x'.repeat(size) })
      const body = new ReadableStream({
        start(ctl) {
          for (let i = 0; i < text.length; i += 8192) ctl.enqueue(new TextEncoder().encode(text.slice(i, i + 8192)))
          ctl.close()
        },
      })
      const r = await fetch(`${s.url}/api/v1/passwordless/init`, {
        method: 'POST',
        headers: { 'privy-app-id': DEMO, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit)
      return { status: r.status, body: await r.json() }
    }
    const bigChunked = await chunked(70_000)
    expect(bigChunked.status).toBe(413)
    expect(bigChunked.body.code).toBe('invalid_data')
    expect((await chunked(10)).status).toBe(200)
  })

  it('CORS: preflight with credentials for allowed origins, nothing for others', async () => {
    const pre = await fetch(`${s.url}/api/v1/passwordless/init`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization,privy-app-id,privy-client-id,privy-ca-id,privy-client,privy-ui',
      },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true')
    const allowed = pre.headers.get('access-control-allow-headers')!.split(/,\s*/)
    for (const h of ['content-type', 'authorization', 'privy-app-id', 'privy-client-id', 'privy-ca-id', 'privy-client', 'privy-ui']) {
      expect(allowed).toContain(h)
    }
    const evil = await fetch(`${s.url}/api/v1/passwordless/init`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(evil.headers.get('access-control-allow-origin')).toBeNull()
    const actual = await s.call(`/api/v1/apps/${DEMO}`, { headers: { origin: ORIGIN } })
    expect(actual.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(actual.headers.get('access-control-allow-credentials')).toBe('true')
  })
})

describe('passwordless e-mail', () => {
  it('init, outbox, authenticate: WireAuthResponse, ES256 tokens, stable user', async () => {
    const email = uniqueEmail('Login')
    const init = await s.call('/api/v1/passwordless/init', { body: { email, token: 'captcha' } })
    expect(init.body).toEqual({ success: true })
    const outbox = await s.call(`/dev/outbox?to=${encodeURIComponent(email)}`, { appId: null })
    expect(outbox.body[0]).toMatchObject({ to: email.toLowerCase(), channel: 'email', app_id: DEMO })
    expect(outbox.body[0].code).toMatch(/^\d{6}$/)
    expect(typeof outbox.body[0].sent_at).toBe('number')
    const html = await fetch(`${s.url}/dev/outbox.html`)
    expect(await html.text()).toContain(outbox.body[0].code)

    const r = await s.call<WireAuthResponse>('/api/v1/passwordless/authenticate', {
      body: { email, code: ` ${outbox.body[0].code} `, mode: 'login-or-sign-up' },
    })
    expect(r.status).toBe(200)
    expect(r.body.session_update_action).toBe('set')
    expect(r.body.is_new_user).toBe(true)
    expect(r.body.user.id).toMatch(/^did:portico:/)
    expect(r.body.user.is_guest).toBe(false)
    expect(r.body.user.has_accepted_terms).toBe(false)
    expect(r.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'email', address: email.toLowerCase(), verified_at: expect.any(Number), first_verified_at: expect.any(Number), latest_verified_at: expect.any(Number) }),
    ])
    expect(r.body.privy_access_token).toBe(r.body.token)
    expect(Buffer.from(r.body.refresh_token!, 'base64url').length).toBe(32)
    const claims = decodeJwt(r.body.token!)
    expect(decodeProtectedHeader(r.body.token!).alg).toBe('ES256')
    expect(claims).toMatchObject({ sub: r.body.user.id, aud: DEMO, iss: 'portico', sid: expect.any(String) })
    expect(claims.exp! - claims.iat!).toBe(3600)
    const jwks = await s.call(`/api/v1/apps/${DEMO}/jwks.json`, { appId: null })
    const { payload } = await jwtVerify(r.body.token!, createLocalJWKSet(jwks.body), { issuer: 'portico', audience: DEMO })
    expect(payload.sub).toBe(r.body.user.id)
    const idt = await jwtVerify(r.body.identity_token!, createLocalJWKSet(jwks.body), { audience: DEMO })
    expect(idt.payload.linked_accounts).toEqual([expect.objectContaining({ type: 'email', address: email.toLowerCase() })])

    const again = await s.emailLogin(email)
    expect(again.body.is_new_user).toBe(false)
    expect(again.body.user.id).toBe(r.body.user.id)

    const me = await s.call('/api/v1/users/me', { token: r.body.token })
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(r.body.user.id)
  })

  it('wrong code 401 invalid_credentials; 5 wrong tries kill the code; codes are single use', async () => {
    const email = uniqueEmail()
    await s.call('/api/v1/passwordless/init', { body: { email } })
    const code = await s.code(email)
    const wrongCode = code === '000000' ? '111111' : '000000'
    const wrong = await s.call('/api/v1/passwordless/authenticate', { body: { email, code: wrongCode } })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toMatchObject({ code: 'invalid_credentials', error: 'Invalid or expired verification code' })
    for (let i = 0; i < 4; i++) await s.call('/api/v1/passwordless/authenticate', { body: { email, code: wrongCode } })
    const dead = await s.call('/api/v1/passwordless/authenticate', { body: { email, code } })
    expect(dead.status).toBe(401)

    const email2 = uniqueEmail()
    const ok = await s.emailLogin(email2)
    expect(ok.status).toBe(200)
    const reuse = await s.call('/api/v1/passwordless/authenticate', { body: { email: email2, code: await s.code(email2) } })
    expect(reuse.status).toBe(401)
    expect(reuse.body.code).toBe('invalid_credentials')
  })

  it("mode 'no-signup' refuses unknown users with 404 user_does_not_exist", async () => {
    const r = await s.emailLogin(uniqueEmail(), { mode: 'no-signup' })
    expect(r.status).toBe(404)
    expect(r.body.code).toBe('user_does_not_exist')
    const bad = await s.call('/api/v1/passwordless/authenticate', { body: { email: 'a@b.co', code: '123456', mode: 'x' } })
    expect(bad.status).toBe(422)
  })

  it('expired code is refused', async () => {
    const short = await startTestServer(store, { limits: { codeTtlS: 0, perIp: 1e6, resendCooldownS: 0 } })
    try {
      const r = await short.emailLogin(uniqueEmail())
      expect(r.status).toBe(401)
      expect(r.body.code).toBe('invalid_credentials')
    } finally {
      await short.close()
    }
  })

  it('resend within 30 s, per-identifier and per-IP limits: 429 too_many_requests', async () => {
    const strict = await startTestServer(store, { limits: { resendCooldownS: 30, perIdentifier: 5, perIp: 1e6 } })
    try {
      const email = uniqueEmail()
      expect((await strict.call('/api/v1/passwordless/init', { body: { email } })).status).toBe(200)
      const again = await strict.call('/api/v1/passwordless/init', { body: { email } })
      expect(again.status).toBe(429)
      expect(again.body.code).toBe('too_many_requests')
    } finally {
      await strict.close()
    }
    const perId = await startTestServer(store, { limits: { resendCooldownS: 0, perIdentifier: 2, perIp: 1e6 } })
    try {
      const email = uniqueEmail()
      expect((await perId.call('/api/v1/passwordless/init', { body: { email } })).status).toBe(200)
      expect((await perId.call('/api/v1/passwordless/init', { body: { email } })).status).toBe(200)
      expect((await perId.call('/api/v1/passwordless/init', { body: { email } })).status).toBe(429)
    } finally {
      await perId.close()
    }
    // per-IP: this IP has already used many inits in this run; a limit of 1 refuses now.
    const perIp = await startTestServer(store, { limits: { resendCooldownS: 0, perIdentifier: 100, perIp: 1 } })
    try {
      const r = await perIp.call('/api/v1/passwordless/init', { body: { email: uniqueEmail() } })
      expect(r.status).toBe(429)
      expect(r.body.code).toBe('too_many_requests')
    } finally {
      await perIp.close()
    }
  })

  it('link: 401 must_be_authenticated without bearer; one per type; transfer from another user', async () => {
    const noAuth = await s.call('/api/v1/passwordless/link', { body: { email: 'a@b.co', code: '123456' } })
    expect(noAuth.status).toBe(401)
    expect(noAuth.body).toMatchObject({ code: 'must_be_authenticated', error: 'User must be authenticated before linking an account.' })
    const badAuth = await s.call('/api/v1/passwordless/link', { body: { email: 'a@b.co', code: '123456' }, token: 'garbage' })
    expect(badAuth.status).toBe(401)
    expect(badAuth.body.code).toBe('missing_or_invalid_token')

    const a = await s.emailLogin(uniqueEmail('a'))
    const other = uniqueEmail('other')
    await s.call('/api/v1/passwordless/init', { body: { email: other } })
    const more = await s.call('/api/v1/passwordless/link', { body: { email: other, code: await s.code(other) }, token: auth(a) })
    expect(more.status).toBe(400)
    expect(more.body).toMatchObject({ code: 'cannot_link_more_of_type', error: 'User already has an account of type email linked.' })

    // A phone user links an e-mail that belongs to user B: transfer required.
    const phoneUser = await s.smsLogin('+1 415 555 0101')
    const bEmail = uniqueEmail('b')
    const b = await s.emailLogin(bEmail)
    await s.call('/api/v1/passwordless/init', { body: { email: bEmail } })
    const conflict = await s.call('/api/v1/passwordless/link', {
      body: { email: bEmail, code: await s.code(bEmail) },
      token: auth(phoneUser),
    })
    expect(conflict.status).toBe(400)
    expect(conflict.body.code).toBe('account_transfer_required')
    expect(conflict.body.data).toMatchObject({
      nonce: expect.any(String),
      account: bEmail.toLowerCase(),
      account_type: 'email',
      display_name: bEmail.toLowerCase(),
      link_method: 'email',
      embedded_wallet_address: null,
    })
    const wrongUser = await s.call('/api/v1/passwordless/transfer', { body: { nonce: conflict.body.data.nonce, email: bEmail }, token: auth(a) })
    expect(wrongUser.status).toBe(401)
    const moved = await s.call<WireAuthResponse>('/api/v1/passwordless/transfer', {
      body: { nonce: conflict.body.data.nonce, email: bEmail },
      token: auth(phoneUser),
    })
    expect(moved.status).toBe(200)
    expect(moved.body.user.id).toBe(phoneUser.body.user.id)
    expect(moved.body.user.linked_accounts.map((x) => x.type).sort()).toEqual(['email', 'phone'])
    // B is gone with its sessions.
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: b.body.refresh_token } })).status).toBe(401)
    expect((await s.call('/api/v1/users/me', { token: auth(b) })).status).toBe(401)
    const login = await s.emailLogin(bEmail)
    expect(login.body.user.id).toBe(phoneUser.body.user.id)
    // Nonce is single use.
    const twice = await s.call('/api/v1/passwordless/transfer', { body: { nonce: conflict.body.data.nonce, email: bEmail }, token: auth(phoneUser) })
    expect(twice.status).toBe(401)
  })

  it('update: needs an e-mail; code goes to the new address', async () => {
    const phoneOnly = await s.smsLogin('+14155550102')
    const need = await s.call('/api/v1/passwordless/update', {
      body: { oldAddress: 'x@y.co', newAddress: 'z@y.co', code: '123456' },
      token: auth(phoneOnly),
    })
    expect(need.status).toBe(400)
    expect(need.body.error).toBe('User is required to have an email address to update it.')

    const oldAddress = uniqueEmail('old')
    const u = await s.emailLogin(oldAddress)
    const newAddress = uniqueEmail('new')
    await s.call('/api/v1/passwordless/init', { body: { email: newAddress } })
    const r = await s.call<WireAuthResponse>('/api/v1/passwordless/update', {
      body: { oldAddress, newAddress, code: await s.code(newAddress) },
      token: auth(u),
    })
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts).toEqual([expect.objectContaining({ type: 'email', address: newAddress.toLowerCase() })])
    expect((await s.emailLogin(newAddress)).body.user.id).toBe(u.body.user.id)
  })

  it('unlink: refuses the last login account, removes others', async () => {
    const email = uniqueEmail()
    const u = await s.emailLogin(email)
    const last = await s.call('/api/v1/passwordless/unlink', { body: { address: email }, token: auth(u) })
    expect(last.status).toBe(400)
    expect(last.body.error).toBe('Cannot unlink the last login method of a user.')
    await s.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: '+14155550103' } })
    const linked = await s.call('/api/v1/passwordless_sms/link', {
      body: { phoneNumber: '+14155550103', code: await s.code('+14155550103') },
      token: auth(u),
    })
    expect(linked.status).toBe(200)
    expect(linked.body.session_update_action).toBe('ignore')
    const r = await s.call<WireAuthResponse>('/api/v1/passwordless/unlink', { body: { address: email }, token: auth(u) })
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts.map((a) => a.type)).toEqual(['phone'])
  })
})

describe('app rules', () => {
  it("disablePlusEmails: 400 disallowed_plus_email", async () => {
    const r = await s.call('/api/v1/passwordless/init', { appId: NOPLUS, body: { email: 'me+tag@example.com' } })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ code: 'disallowed_plus_email', error: "Please enter a valid email address without a '+'." })
    expect((await s.call('/api/v1/passwordless/init', { body: { email: uniqueEmail('me+tag') } })).status).toBe(200)
  })

  it('method not enabled: 403 disallowed_login_method; captcha flag needs a token', async () => {
    const sms = await s.call('/api/v1/passwordless_sms/init', { appId: EMAILONLY, body: { phoneNumber: '+14155550104', token: 't' } })
    expect(sms.status).toBe(403)
    expect(sms.body.code).toBe('disallowed_login_method')
    const guest = await s.call('/api/v1/guest/authenticate', { appId: EMAILONLY, body: { guest_credential: 'A'.repeat(43) } })
    expect(guest.body.code).toBe('disallowed_login_method')
    const noCaptcha = await s.call('/api/v1/passwordless/init', { appId: EMAILONLY, body: { email: uniqueEmail() } })
    expect(noCaptcha.status).toBe(400)
    expect(noCaptcha.body.code).toBe('invalid_captcha')
    expect((await s.call('/api/v1/passwordless/init', { appId: EMAILONLY, body: { email: uniqueEmail(), token: 'ok' } })).status).toBe(200)
  })

  it('allowlist: 403 allowlist_rejected unless listed', async () => {
    const no = await s.emailLogin(uniqueEmail(), { appId: ALLOW })
    expect(no.status).toBe(403)
    expect(no.body.code).toBe('allowlist_rejected')
    const yes = await s.emailLogin('Allowed@Example.com', { appId: ALLOW })
    expect(yes.status).toBe(200)
  })

  it('user limit: 403 max_accounts_reached for new users only', async () => {
    const one = uniqueEmail()
    expect((await s.emailLogin(one, { appId: LIMIT })).status).toBe(200)
    expect((await s.emailLogin(uniqueEmail(), { appId: LIMIT })).status).toBe(200)
    const third = await s.emailLogin(uniqueEmail(), { appId: LIMIT })
    expect(third.status).toBe(403)
    expect(third.body.code).toBe('max_accounts_reached')
    expect((await s.emailLogin(one, { appId: LIMIT })).status).toBe(200)
  })

  it('development mode: new users refused past the cap with reason development_mode', async () => {
    const one = uniqueEmail()
    expect((await s.emailLogin(one, { appId: DEVMODE })).status).toBe(200)
    expect((await s.smsLogin('+14155550105', { appId: DEVMODE })).status).toBe(200)
    const third = await s.emailLogin(uniqueEmail(), { appId: DEVMODE })
    expect(third.status).toBe(403)
    expect(third.body).toEqual({
      code: 'max_accounts_reached',
      error: 'This application is in development mode and must be upgraded to production to log in new users.',
      data: { reason: 'development_mode' },
    })
    expect((await s.emailLogin(one, { appId: DEVMODE })).status).toBe(200)
  })

  it('terms: accept_terms sets has_accepted_terms', async () => {
    const u = await s.emailLogin(uniqueEmail(), { appId: TERMS })
    expect(u.body.user.has_accepted_terms).toBe(false)
    const noAuth = await s.call('/api/v1/users/me/accept_terms', { appId: TERMS, body: {} })
    expect(noAuth.status).toBe(401)
    const r = await s.call('/api/v1/users/me/accept_terms', { appId: TERMS, body: {}, token: auth(u) })
    expect(r.status).toBe(200)
    // The answer is the user record itself.
    expect(r.body.id).toBe(u.body.user.id)
    expect(r.body.has_accepted_terms).toBe(true)
    const me = await s.call('/api/v1/users/me', { appId: TERMS, token: auth(u) })
    expect(me.body.user.has_accepted_terms).toBe(true)
    expect(me.body.identity_token).toEqual(expect.any(String))
    // A token for one app is not valid for another.
    expect((await s.call('/api/v1/users/me', { token: auth(u) })).status).toBe(401)
  })

  it('analytics events are stored', async () => {
    const r = await s.call('/api/v1/analytics_events', { body: { eventName: 'modal_open', payload: { a: 1 } } })
    expect(r.status).toBe(200)
    const rows = await store.query("SELECT payload FROM analytics_events WHERE event_name = 'modal_open'")
    expect(rows[0].payload).toEqual({ a: 1 })
    expect((await s.call('/api/v1/analytics_events', { body: { payload: {} } })).status).toBe(422)
  })
})

describe('passwordless SMS', () => {
  it('normalises to E.164, logs in, updates, unlinks, transfers', async () => {
    const init = await s.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: '(415) 555-0106', token: 't' } })
    expect(init.body).toEqual({ success: true })
    const entry = (await s.call('/dev/outbox?to=%2B14155550106', { appId: null })).body[0]
    expect(entry).toMatchObject({ to: '+14155550106', channel: 'sms' })
    expect((await s.call('/dev/outbox?to=+1 (415) 555-0106', { appId: null })).body[0].code).toBe(entry.code)
    const u = await s.call<WireAuthResponse>('/api/v1/passwordless_sms/authenticate', {
      body: { phoneNumber: '+1 415-555-0106', code: entry.code, mode: 'login-or-sign-up' },
    })
    expect(u.status).toBe(200)
    expect(u.body.user.linked_accounts).toEqual([expect.objectContaining({ type: 'phone', number: '+14155550106' })])
    expect((await s.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: '12' } })).status).toBe(422)

    const emailUser = await s.emailLogin(uniqueEmail())
    const need = await s.call('/api/v1/passwordless_sms/update', {
      body: { old_phone_number: '+14155550106', new_phone_number: '+14155550107', code: '123456' },
      token: auth(emailUser),
    })
    expect(need.status).toBe(400)
    expect(need.body.error).toBe('User is required to have a phone number to update it.')

    await s.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: '+14155550107' } })
    const upd = await s.call<WireAuthResponse>('/api/v1/passwordless_sms/update', {
      body: { old_phone_number: '+14155550106', new_phone_number: '+14155550107', code: await s.code('+14155550107') },
      token: auth(u),
    })
    expect(upd.status).toBe(200)
    expect(upd.body.user.linked_accounts[0]).toMatchObject({ number: '+14155550107' })

    // emailUser links that phone: transfer required, then transfer.
    await s.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: '+14155550107' } })
    const conflict = await s.call('/api/v1/passwordless_sms/link', {
      body: { phoneNumber: '+14155550107', code: await s.code('+14155550107') },
      token: auth(emailUser),
    })
    expect(conflict.body.code).toBe('account_transfer_required')
    expect(conflict.body.data).toMatchObject({ account_type: 'phone', link_method: 'sms', account: '+14155550107' })
    const moved = await s.call<WireAuthResponse>('/api/v1/passwordless_sms/transfer', {
      body: { nonce: conflict.body.data.nonce, phoneNumber: '+14155550107' },
      token: auth(emailUser),
    })
    expect(moved.status).toBe(200)
    expect(moved.body.user.linked_accounts.map((a) => a.type).sort()).toEqual(['email', 'phone'])
    const un = await s.call<WireAuthResponse>('/api/v1/passwordless_sms/unlink', { body: { phoneNumber: '+14155550107' }, token: auth(emailUser) })
    expect(un.status).toBe(200)
    expect(un.body.user.linked_accounts.map((a) => a.type)).toEqual(['email'])
  })
})

describe('sessions', () => {
  it('refresh rotates; reusing a rotated token revokes the whole family', async () => {
    const u = await s.emailLogin(uniqueEmail())
    const r1 = await s.call<WireAuthResponse>('/api/v1/sessions', { body: { refresh_token: u.body.refresh_token }, token: auth(u) })
    expect(r1.status).toBe(200)
    expect(r1.body.session_update_action).toBe('set')
    expect(r1.body.user.id).toBe(u.body.user.id)
    expect(r1.body.refresh_token).not.toBe(u.body.refresh_token)
    expect(decodeJwt(r1.body.token!).sid).toBe(decodeJwt(u.body.token!).sid)
    const r2 = await s.call<WireAuthResponse>('/api/v1/sessions', { body: { refresh_token: r1.body.refresh_token } })
    expect(r2.status).toBe(200)
    // Reuse of r1's (rotated) token: 401 and the family dies.
    const reuse = await s.call('/api/v1/sessions', { body: { refresh_token: r1.body.refresh_token } })
    expect(reuse.status).toBe(401)
    expect(reuse.body.code).toBe('missing_or_invalid_token')
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: r2.body.refresh_token } })).status).toBe(401)
    expect((await s.call('/api/v1/users/me', { token: r2.body.token })).status).toBe(401)
    const unknown = await s.call('/api/v1/sessions', { body: { refresh_token: 'nope' } })
    expect(unknown.status).toBe(401)
    expect(unknown.body.code).toBe('missing_or_invalid_token')
  })

  it('refresh accepts an expired bearer; expired bearer is refused elsewhere', async () => {
    const u = await s.emailLogin(uniqueEmail())
    const signer = await loadSigner(store, devKeys)
    const claims = decodeJwt(u.body.token!)
    const t = Math.floor(Date.now() / 1000)
    const expired = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid })
      .setSubject(claims.sub!)
      .setAudience(DEMO)
      .setIssuer('portico')
      .setIssuedAt(t - 7200)
      .setExpirationTime(t - 3600)
      .sign(signer.privateKey)
    const me = await s.call('/api/v1/users/me', { token: expired })
    expect(me.status).toBe(401)
    expect(me.body.code).toBe('missing_or_invalid_token')
    const r = await s.call('/api/v1/sessions', { body: { refresh_token: u.body.refresh_token }, token: expired })
    expect(r.status).toBe(200)
    expect((await s.call('/api/v1/users/me')).status).toBe(401)
  })

  it('JWT_PRIVATE_KEY (PKCS#8 PEM) replaces the stored key', async () => {
    const { generateKeyPair, exportPKCS8 } = await import('jose')
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const pem = await exportPKCS8(privateKey)
    const signer = await loadSigner(store, devKeys, pem)
    const stored = await loadSigner(store, devKeys)
    expect(signer.kid).not.toBe(stored.kid)
    const srv = await startTestServer(store, { signer })
    try {
      const u = await srv.emailLogin(uniqueEmail())
      expect(decodeProtectedHeader(u.body.token!).kid).toBe(signer.kid)
      const jwks = await srv.call(`/api/v1/apps/${DEMO}/jwks.json`)
      await jwtVerify(u.body.token!, createLocalJWKSet(jwks.body))
    } finally {
      await srv.close()
    }
  })

  it('logout revokes the session', async () => {
    const u = await s.emailLogin(uniqueEmail())
    const out = await s.call('/api/v1/sessions/logout', { body: { refresh_token: u.body.refresh_token }, token: auth(u) })
    expect(out.status).toBe(200)
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: u.body.refresh_token } })).status).toBe(401)
    expect((await s.call('/api/v1/users/me', { token: auth(u) })).status).toBe(401)
  })

  it('fork and recover', async () => {
    const u = await s.emailLogin(uniqueEmail())
    const noBearer = await s.call('/api/v1/sessions/fork', { body: { refresh_token: u.body.refresh_token } })
    expect(noBearer.status).toBe(401)
    const f = await s.call<WireForkResponse>('/api/v1/sessions/fork', { body: { refresh_token: u.body.refresh_token }, token: auth(u) })
    expect(f.status).toBe(200)
    expect(f.body.refresh_token).not.toBe(u.body.refresh_token)
    expect(f.body.new_session_refresh_token).toBeTruthy()
    expect((await s.call('/api/v1/users/me', { token: f.body.token })).status).toBe(200)
    const rec = await s.call<WireAuthResponse>('/api/v1/sessions/fork/recover', { body: { refresh_token: f.body.new_session_refresh_token } })
    expect(rec.status).toBe(200)
    expect(rec.body.user.id).toBe(u.body.user.id)
    expect(rec.body.session_update_action).toBe('set')
    expect(decodeJwt(rec.body.token!).sid).not.toBe(decodeJwt(f.body.token).sid)
    // A normal refresh token is not a fork token.
    expect((await s.call('/api/v1/sessions/fork/recover', { body: { refresh_token: f.body.refresh_token } })).status).toBe(401)
    // Both sessions live on.
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: f.body.refresh_token } })).status).toBe(200)
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: rec.body.refresh_token } })).status).toBe(200)
  })
})
