/**
 * MFA over HTTP (issue 16): TOTP (otpauth on the test's side too), SMS through the dev outbox,
 * passkeys with the software authenticator; replay refused, attempts counted on the server
 * under parallel requests, method changes need a fresh verification, and the gate.
 */
import { decodeJwt } from 'jose'
import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../src/core/store'
import type { ServerCtx } from '../src/core/context'
import { requireFreshMfa } from '../src/features/mfa/gate'
import { MFA_MAX_ATTEMPTS } from '../src/features/mfa/service'
import { MFA_MSG } from '../src/features/mfa/errors'
import { ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'
import { testDevice } from './device-client'
import { SoftAuthenticator } from './soft-authenticator'
import { HdRoot, generateEntropy } from '../frame/keys'
import { shareToString, splitEntropy } from '../frame/shares'

const MFA = 'portico-test-mfa-00000001'
const FRAME = 'http://127.0.0.1:48788'
const TOTP_ONLY = 'portico-test-mfa-totponly'

let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: 'test-recovery-key-kept-outside-the-database-0001' } })
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const call = (path: string, body: unknown, token: string, appId = MFA) => s.call(`/api/v1${path}`, { body, token, appId })

async function login(email = uniqueEmail('mfa'), appId = MFA) {
  const r = await s.emailLogin(email, { appId })
  expect(r.status).toBe(200)
  const token = r.body.token as string
  return { email, token, userId: r.body.user.id as string, sessionId: decodeJwt(token).sid as string }
}

const totp = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' })

async function enrolTotp(token: string) {
  const init = await call('/mfa/totp/init', {}, token)
  expect(init.status).toBe(200)
  expect(init.body.auth_url).toMatch(/^otpauth:\/\/totp\//)
  const gen = totp(init.body.secret)
  const code = gen.generate()
  const r = await call('/mfa/totp/enroll', { code }, token)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return { secret: init.body.secret as string, gen, code, user: r.body.user }
}

describe('TOTP', () => {
  it('enrols with a code, lists the method, and keeps the secret sealed at rest', async () => {
    const u = await login()
    const { secret, user } = await enrolTotp(u.token)
    expect(user.mfa_methods).toEqual([{ type: 'totp', verified_at: expect.any(Number) }])
    const me = await s.call('/api/v1/users/me', { token: u.token, appId: MFA })
    expect(me.body.user?.mfa_methods ?? me.body.mfa_methods).toEqual([{ type: 'totp', verified_at: expect.any(Number) }])
    const [row] = await store.query<{ data: { secret: string } }>(`SELECT data FROM mfa_methods WHERE user_id = $1`, [u.userId])
    expect(JSON.stringify(row.data)).not.toContain(secret)
    expect(row.data.secret.split('.')).toHaveLength(5) // compact JWE
  })

  it('refuses a wrong code at enrolment and writes no method', async () => {
    const u = await login()
    const init = await call('/mfa/totp/init', {}, u.token)
    const good = totp(init.body.secret).generate()
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0')
    const r = await call('/mfa/totp/enroll', { code: wrong }, u.token)
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: 'missing_or_invalid_mfa', error: MFA_MSG.invalidCode })
    expect(await store.query('SELECT 1 FROM mfa_methods WHERE user_id = $1', [u.userId])).toHaveLength(0)
  })

  it('refuses a replayed code (the same time step twice), also an earlier step after a later one', async () => {
    const u = await login()
    const { gen, code } = await enrolTotp(u.token)
    // The enrolment used this step: the same code again is refused.
    const replay = await call('/mfa/totp/verify', { code }, u.token)
    expect(replay.status).toBe(403)
    expect(replay.body.code).toBe('missing_or_invalid_mfa')
    // … and says so: the code was right, it was used (issue 25), not 'not valid'.
    expect(replay.body).toMatchObject({ error: MFA_MSG.codeUsed, data: { reason: 'code_already_used' } })
    expect(MFA_MSG.codeUsed).toBe('This code has already been used. Wait for a new code.')
    // The next step (within the ±1 drift window) is accepted once …
    const next = gen.generate({ timestamp: Date.now() + 30_000 })
    expect((await call('/mfa/totp/verify', { code: next }, u.token)).status).toBe(200)
    // … and refused the second time.
    expect((await call('/mfa/totp/verify', { code: next }, u.token)).status).toBe(403)
  })

  it('counts attempts on the server: parallel wrong codes get at most 4 checks, then max attempts', async () => {
    const u = await login()
    const { gen } = await enrolTotp(u.token) // one attempt of the window
    const good = gen.generate({ timestamp: Date.now() + 30_000 })
    const wrong = String((Number(good) + 7) % 1_000_000).padStart(6, '0')
    const results = await Promise.all(Array.from({ length: 10 }, () => call('/mfa/totp/verify', { code: wrong }, u.token)))
    const checked = results.filter((r) => r.status === 403)
    const refused = results.filter((r) => r.status === 429)
    expect(checked.length).toBe(MFA_MAX_ATTEMPTS - 1)
    expect(refused.length).toBe(10 - (MFA_MAX_ATTEMPTS - 1))
    for (const r of refused) expect(r.body).toMatchObject({ code: 'mfa_verification_max_attempts_reached', error: MFA_MSG.maxAttempts })
    // Even the right code is refused inside the window.
    const right = await call('/mfa/totp/verify', { code: good }, u.token)
    expect(right.status).toBe(429)
  })

  it('an app without the method refuses it', async () => {
    const u = await login(uniqueEmail('mfa'), TOTP_ONLY)
    const r = await call('/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber: '+14155550101' }, u.token, TOTP_ONLY)
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('unsupported_mfa_method')
  })
})

describe('the gate and method changes', () => {
  it('gate: passes without methods; with one, refuses a session without a fresh verification and passes after it', async () => {
    const ctx = { store } as ServerCtx
    const a = await login()
    expect(await requireFreshMfa(ctx, a, 'auth_share')).toEqual({ mfaEnrolled: false })
    const { gen } = await enrolTotp(a.token)
    // Enrolling verified this session.
    expect(await requireFreshMfa(ctx, a, 'auth_share')).toEqual({ mfaEnrolled: true })
    // Another session of the same user: refused until it verifies.
    const b = await login(a.email)
    expect(b.userId).toBe(a.userId)
    await expect(requireFreshMfa(ctx, b, 'export')).rejects.toMatchObject({ status: 403, code: 'missing_or_invalid_mfa' })
    const v = await call('/mfa/totp/verify', { code: gen.generate({ timestamp: Date.now() + 30_000 }) }, b.token)
    expect(v.status).toBe(200)
    expect(await requireFreshMfa(ctx, b, 'export')).toEqual({ mfaEnrolled: true })
    // A verification older than the window no longer counts.
    await store.query('UPDATE mfa_verifications SET verified_at = verified_at - 301 WHERE session_id = $1', [b.sessionId])
    await expect(requireFreshMfa(ctx, b, 'auth_share')).rejects.toMatchObject({ code: 'missing_or_invalid_mfa' })
  })

  it('adding or removing a method needs a fresh verification when the user has one', async () => {
    const a = await login()
    const { gen } = await enrolTotp(a.token)
    const b = await login(a.email)
    const refused = await call('/mfa/totp/unenroll', {}, b.token)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'missing_or_invalid_mfa', error: MFA_MSG.verificationRequired })
    const add = await call('/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber: '+14155550123' }, b.token)
    expect(add.status).toBe(403)
    expect((await call('/mfa/totp/verify', { code: gen.generate({ timestamp: Date.now() + 30_000 }) }, b.token)).status).toBe(200)
    const ok = await call('/mfa/totp/unenroll', {}, b.token)
    expect(ok.status).toBe(200)
    expect(ok.body.user.mfa_methods).toEqual([])
  })
})

describe('SMS', () => {
  it('enrols a number with the code from the outbox and verifies with a new code', async () => {
    const u = await login()
    const phone = `+1415555${String(1000 + Math.floor(Math.random() * 8999))}`
    expect((await call('/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber: phone }, u.token)).status).toBe(200)
    const enrol = await call('/mfa/passwordless_sms/enroll', { phoneNumber: phone, code: await s.code(phone) }, u.token)
    expect(enrol.status, JSON.stringify(enrol.body)).toBe(200)
    expect(enrol.body.user.mfa_methods.map((m: { type: string }) => m.type)).toEqual(['sms'])
    // The number is not a login: an SMS login with it creates nobody and the user has no phone account.
    expect(enrol.body.user.linked_accounts.some((a: { type: string }) => a.type === 'phone')).toBe(false)
    expect((await call('/mfa/passwordless_sms/init', { action: 'verify' }, u.token)).status).toBe(200)
    const code = await s.code(phone)
    expect((await call('/mfa/passwordless_sms/verify', { code }, u.token)).status).toBe(200)
    // Single use.
    expect((await call('/mfa/passwordless_sms/verify', { code }, u.token)).status).toBe(403)
  })

  it('an MFA code does not log in by SMS', async () => {
    const u = await login()
    const phone = `+1415556${String(1000 + Math.floor(Math.random() * 8999))}`
    await call('/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber: phone }, u.token)
    const code = await s.code(phone)
    const r = await s.call('/api/v1/passwordless_sms/authenticate', { body: { phoneNumber: phone, code }, appId: MFA })
    expect(r.status).toBe(401)
  })

  it('is refused to a user who logs in with SMS', async () => {
    const phone = `+1415557${String(1000 + Math.floor(Math.random() * 8999))}`
    const r = await s.smsLogin(phone, { appId: MFA })
    expect(r.status).toBe(200)
    const init = await call('/mfa/passwordless_sms/init', { action: 'enroll', phoneNumber: '+14155550199' }, r.body.token as string)
    expect(init.status).toBe(400)
    expect(init.body.error).toBe(MFA_MSG.smsAuthUser)
  })
})

describe('passkeys', () => {
  it('enrols linked passkeys, verifies with one, and blocks unlinking it while enrolled', async () => {
    const u = await login()
    const a = new SoftAuthenticator()
    const init = await call('/passkeys/link/init', { relying_party: 'localhost' }, u.token)
    expect(init.status).toBe(200)
    const linked = await call('/passkeys/link', { relying_party: 'localhost', challenge: init.body.options.challenge, authenticator_response: a.create(init.body.options, { origin: ORIGIN }) }, u.token)
    expect(linked.status).toBe(200)
    const credId = a.credentials[0].id
    const enrol = await call('/mfa/passkeys/enroll', { credential_ids: [credId] }, u.token)
    expect(enrol.status, JSON.stringify(enrol.body)).toBe(200)
    expect(enrol.body.user.mfa_methods.map((m: { type: string }) => m.type)).toEqual(['passkey'])
    expect(enrol.body.user.linked_accounts.find((x: { type: string }) => x.type === 'passkey').enrolled_in_mfa).toBe(true)

    const opts = await call('/mfa/passkeys/init', {}, u.token)
    expect(opts.status).toBe(200)
    expect(opts.body.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([credId])
    const body = { challenge: opts.body.options.challenge, authenticator_response: a.get(opts.body.options, { origin: ORIGIN }) }
    expect((await call('/mfa/passkeys/verify', body, u.token)).status).toBe(200)
    // The challenge is single use.
    expect((await call('/mfa/passkeys/verify', body, u.token)).status).toBe(403)
    expect(await requireFreshMfa({ store } as ServerCtx, u, 'auth_share')).toEqual({ mfaEnrolled: true })

    const unlink = await call('/passkeys/unlink', { credential_id: credId }, u.token)
    expect(unlink.status).toBe(400)
    // Unenrolled (verified just now), it may go.
    expect((await call('/mfa/passkeys/unenroll', {}, u.token)).status).toBe(200)
    expect((await call('/passkeys/unlink', { credential_id: credId }, u.token)).status).toBe(200)
  })

  it('refuses credential ids that are not the user’s passkeys', async () => {
    const u = await login()
    const r = await call('/mfa/passkeys/enroll', { credential_ids: ['not-mine'] }, u.token)
    expect(r.status).toBe(400)
    expect(await store.query('SELECT 1 FROM mfa_methods WHERE user_id = $1', [u.userId])).toHaveLength(0)
  })
})

describe('the wallet routes behind the gate', () => {

  it('the auth share and the recovery share are refused without a fresh verification, released after it', async () => {
    const device = testDevice(s, MFA)
    const frameCall = (path: string, token: string, body: unknown) => device.call(`/api/v1${path}`, token, body)
    const a = await login()
    const entropy = generateEntropy()
    const root = await HdRoot.fromEntropy(entropy)
    const shares = await splitEntropy(entropy)
    const entropyId = root.ethereum(0).address
    const created = await frameCall('/wallets/create', a.token, {
      entropy_id: entropyId,
      entropy_id_verifier: 'ethereum-address-verifier',
      auth_share: shareToString(shares.auth),
      recovery_method: 'privy',
      recovery_share: shareToString(shares.recovery),
      wallets: [{ address: entropyId, chain_type: 'ethereum', wallet_index: 0 }],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    // No MFA: released, and the frame may keep it for the session.
    const before = await frameCall('/wallets/auth_share', a.token, { entropy_id: entropyId })
    expect(before.status).toBe(200)
    expect(before.body.mfa_enrolled).toBe(false)

    const { gen } = await enrolTotp(a.token)
    // This session verified by enrolling.
    const enrolled = await frameCall('/wallets/auth_share', a.token, { entropy_id: entropyId })
    expect(enrolled.status).toBe(200)
    expect(enrolled.body.mfa_enrolled).toBe(true)

    // Another session of the user: a client that skips the screen gets nothing.
    const b = await login(a.email)
    for (const [path, purpose] of [['/wallets/auth_share'], ['/wallets/auth_share', 'export'], ['/wallets/auth_share', 'delegation'], ['/wallets/recovery_share']]) {
      const refused = await frameCall(path, b.token, { entropy_id: entropyId, ...(purpose ? { purpose } : {}) })
      expect(refused.status, path).toBe(403)
      expect(refused.body).toMatchObject({ code: 'missing_or_invalid_mfa' })
      expect(JSON.stringify(refused.body)).not.toContain(shareToString(shares.auth))
    }
    expect((await call('/mfa/totp/verify', { code: gen.generate({ timestamp: Date.now() + 30_000 }) }, b.token)).status).toBe(200)
    const after = await frameCall('/wallets/auth_share', b.token, { entropy_id: entropyId })
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ share: shareToString(shares.auth), mfa_enrolled: true })
  })
})
