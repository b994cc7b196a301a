/**
 * The `user-passcode` recovery method (issue 14; spec part 2 sections 3 and 5), not guessable
 * offline (issue 26). Sealing (v2):
 *
 *   scrypt(password, salt)              N = 2^17, r = 8, p = 1 (OWASP's minimum): hardening, kept
 *   → OPRF blind (RFC 9497, ristretto255-SHA512, @noble/curves)
 *   → POST /wallets/recovery/password/evaluate   the server's per-wallet key; counted, locked out
 *   → finalize → HKDF-SHA256 (salt, app, root)   → AES-256-GCM key (seal.ts) over the share
 *
 * The password, the scrypt output, the blind and the OPRF output never leave the frame; the
 * server stores the sealed share and the public parameters ({v: 2, kdf, salt, N, r, p, oprf}).
 * Without the server's OPRF key nothing stored can test a guess: each guess is one counted
 * evaluation. After a success (open, create, set-recovery) the frame reports it with a
 * signature by the root's index-0 key, which resets the server's counter. A wrong password
 * fails the AES-GCM tag check: 'Invalid recovery password, please try again.' (wallet-service
 * error `invalid_recovery_pin`). v1 records (scrypt only, issue 14) still open, and are
 * re-sealed as v2 after a successful recovery.
 *
 * Pre-generated wallets (issue 32) are v1 records with `claim: true`: the operator's import tool
 * sealed the claim share under the user's claim code (128 random bits: the code, not scrypt, is
 * what makes guessing hopeless, so its scrypt cost is lower). The code is read through
 * `normaliseClaimCode`. After the claim opened, the root is split afresh with the app's default
 * method (privy): a new device share, auth share and recovery share; the claim code and the
 * shares the tool made no longer combine with anything.
 */
import { ristretto255_oprf } from '@noble/curves/ed25519.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base58, base64 } from '@scure/base'
import { type EntropyIdVerifier, type RecoveryInput, isValidPassword, passwordError } from '../../src/wire/frame'
import { ownerMessage } from '../../src/wire/custody'
import { OPRF_SUITE, PASSWORD_CODES, PASSWORD_TEXTS } from '../../src/wire/password'
import { FrameFailure, type FrameContext } from '../context'
import type { WalletRoot } from '../keys'
import { open, seal } from '../seal'
import { normaliseClaimCode } from '../claim-code'
import { handlerFor, registerRecoveryMethod } from './registry'

export const PASSCODE_KDF = { name: 'scrypt', N: 2 ** 17, r: 8, p: 1, dkLen: 32 } as const
export const INVALID_PASSWORD = 'Invalid recovery password, please try again.'
const SALT_BYTES = 16
const MAX_N = 2 ** 20
const enc = new TextEncoder()

/** What is bound into the sealed share: the app, the HD root and the method. */
export const passcodeContext = (appId: string, entropyId: string) => `portico recovery share v1|${appId}|${entropyId.toLowerCase()}|user-passcode`

/** scrypt(password, salt): the hardened password (32 bytes; the caller wipes it). */
function harden(password: string, salt: Uint8Array, p: { N: number; r: number; p: number }): Promise<Uint8Array> {
  return scryptAsync(password.normalize('NFKC'), salt, { N: p.N, r: p.r, p: p.p, dkLen: 32 })
}

async function aesKey(raw: Uint8Array): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
  } finally {
    raw.fill(0)
  }
}

/** v1 (issue 14): scrypt(password, salt) → a non-extractable AES-256-GCM key. */
export async function passcodeKey(password: string, salt: Uint8Array, p: { N: number; r: number; p: number } = PASSCODE_KDF): Promise<CryptoKey> {
  return aesKey(await harden(password, salt, p))
}

type Ctx = FrameContext & { entropyId: string; accessToken: string }

/** The nonce of this frame's last evaluation per root: a success report signs it. */
const successNonces = new Map<string, string>()
const nonceKey = (appId: string, entropyId: string) => `${appId}:${entropyId.toLowerCase()}`

/**
 * v2: scrypt → OPRF with the server (one counted evaluation) → HKDF → AES-256-GCM key. A
 * locked wallet is 'Too many password attempts. Try again in 1 hour.'
 */
export async function oprfPasscodeKey(ctx: Ctx, password: string, salt: Uint8Array, p: { N: number; r: number; p: number } = PASSCODE_KDF): Promise<CryptoKey> {
  const hardened = await harden(password, salt, p)
  try {
    const { blind, blinded } = ristretto255_oprf.oprf.blind(hardened)
    let reply: { evaluated: string; nonce: string; suite: string }
    try {
      reply = await ctx.api('/wallets/recovery/password/evaluate', { entropy_id: ctx.entropyId, blinded: base64.encode(blinded) }, ctx.accessToken)
    } catch (e) {
      if (e instanceof FrameFailure && e.code === PASSWORD_CODES.locked) throw new FrameFailure('error', PASSWORD_TEXTS.locked, e.code)
      throw e
    }
    if (reply.suite !== OPRF_SUITE) throw new FrameFailure('error', 'Unable to recover wallet')
    let output: Uint8Array
    try {
      output = ristretto255_oprf.oprf.finalize(hardened, blind, base64.decode(reply.evaluated))
    } catch {
      throw new FrameFailure('error', 'Unable to recover wallet')
    } finally {
      blind.fill(0)
    }
    successNonces.set(nonceKey(ctx.config.appId, ctx.entropyId), reply.nonce)
    const raw = hkdf(sha256, output, salt, enc.encode(`portico password recovery key v2|${passcodeContext(ctx.config.appId, ctx.entropyId)}`), 32)
    output.fill(0)
    return aesKey(raw)
  } finally {
    hardened.fill(0)
  }
}

/** Signs the owner message with the root's index-0 key (EIP-191 / ed25519 base58). */
export async function ownerSign(root: WalletRoot, verifier: EntropyIdVerifier, message: string): Promise<string> {
  if (verifier === 'ethereum-address-verifier') return root.ethereum(0).signMessage({ message })
  return base58.encode(root.solana(0).sign(enc.encode(message)))
}

function password(input: RecoveryInput, creating: boolean): string {
  const pw = input.recoveryPassword
  if (typeof pw !== 'string' || !pw) throw new FrameFailure('invalid_request_arguments', creating ? 'Password must be at least 6 characters' : INVALID_PASSWORD)
  // New passwords follow the rules of part 2 section 5; recovery accepts what was set.
  if (creating && !isValidPassword(pw)) throw new FrameFailure('invalid_request_arguments', passwordError(pw) ?? 'Invalid request arguments')
  return pw
}

/** The public parameters of a stored record: v1 (scrypt only) or v2 (scrypt + OPRF). */
function params(meta: Record<string, unknown> | undefined) {
  const m = meta ?? {}
  const N = Number(m.N)
  const r = Number(m.r)
  const p = Number(m.p)
  const v = m.v === undefined ? 1 : m.v
  if (
    (v !== 1 && !(v === 2 && m.oprf === OPRF_SUITE)) ||
    m.kdf !== 'scrypt' ||
    typeof m.salt !== 'string' ||
    !Number.isInteger(N) ||
    N < 2 ||
    N > MAX_N ||
    (N & (N - 1)) !== 0 ||
    !(r >= 1 && r <= 32) ||
    !(p >= 1 && p <= 16)
  ) {
    throw new FrameFailure('error', 'Unable to recover wallet')
  }
  return { v: v as 1 | 2, salt: base64.decode(m.salt), N, r, p, claim: v === 1 && m.claim === true }
}

registerRecoveryMethod('user-passcode', {
  async seal(share, input, ctx) {
    const pw = password(input, true)
    const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))
    const key = await oprfPasscodeKey(ctx, pw, salt)
    const sealed = await seal(share, key, passcodeContext(ctx.config.appId, ctx.entropyId))
    return {
      recoveryShare: sealed,
      recoveryMeta: { v: 2, kdf: PASSCODE_KDF.name, salt: base64.encode(salt), N: PASSCODE_KDF.N, r: PASSCODE_KDF.r, p: PASSCODE_KDF.p, oprf: OPRF_SUITE },
    }
  },
  async open(stored, input, ctx) {
    const m = params(stored.recoveryMeta)
    const pw = m.claim ? normaliseClaimCode(password(input, false)) : password(input, false)
    const key = m.v === 2 ? await oprfPasscodeKey(ctx, pw, m.salt, m) : await passcodeKey(pw, m.salt, m)
    try {
      return await open(stored.recoveryShare, key, passcodeContext(ctx.config.appId, ctx.entropyId))
    } catch {
      throw new FrameFailure('invalid_recovery_pin', INVALID_PASSWORD)
    }
  },
  async confirmed(root, stored, input, ctx) {
    // A claimed pre-generated wallet: split afresh under the app's default method (privy).
    if (stored && params(stored.recoveryMeta).claim) {
      await handlerFor('wallets:set-recovery')!({ accessToken: ctx.accessToken, entropyId: ctx.entropyId, entropyIdVerifier: ctx.entropyIdVerifier, recoveryMethod: 'privy' }, ctx)
      return
    }
    // A v1 record (scrypt only: testable offline) is sealed again as v2 through set-recovery,
    // which reports its own success.
    if (stored && params(stored.recoveryMeta).v === 1 && input.recoveryPassword) {
      const setRecovery = handlerFor('wallets:set-recovery')!
      await setRecovery(
        { accessToken: ctx.accessToken, entropyId: ctx.entropyId, entropyIdVerifier: ctx.entropyIdVerifier, recoveryMethod: 'user-passcode', recoveryPassword: input.recoveryPassword },
        ctx,
      )
      return
    }
    const k = nonceKey(ctx.config.appId, ctx.entropyId)
    const nonce = successNonces.get(k)
    if (!nonce) return
    successNonces.delete(k)
    const message = ownerMessage({ action: 'password_recovered', appId: ctx.config.appId, entropyId: ctx.entropyId, nonce })
    await ctx.api('/wallets/recovery/password/verified', { entropy_id: ctx.entropyId, owner_signature: await ownerSign(root, ctx.entropyIdVerifier, message) }, ctx.accessToken)
  },
})
