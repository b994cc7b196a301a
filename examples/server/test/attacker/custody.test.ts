/**
 * The attacker suite, wallet custody (issue 26): what a stolen access token buys. The attacker
 * is a Node client: it forges the frame's Origin and Referer, and runs a wallet frame of its own
 * (a device key of its own, proofs and all). The user is the real frame code (handlers, device
 * key, proofs) run in Node, so every positive control is the product's own path. Each claim runs
 * on every target (PGlite, and PostgreSQL where installed).
 */
import { decodeJwt } from 'jose'
import * as OTPAuth from 'otpauth'
import { recoverMessageAddress, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FrameFailure } from '../../frame/context'
import { handlerFor } from '../../frame/handlers/index'
import { HdRoot, generateEntropy } from '../../frame/keys'
import { clearSession } from '../../frame/session'
import { shareToString, splitEntropy } from '../../frame/shares'
import { insertStepUpGrant } from '../../src/features/wallets/custody'
import { DEVICE_PROOF_HEADER } from '../../src/wire/custody'
import { testDevice, type TestDevice } from '../device-client'
import { DEMO, memoryProviders, uniqueEmail, type TestServer } from '../helpers'
import { attacker, startTargets, type Target } from './harness'

const MFA = 'portico-test-mfa-00000001'
const mail = memoryProviders()
let targets: Target[] = []
beforeAll(async () => {
  targets = await startTargets({ email: mail.email, sms: mail.sms })
}, 180_000)
afterAll(async () => {
  for (const t of targets) await t.close()
})

interface Victim {
  email: string
  token: string
  userId: string
  sessionId: string
  device: TestDevice
  ref: { accessToken: string; entropyId: string; entropyIdVerifier: 'ethereum-address-verifier' }
}

/** Runs a frame handler on `device` (a fresh frame page: no root cached). */
function run<T = any>(device: TestDevice, type: string, payload: Record<string, unknown>): Promise<T> {
  clearSession()
  return handlerFor(type)!(payload as never, device.ctx())
}

/** A user who logged in and created a wallet with the real frame (privy recovery). */
async function victim(s: TestServer, appId = DEMO): Promise<Victim> {
  const email = uniqueEmail('victim')
  const login = await s.emailLogin(email, { appId })
  expect(login.status).toBe(200)
  const token = login.body.token as string
  const { sub, sid } = decodeJwt(token) as { sub: string; sid: string }
  const device = testDevice(s, appId)
  const w = await run(device, 'wallets:create', { accessToken: token, chainTypes: ['ethereum'] })
  return { email, token, userId: sub, sessionId: sid, device, ref: { accessToken: token, entropyId: w.entropyId, entropyIdVerifier: 'ethereum-address-verifier' } }
}

/** The positive control: the user's own frame still signs with the wallet. */
async function userSigns(v: Victim): Promise<void> {
  const r = await run<{ data: Hex }>(v.device, 'wallets:rpc', { ...v.ref, chainType: 'ethereum', hdWalletIndex: 0, request: { method: 'personal_sign', params: ['0x6869', v.ref.entropyId] } })
  expect(await recoverMessageAddress({ message: { raw: '0x6869' }, signature: r.data })).toBe(v.ref.entropyId)
}

const rootRow = async (t: Target, entropyId: string) =>
  (await t.store.query('SELECT auth_share, recovery_share, recovery_method, updated_at FROM embedded_wallet_roots WHERE lower(entropy_id) = lower($1)', [entropyId]))[0]

/** A set_recovery body with fresh random shares (what an attacker would plant). */
async function plantedShares(entropyId: string) {
  const e = generateEntropy()
  const shares = await splitEntropy(e)
  return { entropy_id: entropyId, recovery_method: 'privy', recovery_share: shareToString(shares.recovery), auth_share: shareToString(shares.auth) }
}

const SHARE_KEYS = ['share', 'previous_share', 'recovery_share', 'key']
const noSecret = (body: Record<string, unknown>) => {
  for (const k of SHARE_KEYS) expect(body[k], k).toBeUndefined()
}

describe('custody: a stolen access token', () => {
  it('gets no auth share: not with the forged frame Origin, not from a device of its own', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      const forged = await attacker(t.s, v.token).post('/wallets/auth_share', { entropy_id: v.ref.entropyId })
      expect(forged.status, t.name).toBe(403)
      expect(forged.body.code).toBe('device_proof_required')
      noSecret(forged.body)
      const own = await testDevice(t.s).call('/api/v1/wallets/auth_share', v.token, { entropy_id: v.ref.entropyId }, { headers: { origin: 'http://127.0.0.1:48799' } })
      expect(own.status, t.name).toBe(403)
      expect(own.body.code).toBe('device_step_up_required')
      noSecret(own.body)
      await userSigns(v)
    }
  })

  it('gets no privy recovery share: not with the forged frame Origin, not from a device of its own, not from the user device without a step-up', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      const forged = await attacker(t.s, v.token).post('/wallets/recovery_share', { entropy_id: v.ref.entropyId })
      expect(forged.status, t.name).toBe(403)
      noSecret(forged.body)
      const own = await testDevice(t.s).call('/api/v1/wallets/recovery_share', v.token, { entropy_id: v.ref.entropyId })
      expect(own.body.code, t.name).toBe('device_step_up_required')
      noSecret(own.body)
      // Even the user's registered device: privy's share needs a step-up (a grant) each time.
      const mine = await v.device.call('/api/v1/wallets/recovery_share', v.token, { entropy_id: v.ref.entropyId })
      expect(mine.body.code, t.name).toBe('device_step_up_required')
      // Positive control: after a step-up on the user's device, the share is released once.
      await insertStepUpGrant(t.store, { appId: DEMO, userId: v.userId, sessionId: v.sessionId, deviceId: await v.device.id(), entropyId: v.ref.entropyId }, 'email')
      expect((await v.device.call('/api/v1/wallets/recovery_share', v.token, { entropy_id: v.ref.entropyId })).status).toBe(200)
    }
  })

  it('cannot set_recovery: random shares are refused, the stored shares are unchanged and the wallet still rebuilds', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      const before = await rootRow(t, v.ref.entropyId)
      const planted = await plantedShares(v.ref.entropyId)
      const forged = await attacker(t.s, v.token).post('/wallets/set_recovery', planted)
      expect(forged.body.code, t.name).toBe('device_proof_required')
      const own = await testDevice(t.s).call('/api/v1/wallets/set_recovery', v.token, planted)
      expect(own.body.code, t.name).toBe('device_step_up_required')
      // The user's registered device without the wallet's signature (or with a signature by another key): refused too.
      const unsigned = await v.device.call('/api/v1/wallets/set_recovery', v.token, planted)
      expect(unsigned.body).toMatchObject({ code: 'wallet_owner_signature_invalid', error: 'The change is not signed by the wallet.' })
      const other = await HdRoot.fromEntropy(generateEntropy())
      const wrongKey = await v.device.call('/api/v1/wallets/set_recovery', v.token, planted, {
        sign: async () => ({ owner_signature: await other.signOwner('ethereum-address-verifier', 'Portico wallet change') }),
      })
      expect(wrongKey.body.code, t.name).toBe('wallet_owner_signature_invalid')
      expect(await rootRow(t, v.ref.entropyId)).toEqual(before)
      await userSigns(v)
    }
  })

  it('cannot add a wallet to the root', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      const other = await HdRoot.fromEntropy(generateEntropy())
      const body = { entropy_id: v.ref.entropyId, chain_type: 'ethereum', wallet_index: 1, address: other.ethereum(0).address }
      expect((await attacker(t.s, v.token).post('/wallets/add', body)).body.code, t.name).toBe('device_proof_required')
      expect((await testDevice(t.s).call('/api/v1/wallets/add', v.token, body)).body.code, t.name).toBe('device_step_up_required')
      expect((await v.device.call('/api/v1/wallets/add', v.token, body)).body.code, t.name).toBe('wallet_owner_signature_invalid')
      const wallets = await t.store.query("SELECT 1 FROM accounts WHERE user_id = $1 AND type = 'wallet'", [v.userId])
      expect(wallets).toHaveLength(1)
      // Positive control: the user's frame adds wallet 1 (signed by the root's index-0 key).
      const added = await run(v.device, 'wallets:add', { ...v.ref, chainType: 'ethereum', walletIndex: 1 })
      expect(added.wallet.walletIndex).toBe(1)
    }
  })

  it("cannot pre-seed a wallet on a session the user's frame already used; before that (the residual) the user's frame is stopped at a step-up, never silently handed the planted wallet", async () => {
    for (const t of targets) {
      // The user's frame used the session (its first proof binds the session to its device).
      const email = uniqueEmail('preseed')
      const token = (await t.s.emailLogin(email)).body.token as string
      const user = testDevice(t.s)
      expect((await user.call('/api/v1/wallets/device_nonce', token, {})).status).toBe(200)
      await user.call('/api/v1/recovery/cloud_key', token, { entropy_id: 'bind-first' })
      const seed = await HdRoot.fromEntropy(generateEntropy())
      const shares = await splitEntropy(generateEntropy())
      const body = {
        entropy_id: seed.ethereum(0).address,
        entropy_id_verifier: 'ethereum-address-verifier',
        auth_share: shareToString(shares.auth),
        recovery_method: 'privy',
        recovery_share: shareToString(shares.recovery),
        wallets: [{ address: seed.ethereum(0).address, chain_type: 'ethereum', wallet_index: 0 }],
      }
      const thief = testDevice(t.s)
      const refused = await thief.call('/api/v1/wallets/create', token, body)
      expect(refused.body.code, t.name).toBe('device_step_up_required')
      expect((await attacker(t.s, token).post('/wallets/create', body)).body.code).toBe('device_proof_required')
      expect(await t.store.query('SELECT 1 FROM embedded_wallet_roots WHERE lower(entropy_id) = lower($1)', [body.entropy_id])).toHaveLength(0)

      // The residual: a token stolen before the user's frame first touched its session. The
      // attacker's device binds it and plants a wallet; the user's frame is then refused on
      // that session (a step-up, which the user sees), not given the planted wallet's shares.
      const early = (await t.s.emailLogin(uniqueEmail('preseed'))).body.token as string
      const seed2 = await HdRoot.fromEntropy(generateEntropy())
      const ok = await thief.call('/api/v1/wallets/create', early, { ...body, entropy_id: seed2.ethereum(0).address, wallets: [{ address: seed2.ethereum(0).address, chain_type: 'ethereum', wallet_index: 0 }] })
      expect(ok.status, t.name).toBe(200)
      const victimFrame = testDevice(t.s)
      const blocked = await victimFrame.call('/api/v1/wallets/auth_share', early, { entropy_id: seed2.ethereum(0).address })
      expect(blocked.body.code, t.name).toBe('device_step_up_required')
      noSecret(blocked.body)
    }
  })

  it('cannot register a device of its own without a step-up grant or the wallet signature', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      const thief = testDevice(t.s)
      const plain = await thief.call('/api/v1/wallets/devices/register', v.token, { entropy_id: v.ref.entropyId })
      expect(plain.body.code, t.name).toBe('device_step_up_required')
      const forgedSig = await thief.call('/api/v1/wallets/devices/register', v.token, { entropy_id: v.ref.entropyId, owner_signature: `0x${'11'.repeat(65)}` })
      expect(forgedSig.body.code, t.name).toBe('wallet_owner_signature_invalid')
      // A grant for the user's device does not serve another device.
      await insertStepUpGrant(t.store, { appId: DEMO, userId: v.userId, sessionId: v.sessionId, deviceId: await v.device.id(), entropyId: v.ref.entropyId }, 'email')
      expect((await thief.call('/api/v1/wallets/devices/register', v.token, { entropy_id: v.ref.entropyId })).body.code).toBe('device_step_up_required')
      const devices = await t.store.query<{ device_id: string }>('SELECT device_id FROM wallet_devices WHERE user_id = $1', [v.userId])
      expect(devices.map((d) => d.device_id)).toEqual([await v.device.id()])
    }
  })

  it("a replayed proof (the same nonce) is refused, even with the user's own proof", async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      // The user's frame sends a request (its proof used once); the attacker captured it and replays it.
      const captured = await testDeviceCapture(v.device).make(v.token, '/wallets/auth_share', v.ref.entropyId)
      const sent = await t.s.call('/api/v1/wallets/auth_share', { token: v.token, body: { entropy_id: v.ref.entropyId }, headers: { [DEVICE_PROOF_HEADER]: captured } })
      expect(sent.status, t.name).toBe(200)
      const replay = await attacker(t.s, v.token).post('/wallets/auth_share', { entropy_id: v.ref.entropyId }, { [DEVICE_PROOF_HEADER]: captured })
      expect(replay.status, t.name).toBe(401)
      expect(replay.body.code).toBe('device_proof_nonce')
      noSecret(replay.body)
    }
  })

  it('a proof made for another path, another token or another root is refused', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      const spy = testDeviceCapture(v.device)
      // A proof the user's frame made for /wallets/add (captured before it was used), replayed on /wallets/auth_share.
      const forAdd = await spy.make(v.token, '/wallets/add', v.ref.entropyId)
      const wrongPath = await attacker(t.s, v.token).post('/wallets/auth_share', { entropy_id: v.ref.entropyId }, { [DEVICE_PROOF_HEADER]: forAdd })
      expect(wrongPath.body.code, t.name).toBe('device_proof_required')
      // A proof for the attacker's own session token, sent with the victim's.
      const mine = (await t.s.emailLogin(uniqueEmail('thief'))).body.token as string
      const forOtherToken = await spy.make(mine, '/wallets/auth_share', v.ref.entropyId, v.token)
      expect((await attacker(t.s, v.token).post('/wallets/auth_share', { entropy_id: v.ref.entropyId }, { [DEVICE_PROOF_HEADER]: forOtherToken })).body.code).toBe('device_proof_required')
      // A proof for another root.
      const forOtherRoot = await spy.make(v.token, '/wallets/auth_share', '0x000000000000000000000000000000000000dEaD')
      expect((await attacker(t.s, v.token).post('/wallets/auth_share', { entropy_id: v.ref.entropyId }, { [DEVICE_PROOF_HEADER]: forOtherRoot })).body.code).toBe('device_proof_required')
    }
  })

  it('a revoked device gets nothing (and the frame says so in plain words)', async () => {
    for (const t of targets) {
      const v = await victim(t.s)
      await t.store.query('UPDATE wallet_devices SET revoked_at = 1 WHERE user_id = $1', [v.userId])
      const r = await v.device.call('/api/v1/wallets/auth_share', v.token, { entropy_id: v.ref.entropyId })
      expect(r.status, t.name).toBe(403)
      expect(r.body).toMatchObject({ code: 'device_revoked', error: 'This device was removed from your wallet.' })
      noSecret(r.body)
      const err = await run(v.device, 'wallets:rpc', { ...v.ref, chainType: 'ethereum', hdWalletIndex: 0, request: { method: 'personal_sign', params: ['0x6869', v.ref.entropyId] } }).catch((e) => e)
      expect(err).toBeInstanceOf(FrameFailure)
      expect(err).toMatchObject({ type: 'device_revoked', message: 'This device was removed from your wallet.' })
    }
  })

  it('with MFA enrolled and verified on the stolen session, the same holds: no auth share, no recovery share, no change', async () => {
    for (const t of targets) {
      const v = await victim(t.s, MFA)
      const call = (path: string, body: unknown) => t.s.call(`/api/v1${path}`, { body, token: v.token, appId: MFA })
      const init = await call('/mfa/totp/init', {})
      const gen = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(init.body.secret), digits: 6, period: 30, algorithm: 'SHA1' })
      expect((await call('/mfa/totp/enroll', { code: gen.generate() })).status).toBe(200)
      const thief = testDevice(t.s, MFA)
      const a = attacker(t.s, v.token, { appId: MFA })
      for (const path of ['/wallets/auth_share', '/wallets/recovery_share', '/wallets/set_recovery']) {
        const body = path === '/wallets/set_recovery' ? await plantedShares(v.ref.entropyId) : { entropy_id: v.ref.entropyId }
        const forged = await a.post(path, body)
        expect(forged.body.code, `${t.name} ${path}`).toBe('device_proof_required')
        const own = await thief.call(`/api/v1${path}`, v.token, body)
        expect(own.body.code, `${t.name} ${path}`).toBe('device_step_up_required')
        noSecret(own.body)
      }
      // Positive control: the user's frame (fresh MFA on this session) still signs.
      await userSigns(v)
    }
  })
})

/** Makes proofs with a device's key without sending them (what an eavesdropper could capture). */
function testDeviceCapture(device: TestDevice) {
  const out = {
    async make(token: string, htu: string, entropyId: string, nonceToken = token): Promise<string> {
      const { deviceKey, proof } = await import('../../frame/device-key')
      const key = await deviceKey(DEMO, device.store)
      const n = await device.call('/api/v1/wallets/device_nonce', nonceToken, {})
      return proof(key, { htm: 'POST', htu, accessToken: token, entropyId, nonce: n.body.nonce })
    },
  }
  return out
}
