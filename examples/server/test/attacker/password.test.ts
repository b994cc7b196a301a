/**
 * Attacker claims about password recovery (issue 26, 'Password recovery not guessable
 * offline'), on every target (PGlite, and PostgreSQL where installed). The README's threat
 * model cites these names.
 *
 * The attacker's dictionary always holds the right password: what stops it is never luck.
 */
import { ristretto255_oprf } from '@noble/curves/ed25519.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64 } from '@scure/base'
import { scrypt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FrameContext } from '../../frame/context'
import { recoveryProofKey } from '../../frame/recovery-proof'
import { recoveryMethod } from '../../frame/handlers/index'
import { passcodeContext } from '../../frame/handlers/recovery-passcode'
import { HdRoot, generateEntropy } from '../../frame/keys'
import { open } from '../../frame/seal'
import { combineShares, shareFromString, shareToString, splitEntropy } from '../../frame/shares'
import { deriveKeys } from '../../src/keys'
import { deriveOprfKey, OPRF_KEY_PURPOSE } from '../../src/features/wallet-password/service'
import { AUTH_SHARE_PURPOSE } from '../../src/features/wallets/keys'
import { DEV_SECRET } from '../../src/settings'
import { PASSWORD_MAX_EVALUATIONS, PASSWORD_TEXTS } from '../../src/wire/password'
import { testDevice, type TestDevice } from '../device-client'
import { DEMO, uniqueEmail } from '../helpers'
import { RECOVERY_KEY, attacker, startTargets, type Target } from './harness'

const PASSWORD = 'sunny-4-days'
const DICTIONARY = ['123456', 'password', 'qwerty123', PASSWORD]

let targets: Target[] = []
beforeAll(async () => {
  targets = await startTargets()
}, 180_000)
afterAll(async () => {
  for (const t of targets) await t.close()
})

type Ctx = FrameContext & { entropyId: string; accessToken: string }
/** The frame on `device`: its real API (a device proof and a fresh nonce on every call). */
const frameCtx = (device: TestDevice, token: string, entropyId: string): Ctx => ({ ...device.ctx(), entropyId, accessToken: token })

/** A user with a password wallet, created as the frame creates it, from the user's own wallet device. */
async function passwordWallet(t: Target) {
  const email = uniqueEmail('atk-pw')
  const token = (await t.s.emailLogin(email)).body.token as string
  const device = testDevice(t.s)
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  const entropyId = root.ethereum(0).address
  const sealed = await recoveryMethod('user-passcode').seal(shares.recovery, { recoveryMethod: 'user-passcode', recoveryPassword: PASSWORD }, frameCtx(device, token, entropyId))
  const res = await device.call('/api/v1/wallets/create', token, {
    entropy_id: entropyId,
    entropy_id_verifier: 'ethereum-address-verifier',
    auth_share: shareToString(shares.auth),
    recovery_method: 'user-passcode',
    recovery_share: sealed.recoveryShare,
    recovery_meta: sealed.recoveryMeta,
    recovery_proof_key: await recoveryProofKey(shares.recovery, DEMO, entropyId),
    wallets: [{ address: entropyId, chain_type: 'ethereum', wallet_index: 0 }],
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { email, token, entropyId, device }
}

const evaluations = async (t: Target, entropyId: string) =>
  (await t.store.query<{ evaluations: number }>('SELECT evaluations FROM wallet_password_oprf WHERE entropy_id = $1', [entropyId.toLowerCase()]))[0].evaluations
const blindedGuess = () => base64.encode(ristretto255_oprf.oprf.blind(crypto.getRandomValues(new Uint8Array(32))).blinded)

/** The database dump's row of a wallet (what a thief of the database holds). */
async function dumpRow(t: Target, entropyId: string) {
  const root = (await t.store.query<{ auth_share: string; recovery_share: string; recovery_meta: Record<string, unknown> }>('SELECT * FROM embedded_wallet_roots WHERE entropy_id = $1', [entropyId]))[0]
  const oprf = (await t.store.query<{ oprf_key: string }>('SELECT oprf_key FROM wallet_password_oprf WHERE entropy_id = $1', [entropyId.toLowerCase()]))[0]
  return { ...root, oprf_key: oprf.oprf_key }
}

/**
 * The attacker's scrypt: Node's native one (OpenSSL), as fast as the attacker can get on this
 * machine; same parameters as stored, so the same output as the frame's. Memoised per salt and
 * word: two tests attack the same dump with different key sets, and an attacker would not
 * harden a word twice either.
 */
const hardenedMemo = new Map<string, Promise<Uint8Array>>()
function attackerScrypt(word: string, salt: Uint8Array, m: Record<string, unknown>): Promise<Uint8Array> {
  const key = `${base64.encode(salt)}|${word}|${m.N}|${m.r}|${m.p}`
  let hit = hardenedMemo.get(key)
  if (!hit) {
    const N = Number(m.N)
    const r = Number(m.r)
    hit = new Promise<Uint8Array>((resolve, reject) =>
      scrypt(word.normalize('NFKC'), salt, 32, { N, r, p: Number(m.p), maxmem: 256 * N * r + 1024 * 1024 }, (err, out) => (err ? reject(err) : resolve(new Uint8Array(out)))),
    )
    hardenedMemo.set(key, hit)
  }
  return hit
}

/**
 * The offline attack: for each word, scrypt with the stored parameters, then every key the
 * attacker can build — scrypt alone (v1), and the OPRF under each candidate server key —
 * against the sealed share; a hit combined with the auth share must rebuild the wallet.
 */
async function offlineDictionary(row: Awaited<ReturnType<typeof dumpRow>>, authShare: string, entropyId: string, oprfKeys: Uint8Array[]): Promise<string | null> {
  const m = row.recovery_meta
  const salt = base64.decode(String(m.salt))
  const ctx = passcodeContext(DEMO, entropyId)
  for (const word of DICTIONARY) {
    const hardened = await attackerScrypt(word, salt, m)
    const keys: Uint8Array[] = [hardened]
    for (const k of oprfKeys) {
      // Evaluate(k, x) without blinding: the attacker holds the key, it plays both sides.
      const { blind, blinded } = ristretto255_oprf.oprf.blind(hardened)
      const out = ristretto255_oprf.oprf.finalize(hardened, blind, ristretto255_oprf.oprf.blindEvaluate(k, blinded))
      keys.push(hkdf(sha256, out, salt, new TextEncoder().encode(`portico password recovery key v2|${ctx}`), 32))
    }
    for (const raw of keys) {
      const key = await crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'AES-GCM' }, false, ['decrypt'])
      try {
        const share = await open(row.recovery_share, key, ctx)
        const root = await HdRoot.fromEntropy(await combineShares(share, shareFromString(authShare)))
        if (root.ethereum(0).address === entropyId) return word
      } catch {}
    }
  }
  return null
}

/**
 * The password wallet whose dump the offline tests attack, one per target (each scrypt seal
 * costs 128 MiB and a second or more): made by whichever offline test runs first.
 */
const dumpWallets = new Map<string, ReturnType<typeof passwordWallet>>()
function dumpWallet(t: Target) {
  if (!dumpWallets.has(t.name)) dumpWallets.set(t.name, passwordWallet(t))
  return dumpWallets.get(t.name)!
}

const openAuthShare = async (secret: string, sealed: string) => (await deriveKeys(secret).open(sealed, AUTH_SHARE_PURPOSE)).split('|').pop()!

// scrypt N=2^17 (128 MiB) per guess: slow on a loaded 2-core machine.
describe('attacker: password recovery', { timeout: 600_000 }, () => {
  it('a database dump plus PORTICO_SECRET cannot rebuild a password wallet, even with a dictionary holding the right password', async () => {
    for (const t of targets) {
      const w = await dumpWallet(t)
      const row = await dumpRow(t, w.entropyId)
      const authShare = await openAuthShare(DEV_SECRET, row.auth_share)
      // The secret does not open the sealed OPRF key; keys the attacker could derive from the secret are not it.
      await expect(deriveKeys(DEV_SECRET).open(row.oprf_key, OPRF_KEY_PURPOSE)).rejects.toBeTruthy()
      const guessedKeys = [deriveOprfKey(deriveKeys(DEV_SECRET), DEMO, w.entropyId)]
      expect(await offlineDictionary(row, authShare, w.entropyId, guessedKeys), t.name).toBeNull()
      // Positive control: the user's own frame (the server's evaluation), with the right password, opens it (one counted guess).
      const share = await recoveryMethod('user-passcode').open(
        { recoveryShare: row.recovery_share, recoveryMeta: row.recovery_meta },
        { recoveryMethod: 'user-passcode', recoveryPassword: PASSWORD },
        frameCtx(w.device, w.token, w.entropyId),
      )
      expect((await HdRoot.fromEntropy(await combineShares(share, shareFromString(authShare)))).ethereum(0).address).toBe(w.entropyId)
    }
  })

  it('with the database and all server keys (secret and recovery key) an operator can test guesses offline at scrypt cost, uncounted (the README says so)', async () => {
    for (const t of targets) {
      const w = await dumpWallet(t)
      const row = await dumpRow(t, w.entropyId)
      const before = (await t.store.query<{ evaluations: number }>('SELECT evaluations FROM wallet_password_oprf WHERE entropy_id = $1', [w.entropyId.toLowerCase()]))[0].evaluations
      const oprfKey = base64.decode(await deriveKeys(RECOVERY_KEY).open(row.oprf_key, OPRF_KEY_PURPOSE))
      const found = await offlineDictionary(row, await openAuthShare(DEV_SECRET, row.auth_share), w.entropyId, [oprfKey])
      expect(found, t.name).toBe(PASSWORD)
      const after = (await t.store.query<{ evaluations: number }>('SELECT evaluations FROM wallet_password_oprf WHERE entropy_id = $1', [w.entropyId.toLowerCase()]))[0].evaluations
      expect(after).toBe(before)
    }
  })

  it(`password guesses through the server with a stolen token are counted and locked out after ${PASSWORD_MAX_EVALUATIONS}, the right password included`, async () => {
    for (const t of targets) {
      const w = await passwordWallet(t)
      // The create's seal was one evaluation.
      expect(await evaluations(t, w.entropyId), t.name).toBe(1)
      // The token alone (the frame's Origin forged) gets no evaluation.
      const forged = await attacker(t.s, w.token).post('/wallets/recovery/password/evaluate', { entropy_id: w.entropyId, blinded: blindedGuess() })
      expect(forged.status, t.name).toBe(403)
      expect(forged.body.code).toBe('device_proof_required')
      expect(await evaluations(t, w.entropyId)).toBe(1)
      // With a device of the thief's own (a new device of a password user needs no step-up: the
      // password is the factor), every guess reaches the server and is counted.
      const thief = testDevice(t.s)
      const guess = () => thief.call('/api/v1/wallets/recovery/password/evaluate', w.token, { entropy_id: w.entropyId, blinded: blindedGuess() })
      for (let i = 1; i < PASSWORD_MAX_EVALUATIONS; i++) expect((await guess()).status, t.name).toBe(200)
      const refused = await guess()
      expect(refused.status).toBe(429)
      expect(refused.body.error).toBe(PASSWORD_TEXTS.locked)
      // Locked for the user's own frame too, the right password included.
      const row = await dumpRow(t, w.entropyId)
      const err = await recoveryMethod('user-passcode')
        .open({ recoveryShare: row.recovery_share, recoveryMeta: row.recovery_meta }, { recoveryMethod: 'user-passcode', recoveryPassword: PASSWORD }, frameCtx(w.device, w.token, w.entropyId))
        .catch((e) => e)
      expect(err.message).toBe(PASSWORD_TEXTS.locked)
    }
  })

  it('the OPRF evaluation alone (without the password) rebuilds nothing: evaluations of every other guess open no share', async () => {
    for (const t of targets) {
      const w = await dumpWallet(t)
      const row = await dumpRow(t, w.entropyId)
      const before = await evaluations(t, w.entropyId)
      const wrongs = DICTIONARY.filter((d) => d !== PASSWORD)
      for (const word of wrongs) {
        const err = await recoveryMethod('user-passcode')
          .open({ recoveryShare: row.recovery_share, recoveryMeta: row.recovery_meta }, { recoveryMethod: 'user-passcode', recoveryPassword: word }, frameCtx(w.device, w.token, w.entropyId))
          .catch((e) => e)
        expect(err).toMatchObject({ type: 'invalid_recovery_pin', message: 'Invalid recovery password, please try again.' })
      }
      // Every one was counted.
      expect(await evaluations(t, w.entropyId)).toBe(before + wrongs.length)
    }
  })
})
