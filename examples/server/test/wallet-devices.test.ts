/**
 * Wallet devices (issue 26), the legitimate paths, with the real frame code in Node: a new
 * device recovers (privy after a step-up; user-passcode with the password, proving the opened
 * share) and registers, the user is told; a change of the shares is signed by the wallet and a
 * device that missed it still opens within the grace period.
 */
import { decodeJwt } from 'jose'
import { recoverMessageAddress, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handlerFor } from '../frame/handlers/index'
import { clearSession } from '../frame/session'
import type { Store } from '../src/core/store'
import { insertStepUpGrant } from '../src/features/wallets/custody'
import { testDevice, type TestDevice } from './device-client'
import { DEMO, memoryProviders, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'

const mail = memoryProviders()
let store: Store
let s: TestServer
beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { email: mail.email, sms: mail.sms, wallets: { frameOrigin: 'http://127.0.0.1:48792', recoveryKey: 'wallet-devices-test-recovery-key-000000000026' } })
}, 120_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})

function run<T = any>(device: TestDevice, type: string, payload: Record<string, unknown>): Promise<T> {
  clearSession()
  return handlerFor(type)!(payload as never, device.ctx())
}

async function login(email: string) {
  const r = await s.emailLogin(email)
  expect(r.status).toBe(200)
  const token = r.body.token as string
  const { sub, sid } = decodeJwt(token) as { sub: string; sid: string }
  return { token, userId: sub, sessionId: sid }
}

async function signs(device: TestDevice, ref: { accessToken: string; entropyId: string; entropyIdVerifier: string }) {
  const r = await run<{ data: Hex }>(device, 'wallets:rpc', { ...ref, chainType: 'ethereum', hdWalletIndex: 0, request: { method: 'personal_sign', params: ['0x6869', ref.entropyId] } })
  expect(await recoverMessageAddress({ message: { raw: '0x6869' }, signature: r.data })).toBe(ref.entropyId)
}

const devicesOf = async (userId: string) =>
  (await store.query<{ device_id: string; added_by: string }>('SELECT device_id, added_by FROM wallet_devices WHERE user_id = $1 ORDER BY created_at, added_by', [userId])).map((d) => [d.device_id, d.added_by])

describe('a new device', () => {
  it('privy: after a step-up it gets the recovery share, registers (step_up) and the user is told; it then signs', async () => {
    const email = uniqueEmail('newdev')
    const a = await login(email)
    const first = testDevice(s)
    const w = await run(first, 'wallets:create', { accessToken: a.token, chainTypes: ['ethereum'] })
    // Another browser: a new login, a new device.
    const b = await login(email)
    const second = testDevice(s)
    const ref = { accessToken: b.token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier }
    const refused = await run(second, 'wallets:recover', ref).catch((e) => e)
    expect(refused).toMatchObject({ type: 'device_step_up_required', message: 'Confirm it’s you to use your wallet on this device.' })
    // The step-up (H1b's routes record this grant after a code or MFA).
    await insertStepUpGrant(store, { appId: DEMO, userId: b.userId, sessionId: b.sessionId, deviceId: await second.id(), entropyId: w.entropyId }, 'email')
    const sent = mail.sent.length
    expect(await run(second, 'wallets:recover', ref)).toMatchObject({ recovered: true })
    expect(await devicesOf(b.userId)).toEqual([
      [await first.id(), 'create'],
      [await second.id(), 'step_up'],
    ])
    const notice = mail.sent.slice(sent).find((m) => m.to === email && m.text.startsWith('A new device was added to your wallet'))
    expect(notice?.text).toMatch(/^A new device was added to your wallet: .+, \w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT\./)
    await signs(second, ref)
    // The first device still works on its own session.
    await signs(first, { ...ref, accessToken: a.token })
  })

  it('user-passcode: the password opens the share, the device proves it for the auth share, registers with the wallet signature (recovery)', { timeout: 240_000 }, async () => {
    const email = uniqueEmail('pass')
    const a = await login(email)
    const first = testDevice(s)
    const w = await run(first, 'wallets:create', { accessToken: a.token, chainTypes: ['ethereum'], recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse-7' })
    const b = await login(email)
    const second = testDevice(s)
    const ref = { accessToken: b.token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier }
    // Without the proof of the opened share the new device gets no auth share.
    const plain = await second.call('/api/v1/wallets/auth_share', b.token, { entropy_id: w.entropyId })
    expect(plain.body.code).toBe('device_step_up_required')
    const bad = await second.call('/api/v1/wallets/auth_share', b.token, { entropy_id: w.entropyId, recovery_proof: 'A'.repeat(86) })
    expect(bad.body.code).toBe('device_step_up_required')
    const sent = mail.sent.length
    expect(await run(second, 'wallets:recover', { ...ref, recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse-7' })).toMatchObject({ recovered: true })
    expect((await devicesOf(b.userId)).map((d) => d[1])).toEqual(['create', 'recovery'])
    expect(mail.sent.slice(sent).some((m) => m.to === email && m.text.startsWith('A new device was added to your wallet'))).toBe(true)
    await signs(second, ref)
  })

  it('registering again is a no-op for a registered device on its session (no second notice)', async () => {
    const email = uniqueEmail('again')
    const a = await login(email)
    const d = testDevice(s)
    const w = await run(d, 'wallets:create', { accessToken: a.token, chainTypes: ['ethereum'] })
    const sent = mail.sent.length
    const r = await d.call('/api/v1/wallets/devices/register', a.token, { entropy_id: w.entropyId })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ registered: true, device_id: await d.id() })
    expect(mail.sent.length).toBe(sent)
  })
})

describe('authorised changes', () => {
  it('set-recovery is signed by the wallet; a device that missed it still opens with the previous share within the grace period', async () => {
    const email = uniqueEmail('grace')
    const a = await login(email)
    const first = testDevice(s)
    const w = await run(first, 'wallets:create', { accessToken: a.token, chainTypes: ['ethereum'] })
    // A second registered device (privy recovery after a step-up).
    const b = await login(email)
    const second = testDevice(s)
    const refB = { accessToken: b.token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier }
    await insertStepUpGrant(store, { appId: DEMO, userId: b.userId, sessionId: b.sessionId, deviceId: await second.id(), entropyId: w.entropyId }, 'email')
    await run(second, 'wallets:recover', refB)
    // The first device re-splits the root (set-recovery): new shares for itself and the server.
    const refA = { accessToken: a.token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier }
    expect(await run(first, 'wallets:set-recovery', { ...refA, recoveryMethod: 'privy' })).toMatchObject({ recoveryMethod: 'privy' })
    const history = await store.query('SELECT 1 FROM embedded_wallet_share_history WHERE lower(entropy_id) = lower($1) AND expires_at > $2', [w.entropyId, Math.floor(Date.now() / 1000) + 6 * 86400])
    expect(history).toHaveLength(1)
    const reply = await second.call('/api/v1/wallets/auth_share', b.token, { entropy_id: w.entropyId })
    expect(reply.body.previous_share).toBeTruthy()
    expect(reply.body.previous_share).not.toBe(reply.body.share)
    // The second device's share belongs to the old split: it opens with the previous auth share.
    await signs(second, refB)
    await signs(first, refA)
    // After the grace period the previous share is gone.
    await store.query('UPDATE embedded_wallet_share_history SET expires_at = 1 WHERE lower(entropy_id) = lower($1)', [w.entropyId])
    expect((await second.call('/api/v1/wallets/auth_share', b.token, { entropy_id: w.entropyId })).body.previous_share).toBeUndefined()
  })
})
