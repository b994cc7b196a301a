/**
 * New device = recovery with step-up (issue 26): the frame's handlers (wallets:step-up-start,
 * wallets:step-up-verify, wallets:revoke-device, wallets:recover) run in Node against a real
 * server and database, each "browser" with its own frame store (device key, device shares).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as OTPAuth from 'otpauth'
import { createApi, FrameFailure, type FrameContext } from '../frame/context'
import { deviceKey } from '../frame/device-key'
import { handlerFor } from '../frame/handlers/index'
import { clearSession } from '../frame/session'
import { memoryStore, useFrameStore, type FrameStore } from '../frame/storage'
import { maskAddress } from '../src/features/wallet-step-up/service'
import type { Store } from '../src/core/store'
import { DEMO, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'
import { testDevice } from './device-client'

const FRAME = 'http://127.0.0.1:48792'
let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: 'step-up-test-recovery-key-000000000000000026' } })
}, 120_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})
beforeEach(() => clearSession())

/** One browser's wallet frame: its own store and API client. */
function browser() {
  const fs: FrameStore = memoryStore()
  const config = { appId: DEMO, apiUrl: s.url, allowedOrigins: [] }
  const ctx: FrameContext = { config, origin: 'http://localhost:5173', api: createApi(config, { store: fs }) }
  return {
    store: fs,
    run: async <T = any>(type: string, payload: Record<string, unknown>): Promise<T> => {
      useFrameStore(fs)
      clearSession()
      return handlerFor(type)!(payload as never, ctx)
    },
  }
}

const failure = async (p: Promise<unknown>): Promise<FrameFailure> => {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(FrameFailure)
    return e as FrameFailure
  }
  throw new Error('expected the frame call to fail')
}

async function login(email: string): Promise<string> {
  const r = await s.emailLogin(email)
  expect(r.status).toBe(200)
  return r.body.token as string
}

/** A user with a privy wallet made on a first browser; a second login (a new session) on a second browser. */
async function twoBrowsers(prefix = 'stepup') {
  const email = uniqueEmail(prefix)
  const t1 = await login(email)
  const first = browser()
  const w = await first.run('wallets:create', { accessToken: t1, chainTypes: ['ethereum'] })
  const t2 = await login(email)
  const second = browser()
  const ref = { entropyId: w.entropyId as string, entropyIdVerifier: w.entropyIdVerifier as string }
  return { email, t1, t2, first, second, ref }
}

const notices = async (to: string) => (await s.call(`/dev/outbox?to=${encodeURIComponent(to)}&kind=notice`, { appId: null })).body as { code: string }[]

describe('step-up on a new device', () => {
  it('masks the address the code went to', () => {
    expect(maskAddress('email', 'alice@example.com')).toBe('a•••@example.com')
    expect(maskAddress('sms', '+14155550123')).toBe('+1••••••0123')
  })

  it('a second browser recovers the privy wallet only with the e-mailed code; then it signs, is listed, and the user is told', async () => {
    const { email, t2, second, ref } = await twoBrowsers()
    // Without the step-up, the new device gets no recovery share.
    const refused = await failure(second.run('wallets:recover', { accessToken: t2, ...ref, recoveryMethod: 'privy' }))
    expect(refused.type).toBe('device_step_up_required')
    expect(refused.message).toBe('Confirm it’s you to use your wallet on this device.')

    const start = await second.run('wallets:step-up-start', { accessToken: t2, ...ref })
    expect(start).toEqual({ method: 'email', to: `${email[0]}•••@${email.split('@')[1]}` })
    expect(JSON.stringify(start)).not.toMatch(/\d{6}/)
    const code = await s.code(email)
    expect(code).toMatch(/^\d{6}$/)
    expect(await second.run('wallets:step-up-verify', { accessToken: t2, ...ref, code })).toEqual({ verified: true })

    expect(await second.run('wallets:recover', { accessToken: t2, ...ref, recoveryMethod: 'privy' })).toMatchObject({ recovered: true })
    const sig = await second.run('wallets:rpc', { accessToken: t2, ...ref, chainType: 'ethereum', hdWalletIndex: 0, request: { method: 'personal_sign', params: ['0x68656c6c6f', ref.entropyId] } })
    expect(sig.data).toMatch(/^0x[0-9a-f]{130}$/)

    const list = await s.call('/api/v1/wallets/devices', { token: t2, method: 'GET' })
    expect(list.status).toBe(200)
    expect(list.body.devices).toHaveLength(2)
    expect(list.body.devices.filter((d: { current: boolean }) => d.current)).toHaveLength(1)
    const mine = list.body.devices.find((d: { current: boolean }) => d.current)
    expect(mine).toMatchObject({ id: (await deviceKey(DEMO, second.store)).id, session_only: false })
    const n = await notices(email)
    expect(n.length).toBe(1)
    expect(n[0].code).toMatch(/^A new device was added to your wallet/)
    // The outbox's default listing stays codes only: a code reader still reads the newest code.
    expect(await s.code(email)).toBe(code)
  })

  it('five wrong codes void the code (clear text); a new code works', async () => {
    const { email, t2, second, ref } = await twoBrowsers('void')
    await second.run('wallets:step-up-start', { accessToken: t2, ...ref })
    const good = await s.code(email)
    const wrong = good === '000000' ? '111111' : '000000'
    for (let i = 0; i < 4; i++) {
      const f = await failure(second.run('wallets:step-up-verify', { accessToken: t2, ...ref, code: wrong }))
      expect(f.message).toBe('Invalid code. Please try again.')
    }
    const fifth = await failure(second.run('wallets:step-up-verify', { accessToken: t2, ...ref, code: wrong }))
    expect(fifth.message).toBe('Too many wrong codes: this code no longer works. Request a new code.')
    const after = await failure(second.run('wallets:step-up-verify', { accessToken: t2, ...ref, code: good }))
    expect(after.message).toBe('This code has expired. Request a new code.')
    expect((await failure(second.run('wallets:recover', { accessToken: t2, ...ref, recoveryMethod: 'privy' }))).type).toBe('device_step_up_required')
    // A new code (after the resend cooldown, which the test server's limits allow at once or refuse clearly).
    await store.query(`UPDATE otp_codes SET created_at = created_at - 3600 WHERE identifier LIKE 'wallet-step-up:%'`)
    await second.run('wallets:step-up-start', { accessToken: t2, ...ref })
    const fresh = await s.code(email)
    expect(await second.run('wallets:step-up-verify', { accessToken: t2, ...ref, code: fresh })).toEqual({ verified: true })
  })

  it('an MFA user steps up with a fresh MFA verification, not a code', async () => {
    const { email, t1, t2, second, ref } = await twoBrowsers('mfa')
    const init = await s.call('/api/v1/mfa/totp/init', { token: t1, body: {} })
    const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(init.body.secret), digits: 6, period: 30, algorithm: 'SHA1' })
    expect((await s.call('/api/v1/mfa/totp/enroll', { token: t1, body: { code: gen.generate() } })).status).toBe(200)
    const before = (await s.call(`/dev/outbox?to=${encodeURIComponent(email)}`, { appId: null })).body.length
    expect(await second.run('wallets:step-up-start', { accessToken: t2, ...ref })).toEqual({ method: 'mfa' })
    expect((await s.call(`/dev/outbox?to=${encodeURIComponent(email)}`, { appId: null })).body.length).toBe(before)
    const stale = await failure(second.run('wallets:step-up-verify', { accessToken: t2, ...ref }))
    expect(stale.type).toBe('missing_or_invalid_mfa')
    // The next time step (the enrolment used this one).
    const v = await s.call('/api/v1/mfa/totp/verify', { token: t2, body: { code: gen.generate({ timestamp: Date.now() + 30_000 }) } })
    expect(v.status, JSON.stringify(v.body)).toBe(200)
    expect(await second.run('wallets:step-up-verify', { accessToken: t2, ...ref })).toEqual({ verified: true })
  })

  it('a user with no e-mail, phone or MFA (a guest) gets step_up_unavailable with its text', async () => {
    const cred = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
    const g = await s.call('/api/v1/guest/authenticate', { body: { guest_credential: cred } })
    expect(g.status).toBe(200)
    const token = g.body.token as string
    const first = browser()
    const w = await first.run('wallets:create', { accessToken: token, chainTypes: ['ethereum'] })
    // The same guest on another browser (its credential copied): a new session and device.
    const g2 = await s.call('/api/v1/guest/authenticate', { body: { guest_credential: cred } })
    const f = await failure(browser().run('wallets:step-up-start', { accessToken: g2.body.token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier }))
    expect(f.type).toBe('step_up_unavailable')
    expect(f.message).toBe('This wallet cannot be restored on a new device: add an e-mail address, a phone number or MFA to your account first.')
  })
})

describe('wallet devices', () => {
  it('the first device removes the second; the second gets "This device was removed from your wallet." from then on', async () => {
    const { email, t1, t2, first, second, ref } = await twoBrowsers('revoke')
    await second.run('wallets:step-up-start', { accessToken: t2, ...ref })
    await second.run('wallets:step-up-verify', { accessToken: t2, ...ref, code: await s.code(email) })
    await second.run('wallets:recover', { accessToken: t2, ...ref, recoveryMethod: 'privy' })
    const list = (await s.call('/api/v1/wallets/devices', { token: t1, method: 'GET' })).body.devices as { id: string; current: boolean }[]
    expect(list).toHaveLength(2)
    const other = list.find((d) => !d.current)!
    const after = await first.run('wallets:revoke-device', { accessToken: t1, deviceId: other.id })
    expect(after.devices).toHaveLength(1)
    // The frame runs in Node here without IndexedDB: its memory store makes the creating device session-only.
    expect(after.devices[0]).toMatchObject({ current: true, sessionOnly: true })
    const f = await failure(second.run('wallets:connect', { accessToken: t2, ...ref }))
    expect(f.type).toBe('device_revoked')
    expect(f.message).toBe('This device was removed from your wallet.')
    // Nor may it step up again with its removed key.
    expect((await failure(second.run('wallets:step-up-start', { accessToken: t2, ...ref }))).type).toBe('device_revoked')
  })

  it('the list needs a token; removing needs a proof by a registered device', async () => {
    const { t2, ref } = await twoBrowsers('revoke-proof')
    expect((await s.call('/api/v1/wallets/devices', { method: 'GET' })).status).toBe(401)
    const list = (await s.call('/api/v1/wallets/devices', { token: t2, method: 'GET' })).body.devices as { id: string }[]
    expect(list).toHaveLength(1)
    // No proof at all.
    const bare = await s.call('/api/v1/wallets/devices/revoke', { token: t2, body: { device_id: list[0].id } })
    expect(bare.status).toBe(403)
    expect(bare.body.code).toBe('device_proof_required')
    // A proof by an unregistered device (the second browser, no step-up).
    const stranger = testDevice(s)
    const r = await stranger.call('/api/v1/wallets/devices/revoke', t2, { device_id: list[0].id })
    expect(r.status).toBe(403)
    expect(r.body.code).toBe('device_step_up_required')
    expect((await s.call('/api/v1/wallets/devices', { token: t2, method: 'GET' })).body.devices).toHaveLength(1)
    expect(ref.entropyId).toBeTruthy()
  })
})
