/**
 * Password recovery not guessable offline (issue 26): the frame's v2 seal (scrypt → OPRF with
 * the server → HKDF → AES-GCM), the server's counted evaluations and lock-out, the success
 * report signed by the wallet, v1 records still opening and re-sealed as v2 after a recovery.
 * The frame's handlers run in Node against a real server and database, every call from a wallet
 * device with its proof (device-client.ts: the frame's own createApi).
 */
import { ristretto255_oprf } from '@noble/curves/ed25519.js'
import { base64 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FrameFailure, type FrameContext } from '../frame/context'
import { recoveryProofKey } from '../frame/recovery-proof'
import { handlerFor, recoveryMethod } from '../frame/handlers/index'
import { ownerSign, passcodeContext, passcodeKey } from '../frame/handlers/recovery-passcode'
import { HdRoot, generateEntropy } from '../frame/keys'
import { open, seal } from '../frame/seal'
import { combineShares, shareFromString, shareToString, splitEntropy } from '../frame/shares'
import type { Store } from '../src/core/store'
import { verifyOwnerSignature } from '../src/features/wallet-password/service'
import { ownerMessage } from '../src/wire/custody'
import { PASSWORD_MAX_EVALUATIONS, PASSWORD_TEXTS } from '../src/wire/password'
import { DEMO, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'
import { testDevice, type TestDevice } from './device-client'

const FRAME = 'http://127.0.0.1:48793'
const RECOVERY_KEY = 'test-recovery-key-kept-outside-the-database-0033'

let store: Store
let s: TestServer
beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: RECOVERY_KEY } })
}, 120_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})

type Ctx = FrameContext & { entropyId: string; accessToken: string; entropyIdVerifier: 'ethereum-address-verifier' }

/** The frame on `device` (its real API: a proof and a fresh nonce on every call) for one root. */
function frameCtx(device: TestDevice, token: string, entropyId: string): Ctx {
  return { ...device.ctx(), entropyId, entropyIdVerifier: 'ethereum-address-verifier', accessToken: token }
}

async function login(email = uniqueEmail('pw')) {
  const r = await s.emailLogin(email)
  expect(r.status).toBe(200)
  return r.body.token as string
}

/**
 * A root and its shares, registered with the server from the user's wallet device (a device of
 * its own per user, as in a browser); the recovery share sealed by `sealRecovery`.
 */
async function newRoot(token: string, sealRecovery: (share: Uint8Array, ctx: Ctx) => Promise<{ recoveryShare: string; recoveryMeta?: Record<string, unknown> }>) {
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  const entropyId = root.ethereum(0).address
  const device = testDevice(s)
  const ctx = frameCtx(device, token, entropyId)
  const sealed = await sealRecovery(shares.recovery, ctx)
  const res = await device.call('/api/v1/wallets/create', token, {
    entropy_id: entropyId,
    entropy_id_verifier: 'ethereum-address-verifier',
    auth_share: shareToString(shares.auth),
    recovery_method: 'user-passcode',
    recovery_share: sealed.recoveryShare,
    recovery_meta: sealed.recoveryMeta,
    // What the frame's create sends: a new device that opens the share proves it with this key.
    recovery_proof_key: await recoveryProofKey(shares.recovery, DEMO, entropyId),
    wallets: [{ address: entropyId, chain_type: 'ethereum', wallet_index: 0 }],
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { root, shares, entropyId, ctx, sealed, device }
}

const blindedGuess = () => base64.encode(ristretto255_oprf.oprf.blind(crypto.getRandomValues(new Uint8Array(32))).blinded)
/** One evaluation, asked by `device` (with its proof) on the session of `token`. */
const evaluate = (device: TestDevice, token: string, entropyId: string) => device.call('/api/v1/wallets/recovery/password/evaluate', token, { entropy_id: entropyId, blinded: blindedGuess() })
const counter = async (entropyId: string) =>
  (await store.query<{ evaluations: number; locked_until: string | null }>('SELECT evaluations, locked_until FROM wallet_password_oprf WHERE entropy_id = $1', [entropyId.toLowerCase()]))[0]

// scrypt N=2^17 (128 MiB) per seal and open: slow on a loaded 2-core machine.
describe('user-passcode v2 (OPRF)', { timeout: 240_000 }, () => {
  it('seals with the server’s OPRF ({v: 2, oprf: ristretto255-SHA512}); the right password opens it, a wrong one is the spec’s text; each try is counted and a success resets the count', async () => {
    const token = await login()
    const pass = recoveryMethod('user-passcode')
    const w = await newRoot(token, (share, ctx) => pass.seal(share, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, ctx))
    expect(w.sealed.recoveryMeta).toMatchObject({ v: 2, kdf: 'scrypt', N: 131072, r: 8, p: 1, oprf: 'ristretto255-SHA512' })
    expect((await counter(w.entropyId)).evaluations).toBe(1)
    // The stored record alone: the scrypt key of the right password (what v1 was) does not open it.
    const salt = base64.decode(String(w.sealed.recoveryMeta!.salt))
    const scryptOnly = await passcodeKey('correct-horse', salt)
    await expect(open(w.sealed.recoveryShare, scryptOnly, passcodeContext(DEMO, w.entropyId))).rejects.toBeTruthy()

    const wrong = await pass.open(w.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'wrong-horse' }, w.ctx).catch((e) => e)
    expect(wrong).toMatchObject({ type: 'invalid_recovery_pin', message: 'Invalid recovery password, please try again.' })
    expect((await counter(w.entropyId)).evaluations).toBe(2)
    const share = await pass.open(w.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, w.ctx)
    expect(shareToString(share)).toBe(shareToString(w.shares.recovery))
    expect((await counter(w.entropyId)).evaluations).toBe(3)
    // The frame reports the success with the wallet's signature: the count starts again.
    await pass.confirmed!(w.root, w.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, w.ctx)
    expect((await counter(w.entropyId)).evaluations).toBe(0)
  })

  it(`locks the password after ${PASSWORD_MAX_EVALUATIONS} evaluations without a success: 'Too many password attempts. Try again in 1 hour.', even for the right password`, async () => {
    const token = await login()
    const pass = recoveryMethod('user-passcode')
    const w = await newRoot(token, (share, ctx) => pass.seal(share, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, ctx))
    for (let i = 1; i < PASSWORD_MAX_EVALUATIONS; i++) expect((await evaluate(w.device, token, w.entropyId)).status).toBe(200)
    const locked = await evaluate(w.device, token, w.entropyId)
    expect(locked.status).toBe(429)
    expect(locked.body).toMatchObject({ code: 'too_many_password_attempts', error: PASSWORD_TEXTS.locked })
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(3500)
    const err = await pass.open(w.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, w.ctx).catch((e) => e)
    expect(err).toBeInstanceOf(FrameFailure)
    expect(err.message).toBe('Too many password attempts. Try again in 1 hour.')
    // An hour later (the lock's time moved back): the right password opens again.
    await store.query('UPDATE wallet_password_oprf SET locked_until = $2 WHERE entropy_id = $1', [w.entropyId.toLowerCase(), Math.floor(Date.now() / 1000) - 1])
    const share = await pass.open(w.sealed, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, w.ctx)
    expect(shareToString(share)).toBe(shareToString(w.shares.recovery))
    expect((await counter(w.entropyId)).evaluations).toBe(1)
  })

  it('a success report needs the wallet’s own signature over the last nonce; a forged one is refused and resets nothing', async () => {
    const token = await login()
    const w = await newRoot(token, (share, ctx) => recoveryMethod('user-passcode').seal(share, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, ctx))
    const ev = await evaluate(w.device, token, w.entropyId)
    expect(ev.status).toBe(200)
    const other = await HdRoot.fromEntropy(generateEntropy())
    const forged = await ownerSign(other, 'ethereum-address-verifier', ownerMessage({ action: 'password_recovered', appId: DEMO, entropyId: w.entropyId, nonce: ev.body.nonce }))
    const r = await w.device.call('/api/v1/wallets/recovery/password/verified', token, { entropy_id: w.entropyId, owner_signature: forged })
    expect(r.status).toBe(403)
    expect(r.body.code).toBe('wallet_owner_signature_invalid')
    // A signature over another nonce (an old one) is refused too.
    const stale = await ownerSign(w.root, 'ethereum-address-verifier', ownerMessage({ action: 'password_recovered', appId: DEMO, entropyId: w.entropyId, nonce: 'not-the-nonce' }))
    expect((await w.device.call('/api/v1/wallets/recovery/password/verified', token, { entropy_id: w.entropyId, owner_signature: stale })).status).toBe(403)
    expect((await counter(w.entropyId)).evaluations).toBe(2)
    const good = await ownerSign(w.root, 'ethereum-address-verifier', ownerMessage({ action: 'password_recovered', appId: DEMO, entropyId: w.entropyId, nonce: ev.body.nonce }))
    // Without the device's proof (the frame's Origin forged) even the right signature is refused.
    const noProof = await s.call('/api/v1/wallets/recovery/password/verified', { token, headers: { origin: FRAME }, body: { entropy_id: w.entropyId, owner_signature: good } })
    expect(noProof.body.code).toBe('device_proof_required')
    expect((await counter(w.entropyId)).evaluations).toBe(2)
    const ok = await w.device.call('/api/v1/wallets/recovery/password/verified', token, { entropy_id: w.entropyId, owner_signature: good })
    expect(ok.status).toBe(200)
    expect((await counter(w.entropyId)).evaluations).toBe(0)
    // The nonce is single use.
    expect((await w.device.call('/api/v1/wallets/recovery/password/verified', token, { entropy_id: w.entropyId, owner_signature: good })).status).toBe(400)
  })

  it("another user's token cannot evaluate (nor count against) someone's wallet; a bad element is 422", async () => {
    const owner = await login()
    const w = await newRoot(owner, (share, ctx) => recoveryMethod('user-passcode').seal(share, { recoveryMethod: 'user-passcode', recoveryPassword: 'correct-horse' }, ctx))
    // Mallory's own frame (her device, her session): the wallet is not hers.
    const mallory = await login()
    const r = await evaluate(testDevice(s), mallory, w.entropyId)
    expect(r.status).toBe(404)
    expect((await counter(w.entropyId)).evaluations).toBe(1)
    // The owner's token without the owner's device (the frame's Origin forged): refused, not counted.
    const forged = await s.call('/api/v1/wallets/recovery/password/evaluate', { token: owner, headers: { origin: FRAME }, body: { entropy_id: w.entropyId, blinded: blindedGuess() } })
    expect(forged.status).toBe(403)
    expect(forged.body.code).toBe('device_proof_required')
    expect((await counter(w.entropyId)).evaluations).toBe(1)
    const bad = await w.device.call('/api/v1/wallets/recovery/password/evaluate', owner, { entropy_id: w.entropyId, blinded: base64.encode(new Uint8Array(32).fill(7)) })
    expect(bad.status).toBe(422)
    expect(bad.body.error).toBe(PASSWORD_TEXTS.badElement)
    expect((await counter(w.entropyId)).evaluations).toBe(1)
  })

  it('a v1 record (scrypt only) still opens through wallets:recover, and is sealed again as v2', async () => {
    const email = uniqueEmail('pw')
    const token = await login(email)
    const w = await newRoot(token, async (share, ctx) => {
      const salt = crypto.getRandomValues(new Uint8Array(16))
      const key = await passcodeKey('old-password', salt)
      return { recoveryShare: await seal(share, key, passcodeContext(DEMO, ctx.entropyId)), recoveryMeta: { kdf: 'scrypt', salt: base64.encode(salt), N: 131072, r: 8, p: 1 } }
    })
    // A new device (a new login, a new frame: no device key registered, no device share):
    // wallets:recover with the password.
    const token2 = await login(email)
    const fresh = testDevice(s)
    const recover = handlerFor('wallets:recover')!
    const out = await recover({ accessToken: token2, entropyId: w.entropyId, entropyIdVerifier: 'ethereum-address-verifier', recoveryMethod: 'user-passcode', recoveryPassword: 'old-password' }, fresh.ctx())
    expect(out).toMatchObject({ recovered: true })
    const row = (await store.query<{ recovery_share: string; recovery_meta: Record<string, unknown> }>('SELECT recovery_share, recovery_meta FROM embedded_wallet_roots WHERE entropy_id = $1', [w.entropyId]))[0]
    expect(row.recovery_meta).toMatchObject({ v: 2, oprf: 'ristretto255-SHA512' })
    // The re-seal reported its success: the count is back to zero.
    expect((await counter(w.entropyId)).evaluations).toBe(0)
    // The new v2 record opens with the same password and rebuilds the wallet with the server's new auth share.
    // The new device was registered by the recovery (signed by the wallet).
    expect((await store.query('SELECT added_by FROM wallet_devices WHERE device_id = $1', [await fresh.id()]))[0]).toMatchObject({ added_by: 'recovery' })
    const share = await recoveryMethod('user-passcode').open({ recoveryShare: row.recovery_share, recoveryMeta: row.recovery_meta }, { recoveryMethod: 'user-passcode', recoveryPassword: 'old-password' }, frameCtx(fresh, token2, w.entropyId))
    const auth = await fresh.call('/api/v1/wallets/auth_share', token2, { entropy_id: w.entropyId })
    expect(auth.status, JSON.stringify(auth.body)).toBe(200)
    const rebuilt = await HdRoot.fromEntropy(await combineShares(share, shareFromString(auth.body.share)))
    expect(rebuilt.ethereum(0).address).toBe(w.entropyId)
  })
})

describe('owner signatures (the success report)', () => {
  it('checks EIP-191 for Ethereum roots and ed25519 (base58) for Solana roots; any other signer or message fails', async () => {
    const root = await HdRoot.fromEntropy(generateEntropy())
    const eth = root.ethereum(0).address
    const sol = root.solana(0).address
    const m = (id: string) => ownerMessage({ action: 'password_recovered', appId: DEMO, entropyId: id, nonce: 'n-1' })
    expect(await verifyOwnerSignature(eth, 'ethereum-address-verifier', m(eth), await ownerSign(root, 'ethereum-address-verifier', m(eth)))).toBe(true)
    expect(await verifyOwnerSignature(sol, 'solana-address-verifier', m(sol), await ownerSign(root, 'solana-address-verifier', m(sol)))).toBe(true)
    // Without a root row the id's form decides.
    expect(await verifyOwnerSignature(sol, null, m(sol), await ownerSign(root, 'solana-address-verifier', m(sol)))).toBe(true)
    const other = await HdRoot.fromEntropy(generateEntropy())
    expect(await verifyOwnerSignature(eth, 'ethereum-address-verifier', m(eth), await ownerSign(other, 'ethereum-address-verifier', m(eth)))).toBe(false)
    expect(await verifyOwnerSignature(sol, 'solana-address-verifier', m(sol), await ownerSign(other, 'solana-address-verifier', m(sol)))).toBe(false)
    expect(await verifyOwnerSignature(sol, 'solana-address-verifier', m(sol).replace('n-1', 'n-2'), await ownerSign(root, 'solana-address-verifier', m(sol)))).toBe(false)
    expect(await verifyOwnerSignature(eth, 'ethereum-address-verifier', m(eth), 'not-a-signature')).toBe(false)
  })

  it('a Solana root reports its success with an ed25519 signature; the root is named as stored (base58 keeps its case)', async () => {
    const token = await login()
    const device = testDevice(s)
    const root = await HdRoot.fromEntropy(generateEntropy())
    const sol = root.solana(0).address
    const res = await device.call('/api/v1/wallets/create', token, {
      entropy_id: sol,
      entropy_id_verifier: 'solana-address-verifier',
      auth_share: shareToString((await splitEntropy(generateEntropy())).auth),
      recovery_method: 'user-passcode',
      recovery_share: 'opaque-sealed-share',
      wallets: [{ address: sol, chain_type: 'solana', wallet_index: 0 }],
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const ev = await evaluate(device, token, sol.toLowerCase())
    expect(ev.status).toBe(200)
    const signature = await ownerSign(root, 'solana-address-verifier', ownerMessage({ action: 'password_recovered', appId: DEMO, entropyId: sol, nonce: ev.body.nonce }))
    // The frame may name the root in any case: the server checks against the stored id.
    const ok = await device.call('/api/v1/wallets/recovery/password/verified', token, { entropy_id: sol.toLowerCase(), owner_signature: signature })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect((await counter(sol)).evaluations).toBe(0)
  })

  it('a malformed blinded element (bad base64, wrong length, not a point, the identity) is 422 with a clear text, never 5xx, and counts nothing', async () => {
    const token = await login()
    const device = testDevice(s)
    const entropyId = (await HdRoot.fromEntropy(generateEntropy())).ethereum(0).address
    for (const blinded of ['A', 'AAAA', base64.encode(new Uint8Array(32).fill(255)), base64.encode(new Uint8Array(32))]) {
      const r = await device.call('/api/v1/wallets/recovery/password/evaluate', token, { entropy_id: entropyId, blinded })
      expect(r.status, blinded).toBe(422)
      expect(r.body.error).toBe(PASSWORD_TEXTS.badElement)
    }
    expect(await counter(entropyId)).toBeUndefined()
  })
})
