/**
 * Cloud-backup recovery routes (issue 14; spec part 2 sections 5 and 7) over HTTP against the
 * cloud-drive stand-in (examples/stand-ins/cloud-drive), both on loopback ports: init →
 * Google's consent → the server's callback → authenticate (PKCE checked) → the drive token
 * works on Drive v3 appDataFolder; the iCloud sign-in; the spec's texts for bad input; no 5xx.
 */
import { createHash, randomBytes } from 'node:crypto'
import { serve } from '@hono/node-server'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCloudDrive } from '../../stand-ins/cloud-drive/server'
import type { Store } from '../src/core/store'
import { freePort, ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'
import { testDevice } from './device-client'

let store: Store
let s: TestServer
let drive: ReturnType<typeof createCloudDrive>
let driveUrl: string
let closeDrive: () => Promise<void>
const APP_PAGE = `${ORIGIN}/?portico_recovery_popup=1`
const FRAME = 'http://127.0.0.1:48791'

beforeAll(async () => {
  store = await openTestStore()
  const port = await freePort()
  driveUrl = `http://127.0.0.1:${port}`
  drive = createCloudDrive({ origin: driveUrl, cloudkit: { container: 'iCloud.dev.portico.recovery', apiToken: 'local-stand-in-cloudkit-api-token', signInCallback: `${ORIGIN}/?portico_recovery_popup=icloud` } })
  const server = serve({ fetch: drive.app.fetch, port, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closeDrive = () => new Promise<void>((r) => server.close(() => r()))
  process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveUrl
  process.env.PORTICO_OAUTH_TIMEOUT_MS = '2000'
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: 'test-recovery-key-kept-outside-the-database-0021' } })
})
afterAll(async () => {
  await s?.close()
  await closeDrive?.()
  await store?.close()
})
afterEach(() => {
  drive.control.tokenStatus = null
  drive.control.dataStatus = null
  process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveUrl
})

const newVerifier = () => randomBytes(36).toString('base64url')
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url')
const newState = () => randomBytes(24).toString('base64url')

async function login(): Promise<string> {
  const r = await s.emailLogin(uniqueEmail('rcv'))
  expect(r.status).toBe(200)
  return r.body.token as string
}

async function init(token: string, o: { verifier?: string; state?: string; redirectTo?: string } = {}) {
  const verifier = o.verifier ?? newVerifier()
  const state = o.state ?? newState()
  const r = await s.call('/api/v1/recovery/oauth/init', {
    token,
    body: { redirect_to: o.redirectTo ?? APP_PAGE, code_challenge: challengeOf(verifier), state_code: state },
  })
  return { r, verifier, state }
}

/** The browser's part: the consent form, the server's callback; returns the app page it lands on. */
async function consent(url: string, decision: 'allow' | 'deny' = 'allow', user = 'alice'): Promise<URL> {
  const u = new URL(url)
  const page = await fetch(u)
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('Local stand-in')
  const form = new URLSearchParams(u.searchParams)
  form.set('login_hint', user)
  form.set('decision', decision)
  const res = await fetch(u.origin + u.pathname, { method: 'POST', body: form, redirect: 'manual' })
  expect(res.status).toBe(302)
  const cb = await fetch(res.headers.get('location')!, { redirect: 'manual' })
  expect(cb.status).toBe(303)
  return new URL(cb.headers.get('location')!)
}

const authenticate = (token: string, body: Record<string, unknown>) => s.call('/api/v1/recovery/oauth/authenticate', { token, body })

describe('Google Drive: init → consent → callback → authenticate', () => {
  it('issues the Google URL with the Drive appDataFolder scope, S256 challenge, state and our callback', async () => {
    const token = await login()
    const { r, verifier, state } = await init(token)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const url = new URL(r.body.url)
    expect(url.origin + url.pathname).toBe(`${driveUrl}/google/o/oauth2/v2/auth`)
    expect(url.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/drive.appdata')
    expect(url.searchParams.get('code_challenge')).toBe(challengeOf(verifier))
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('state')).toBe(state)
    expect(url.searchParams.get('redirect_uri')).toBe(`${s.url}/api/v1/recovery/oauth/callback`)
    expect(url.searchParams.get('client_secret')).toBeNull()
  })

  it('returns a drive token that writes and reads the appDataFolder (Drive v3)', async () => {
    const token = await login()
    const { r, verifier, state } = await init(token)
    const back = await consent(r.body.url)
    expect(back.origin).toBe(ORIGIN)
    expect(back.searchParams.get('privy_oauth_state')).toBe(state)
    expect(back.searchParams.get('privy_oauth_provider')).toBe('google-drive')
    const code = back.searchParams.get('privy_oauth_code')!
    expect(code).toBeTruthy()
    const a = await authenticate(token, { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    expect(typeof a.body.access_token).toBe('string')
    // The token is Drive's: a multipart upload into appDataFolder, a list by name, a read.
    const boundary = 'portico-boundary'
    const body = `--${boundary}\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify({ name: 'x.json', parents: ['appDataFolder'] })}\r\n--${boundary}\r\ncontent-type: application/json\r\n\r\n{"v":1}\r\n--${boundary}--`
    const up = await fetch(`${driveUrl}/google/upload/drive/v3/files?uploadType=multipart`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.body.access_token}`, 'content-type': `multipart/related; boundary=${boundary}` },
      body,
    })
    expect(up.status).toBe(200)
    const list = await (await fetch(`${driveUrl}/google/drive/v3/files?spaces=appDataFolder&q=${encodeURIComponent("name = 'x.json'")}`, { headers: { authorization: `Bearer ${a.body.access_token}` } })).json()
    expect(list.files).toHaveLength(1)
    const media = await fetch(`${driveUrl}/google/drive/v3/files/${list.files[0].id}?alt=media`, { headers: { authorization: `Bearer ${a.body.access_token}` } })
    expect(await media.text()).toBe('{"v":1}')
    // The state is single use.
    const again = await authenticate(token, { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('Invalid or expired OAuth state.')
  })

  it('checks PKCE: a wrong verifier is refused and burns the state', async () => {
    const token = await login()
    const { r, verifier, state } = await init(token)
    const code = (await consent(r.body.url)).searchParams.get('privy_oauth_code')!
    const bad = await authenticate(token, { authorization_code: code, state_code: state, code_verifier: newVerifier(), provider: 'google-drive' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'oauth_unexpected', error: 'Authentication error.' })
    const good = await authenticate(token, { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(good.status).toBe(400)
    expect(good.body.error).toBe('Invalid or expired OAuth state.')
  })

  it("binds the state to the user: another user's token cannot use it", async () => {
    const [mine, theirs] = [await login(), await login()]
    const { r, verifier, state } = await init(mine)
    const code = (await consent(r.body.url)).searchParams.get('privy_oauth_code')!
    const x = await authenticate(theirs, { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(x.status).toBe(400)
    expect(x.body.error).toBe('Invalid or expired OAuth state.')
  })

  it("a denied consent lands with privy_oauth_error, and 'undefined' as the code means denied", async () => {
    const token = await login()
    const { r, verifier, state } = await init(token)
    const back = await consent(r.body.url, 'deny')
    expect(back.searchParams.get('privy_oauth_error')).toBe('oauth_user_denied')
    expect(back.searchParams.get('privy_oauth_code')).toBeNull()
    const d = await authenticate(token, { authorization_code: 'undefined', state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(d.status).toBe(403)
    expect(d.body).toMatchObject({ code: 'oauth_user_denied', error: 'User denied confirmation during OAuth flow' })
  })

  it('a code the provider refuses gives the spec text', async () => {
    const token = await login()
    const { r, verifier, state } = await init(token)
    await consent(r.body.url)
    const x = await authenticate(token, { authorization_code: '4/forged', state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(x.status).toBe(400)
    expect(x.body.error).toBe('Invalid code during OAuth flow.')
  })

  it('a failing provider gives 424, never 5xx', async () => {
    const token = await login()
    const { r, verifier, state } = await init(token)
    const code = (await consent(r.body.url)).searchParams.get('privy_oauth_code')!
    drive.control.tokenStatus = 503
    const x = await authenticate(token, { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' })
    expect(x.status).toBe(424)
  })
})

describe('bad input → the spec texts, no 5xx, nothing written', () => {
  it('authenticate needs both codes', async () => {
    const token = await login()
    for (const body of [
      { provider: 'google-drive' },
      { authorization_code: 'x', provider: 'google-drive' },
      { state_code: newState(), provider: 'google-drive' },
      { authorization_code: '', state_code: '', provider: 'icloud' },
    ]) {
      const r = await authenticate(token, body)
      expect(r.status).toBe(400)
      expect(r.body.error).toBe('Authorization and state codes code must be set prior to calling authenicate.')
    }
  })

  it('needs an access token', async () => {
    for (const path of ['/api/v1/recovery/oauth/init', '/api/v1/recovery/oauth/authenticate', '/api/v1/recovery/oauth/init_icloud', '/api/v1/recovery/cloud_key']) {
      const r = await s.call(path, { body: {} })
      expect(r.status, path).toBe(r.status === 422 ? 422 : 401)
      expect(r.status).toBeLessThan(500)
    }
    const r = await s.call('/api/v1/recovery/oauth/init', { body: { redirect_to: APP_PAGE, code_challenge: challengeOf(newVerifier()), state_code: newState() } })
    expect(r.status).toBe(401)
  })

  it('refuses a bad challenge, state, redirect or provider', async () => {
    const token = await login()
    const count = async () => Number((await store.query<{ n: string }>('SELECT count(*) AS n FROM recovery_oauth_states'))[0].n)
    const before = await count()
    const cases: [Record<string, unknown>, number][] = [
      [{ redirect_to: APP_PAGE, code_challenge: 'short', state_code: newState() }, 422],
      [{ redirect_to: APP_PAGE, code_challenge: challengeOf('x'.repeat(43)), state_code: 'bad state!' }, 422],
      [{ redirect_to: 'https://evil.example/', code_challenge: challengeOf('x'.repeat(43)), state_code: newState() }, 400],
      [{ redirect_to: 'not a url', code_challenge: challengeOf('x'.repeat(43)), state_code: newState() }, 422],
    ]
    for (const [body, status] of cases) {
      const r = await s.call('/api/v1/recovery/oauth/init', { token, body })
      expect(r.status, JSON.stringify(r.body)).toBe(status)
    }
    expect(await count()).toBe(before)
    const p = await authenticate(token, { authorization_code: 'x', state_code: newState(), code_verifier: newVerifier(), provider: 'dropbox' })
    expect(p.status).toBe(422)
    const icloud = await s.call('/api/v1/recovery/oauth/init_icloud', { token, body: { client_type: 'ios' } })
    expect(icloud.status).toBe(422)
  })

  it("says 'Recovery method not supported' when no drive is configured", async () => {
    const token = await login()
    delete process.env.PORTICO_CLOUD_DRIVE_BASE_URL
    const r = await init(token)
    expect(r.r.status).toBe(400)
    expect(r.r.body).toMatchObject({ code: 'method_not_supported', error: 'Recovery method not supported' })
    const i = await s.call('/api/v1/recovery/oauth/init_icloud', { token, body: { client_type: 'web' } })
    expect(i.body.error).toBe('Recovery method not supported')
  })

  it('the callback refuses an unknown state with a page, not a redirect', async () => {
    const r = await fetch(`${s.url}/api/v1/recovery/oauth/callback?state=${newState()}&code=x`, { redirect: 'manual' })
    expect(r.status).toBe(400)
    const j = await fetch(`${s.url}/api/v1/recovery/oauth/callback?state=<script>`, { redirect: 'manual' })
    expect(j.status).toBe(400)
  })
})

describe('iCloud (CloudKit web services)', () => {
  it('init_icloud returns the sign-in URL; the web auth token authenticates', async () => {
    const token = await login()
    const r = await s.call('/api/v1/recovery/oauth/init_icloud', { token, body: { client_type: 'web' } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const url = new URL(r.body.url)
    expect(url.origin + url.pathname).toBe(`${driveUrl}/icloud/signin`)
    expect(r.body.url).not.toContain('local-stand-in-cloudkit-api-token')
    const form = new URLSearchParams({ container: url.searchParams.get('container')!, login_hint: 'alice', decision: 'allow' })
    const res = await fetch(url.origin + url.pathname, { method: 'POST', body: form, redirect: 'manual' })
    const back = new URL(res.headers.get('location')!)
    expect(back.origin).toBe(ORIGIN)
    const ck = back.searchParams.get('ckWebAuthToken')!
    const a = await authenticate(token, { authorization_code: ck, state_code: newState(), code_verifier: newVerifier(), provider: 'icloud' })
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    expect(a.body.access_token).toBe(ck)
    const bad = await authenticate(token, { authorization_code: 'ck_forged', state_code: newState(), code_verifier: newVerifier(), provider: 'icloud' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('Invalid code during OAuth flow.')
  })
})

describe('cloud key', () => {
  it("is per user and per wallet, stable, for a wallet frame's device only (a proof, not an Origin), and needs a token", async () => {
    const [a, b] = [await login(), await login()]
    const device = testDevice(s)
    const k = (t: string, e: string) => device.call('/api/v1/recovery/cloud_key', t, { entropy_id: e })
    const a1 = await k(a, 'entropy-1')
    expect(a1.status).toBe(200)
    expect(a1.body.key).toMatch(/^[0-9a-f]{64}$/)
    // The frame learns where the drive is (the stand-in here).
    expect(a1.body.endpoints.google).toEqual({ files: `${driveUrl}/google/drive/v3/files`, upload: `${driveUrl}/google/upload/drive/v3/files` })
    expect(a1.body.endpoints.icloud).toMatchObject({ base: `${driveUrl}/icloud`, container: 'iCloud.dev.portico.recovery' })
    // Without the device's proof, whatever the Origin (the frame's forged too), nothing.
    for (const headers of [{ origin: ORIGIN }, { origin: FRAME }, {}] as Record<string, string>[]) {
      const x = await s.call('/api/v1/recovery/cloud_key', { token: a, body: { entropy_id: 'entropy-1' }, headers })
      expect(x.status).toBe(403)
      expect(x.body.code).toBe('device_proof_required')
      expect(x.body.key).toBeUndefined()
    }
    expect((await k(a, 'entropy-1')).body.key).toBe(a1.body.key)
    expect((await k(a, 'entropy-2')).body.key).not.toBe(a1.body.key)
    expect((await k(b, 'entropy-1')).body.key).not.toBe(a1.body.key)
    expect((await s.call('/api/v1/recovery/cloud_key', { body: { entropy_id: 'entropy-1' }, headers: { origin: FRAME } })).status).toBe(401)
  })
})


describe('the Drive token passes through the server: never logged, never stored', () => {
  it('an exchange (and a failed one) at trace level writes neither the drive token nor the code to the log or the database', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'trace' }, { write: (l: string) => void lines.push(l) })
    const traced = await startTestServer(store, { logger, wallets: { frameOrigin: FRAME, recoveryKey: 'test-recovery-key-kept-outside-the-database-0021' } })
    try {
      const r0 = await traced.emailLogin(uniqueEmail('rcv'))
      const token = r0.body.token as string
      const verifier = newVerifier()
      const state = newState()
      const r = await traced.call('/api/v1/recovery/oauth/init', { token, body: { redirect_to: APP_PAGE, code_challenge: challengeOf(verifier), state_code: state } })
      expect(r.status).toBe(200)
      const code = (await consent(r.body.url)).searchParams.get('privy_oauth_code')!
      const a = await traced.call('/api/v1/recovery/oauth/authenticate', { token, body: { authorization_code: code, state_code: state, code_verifier: verifier, provider: 'google-drive' } })
      expect(a.status).toBe(200)
      const driveToken = a.body.access_token as string
      expect(driveToken.length).toBeGreaterThan(10)
      // A failing provider takes the error path (the one that logs).
      const v2 = newVerifier()
      const s2 = newState()
      const r2 = await traced.call('/api/v1/recovery/oauth/init', { token, body: { redirect_to: APP_PAGE, code_challenge: challengeOf(v2), state_code: s2 } })
      const code2 = (await consent(r2.body.url)).searchParams.get('privy_oauth_code')!
      drive.control.tokenStatus = 503
      const failed = await traced.call('/api/v1/recovery/oauth/authenticate', { token, body: { authorization_code: code2, state_code: s2, code_verifier: v2, provider: 'google-drive' } })
      expect(failed.status).toBe(424)
      const logged = lines.join('\n')
      expect(lines.length).toBeGreaterThan(0)
      for (const secret of [driveToken, code, code2, verifier, v2]) expect(logged).not.toContain(secret)
      // Nothing in any table holds them (the state is kept as a hash).
      const tables = await store.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
      for (const t of tables) {
        const dump = JSON.stringify(await store.query(`SELECT * FROM "${t.table_name}"`))
        for (const secret of [driveToken, code, code2, verifier, state]) expect(dump, t.table_name).not.toContain(secret)
      }
    } finally {
      await traced.close()
    }
  })
})
