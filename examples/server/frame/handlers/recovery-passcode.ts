/**
 * The `user-passcode` recovery method (issue 14; spec part 2 sections 3 and 5): the recovery
 * share is sealed in the frame with a key derived from the user's password by scrypt
 * (@noble/hashes; N = 2^17, r = 8, p = 1: OWASP's minimum for scrypt), AES-256-GCM with the
 * app and the HD root bound as additional data (seal.ts). The password and the derived key
 * never leave the frame; the server stores only the sealed share and the public KDF
 * parameters (salt, N, r, p). A wrong password fails the AES-GCM tag check:
 * 'Invalid recovery password, please try again.' (wallet-service error `invalid_recovery_pin`).
 */
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { base64 } from '@scure/base'
import type { RecoveryInput } from '../../../../plugins/embedded-wallet/protocol'
import { isValidPassword, passwordError } from '../../../../plugins/embedded-wallet/recovery/password'
import { FrameFailure } from '../context'
import { open, seal } from '../seal'
import { registerRecoveryMethod } from './registry'

export const PASSCODE_KDF = { name: 'scrypt', N: 2 ** 17, r: 8, p: 1, dkLen: 32 } as const
export const INVALID_PASSWORD = 'Invalid recovery password, please try again.'
const SALT_BYTES = 16
const MAX_N = 2 ** 20

/** What is bound into the sealed share: the app, the HD root and the method. */
export const passcodeContext = (appId: string, entropyId: string) => `portico recovery share v1|${appId}|${entropyId.toLowerCase()}|user-passcode`

/** scrypt(password, salt) → a non-extractable AES-256-GCM key; the raw bytes are wiped. */
export async function passcodeKey(password: string, salt: Uint8Array, p: { N: number; r: number; p: number } = PASSCODE_KDF): Promise<CryptoKey> {
  const raw = await scryptAsync(password.normalize('NFKC'), salt, { N: p.N, r: p.r, p: p.p, dkLen: 32 })
  try {
    return await crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
  } finally {
    raw.fill(0)
  }
}

function password(input: RecoveryInput, creating: boolean): string {
  const pw = input.recoveryPassword
  if (typeof pw !== 'string' || !pw) throw new FrameFailure('invalid_request_arguments', creating ? 'Password must be at least 6 characters' : INVALID_PASSWORD)
  // New passwords follow the rules of part 2 section 5; recovery accepts what was set.
  if (creating && !isValidPassword(pw)) throw new FrameFailure('invalid_request_arguments', passwordError(pw) ?? 'Invalid request arguments')
  return pw
}

registerRecoveryMethod('user-passcode', {
  async seal(share, input, ctx) {
    const pw = password(input, true)
    const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))
    const key = await passcodeKey(pw, salt)
    const sealed = await seal(share, key, passcodeContext(ctx.config.appId, ctx.entropyId))
    return {
      recoveryShare: sealed,
      recoveryMeta: { kdf: PASSCODE_KDF.name, salt: base64.encode(salt), N: PASSCODE_KDF.N, r: PASSCODE_KDF.r, p: PASSCODE_KDF.p },
    }
  },
  async open(stored, input, ctx) {
    const pw = password(input, false)
    const m = stored.recoveryMeta ?? {}
    const N = Number(m.N)
    const r = Number(m.r)
    const p = Number(m.p)
    if (m.kdf !== 'scrypt' || typeof m.salt !== 'string' || !Number.isInteger(N) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) {
      throw new FrameFailure('error', 'Unable to recover wallet')
    }
    const key = await passcodeKey(pw, base64.decode(m.salt), { N, r, p })
    try {
      return await open(stored.recoveryShare, key, passcodeContext(ctx.config.appId, ctx.entropyId))
    } catch {
      throw new FrameFailure('invalid_recovery_pin', INVALID_PASSWORD)
    }
  },
})
