/**
 * portico/server against the real reference server (in-process, PGlite): tokens it issues
 * verify; expired, wrong-audience, wrong-issuer, `alg: none`, HS256-confusion and
 * foreign-key tokens are refused with their codes; the key set is fetched once per key
 * rotation, not per request; getUser answers with the app secret only.
 */
import { readFileSync } from 'node:fs'
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, decodeProtectedHeader, type JWK } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AppSettings } from '../examples/server/src/config'
import type { Store } from '../examples/server/src/store'
import { APPS_FILE, DEMO, startTestServer, uniqueEmail, type TestServer, openTestStore } from '../examples/server/test/helpers'
import { PorticoServerError, getUser, verifyAccessToken, verifyIdentityToken, type PorticoServerErrorCode } from './index'

const XPD = 'portico-test-xpd-00000001'
const XPD_SECRET = 'xpd-test-app-secret-not-for-production-000000'

let store: Store
let s: TestServer
let access: string
let identity: string
let userId: string
let email: string
/** A fetch that counts the JWKS requests it passes on. */
let jwksFetches = 0
const countingFetch: typeof fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input).endsWith('/jwks.json')) jwksFetches++
  return fetch(input, init)
}

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { apps: JSON.parse(readFileSync(APPS_FILE, 'utf8')).apps as AppSettings[] })
  email = uniqueEmail()
  const login = await s.emailLogin(email, { appId: XPD })
  expect(login.status).toBe(200)
  access = login.body.token!
  identity = login.body.identity_token!
  userId = login.body.user.id
})
afterEach(() => void vi.useRealTimers())
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const opts = () => ({ appId: XPD, apiUrl: s.url, fetch: countingFetch })

async function refused(p: Promise<unknown>, code: PorticoServerErrorCode) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(PorticoServerError)
  expect((err as PorticoServerError).code).toBe(code)
  return err as PorticoServerError
}

/** A token like the server's, signed with `key` (another key than the server's unless given). */
async function forge(claims: Record<string, unknown>, o: { key?: CryptoKey; kid?: string; iss?: string; aud?: string; exp?: number } = {}) {
  const { privateKey } = await generateKeyPair('ES256')
  const kid = o.kid ?? decodeProtectedHeader(access).kid!
  const iat = Math.floor(Date.now() / 1000)
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setSubject(userId)
    .setAudience(o.aud ?? XPD)
    .setIssuer(o.iss ?? 'portico')
    .setIssuedAt(iat)
    .setExpirationTime(o.exp ?? iat + 3600)
    .sign(o.key ?? privateKey)
}

describe('verifyAccessToken', () => {
  it("verifies the server's access token: user, app, session, times in seconds", async () => {
    const t = await verifyAccessToken(access, opts())
    expect(t.userId).toBe(userId)
    expect(t.appId).toBe(XPD)
    expect(t.sessionId).toMatch(/\S/)
    expect(t.issuer).toBe('portico')
    expect(t.expiresAt - t.issuedAt).toBe(3600)
  })

  it('refuses a token of another app (audience)', async () => {
    await refused(verifyAccessToken(access, { ...opts(), appId: DEMO }), 'invalid_audience')
  })

  it('refuses a token from another issuer', async () => {
    await refused(verifyAccessToken(access, { ...opts(), issuer: 'someone-else' }), 'invalid_issuer')
  })

  it('refuses an expired token, and accepts it within an explicit clock tolerance only', async () => {
    // The server's token, an hour and ten seconds later (the clock moved, not the token).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 3610 * 1000)
    await refused(verifyAccessToken(access, opts()), 'token_expired')
    expect((await verifyAccessToken(access, { ...opts(), clockToleranceS: 60 })).userId).toBe(userId)
  })

  it("refuses `alg: none` (an unsigned token with the server's claims)", async () => {
    const none = new UnsecuredJWT({ sid: 'x' }).setSubject(userId).setAudience(XPD).setIssuer('portico').setIssuedAt().setExpirationTime('1h').encode()
    await refused(verifyAccessToken(none, opts()), 'invalid_signature')
  })

  it("refuses HS256 signed with the server's public key (algorithm confusion)", async () => {
    const jwks = (await (await fetch(`${s.url}/api/v1/apps/${XPD}/jwks.json`)).json()) as { keys: JWK[] }
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]))
    const iat = Math.floor(Date.now() / 1000)
    const hs = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'HS256', kid: jwks.keys[0].kid })
      .setSubject(userId)
      .setAudience(XPD)
      .setIssuer('portico')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(secret)
    await refused(verifyAccessToken(hs, opts()), 'invalid_signature')
  })

  it("refuses a token signed by a foreign key under the server's key id, and under an unknown key id", async () => {
    await refused(verifyAccessToken(await forge({ sid: 'x' }), opts()), 'invalid_signature')
    await refused(verifyAccessToken(await forge({ sid: 'x' }, { kid: 'not-a-key-of-the-server' }), opts()), 'invalid_signature')
  })

  it('refuses what is not a JWT, and an identity token where an access token is expected', async () => {
    await refused(verifyAccessToken('not a token', opts()), 'invalid_token')
    await refused(verifyAccessToken(identity, opts()), 'invalid_token')
  })

  it('fetches the key set once, not per request; again only when a token names a new key id', async () => {
    const fresh: typeof fetch = (i, init) => countingFetch(i, init)
    const o = { appId: XPD, apiUrl: s.url, fetch: fresh }
    const before = jwksFetches
    for (let i = 0; i < 20; i++) await verifyAccessToken(access, o)
    expect(jwksFetches - before).toBe(1)
    // Within 30 s of a fetch, an unknown key id fetches nothing (a flood of forged ids cannot
    // make us hammer the server); after that, it refetches once (a rotation), then the
    // cool-down holds again.
    await refused(verifyAccessToken(await forge({ sid: 'x' }, { kid: 'rotated-0' }), o), 'invalid_signature')
    expect(jwksFetches - before).toBe(1)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 31_000)
    await refused(verifyAccessToken(await forge({ sid: 'x' }, { kid: 'rotated-1' }), o), 'invalid_signature')
    await refused(verifyAccessToken(await forge({ sid: 'x' }, { kid: 'rotated-2' }), o), 'invalid_signature')
    expect(jwksFetches - before).toBe(2)
    await verifyAccessToken(access, o)
    expect(jwksFetches - before).toBe(2)
  })

  it('says the key set is unavailable when the server cannot be reached', async () => {
    await refused(verifyAccessToken(access, { appId: XPD, apiUrl: 'http://127.0.0.1:9' }), 'jwks_unavailable')
  })

  it('verifies with a key set given by the host (pinned keys), without any request', async () => {
    const jwks = (await (await fetch(`${s.url}/api/v1/apps/${XPD}/jwks.json`)).json()) as { keys: JWK[] }
    const { createLocalJWKSet } = await import('jose')
    const t = await verifyAccessToken(access, { appId: XPD, apiUrl: 'http://127.0.0.1:9', keys: createLocalJWKSet({ keys: jwks.keys }) })
    expect(t.userId).toBe(userId)
    const { publicKey } = await generateKeyPair('ES256')
    const other = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: jwks.keys[0].kid, alg: 'ES256' }] })
    await refused(verifyAccessToken(access, { appId: XPD, apiUrl: 'http://127.0.0.1:9', keys: other }), 'invalid_signature')
  })
})

describe('verifyIdentityToken', () => {
  it("returns the user's linked accounts, guest flag and creation time", async () => {
    const u = await verifyIdentityToken(identity, opts())
    expect(u.userId).toBe(userId)
    expect(u.isGuest).toBe(false)
    expect(u.createdAt).toBeGreaterThan(1_700_000_000)
    expect(u.linkedAccounts).toEqual([expect.objectContaining({ type: 'email', address: email })])
  })

  it('refuses an access token where an identity token is expected, and a token of another app', async () => {
    await refused(verifyIdentityToken(access, opts()), 'invalid_token')
    await refused(verifyIdentityToken(identity, { ...opts(), appId: DEMO }), 'invalid_audience')
  })
})

describe('getUser', () => {
  it("returns the user record with the app's id and secret", async () => {
    const u = await getUser(userId, { appId: XPD, appSecret: XPD_SECRET, apiUrl: s.url })
    expect(u.id).toBe(userId)
    expect(u.linked_accounts).toEqual([expect.objectContaining({ type: 'email', address: email })])
  })

  it('refuses a wrong secret, and an app without a secret', async () => {
    await refused(getUser(userId, { appId: XPD, appSecret: 'wrong', apiUrl: s.url }), 'invalid_credentials')
    await refused(getUser(userId, { appId: DEMO, appSecret: 'anything', apiUrl: s.url }), 'invalid_credentials')
  })

  it("says user_not_found for an unknown id and for another app's user", async () => {
    await refused(getUser('did:portico:nobody', { appId: XPD, appSecret: XPD_SECRET, apiUrl: s.url }), 'user_not_found')
    const demoUser = (await s.emailLogin(uniqueEmail(), { appId: DEMO })).body.user.id
    await refused(getUser(demoUser, { appId: XPD, appSecret: XPD_SECRET, apiUrl: s.url }), 'user_not_found')
  })

  it('the route refuses a browser (an Origin header) and a bearer token', async () => {
    const basic = Buffer.from(`${XPD}:${XPD_SECRET}`).toString('base64')
    const fromBrowser = await s.call(`/api/v1/users/${userId}`, { appId: XPD, headers: { authorization: `Basic ${basic}`, origin: 'http://localhost:5173' } })
    expect(fromBrowser.status).toBe(403)
    const bearer = await s.call(`/api/v1/users/${userId}`, { appId: XPD, token: access })
    expect(bearer.status).toBe(401)
  })
})
