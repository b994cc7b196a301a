/**
 * Sealing a share for a key, with WebCrypto only: AES-256-GCM with a random 96-bit IV, the
 * share's context bound as additional data. Recovery methods that need a password-derived
 * key get it from `passwordKey` (PBKDF2-SHA256, non-extractable); cloud methods may use a
 * random key (`randomKey`). The sealed form is a self-describing JSON string.
 */
import { base64 } from '@scure/base'

export interface Sealed {
  v: 1
  alg: 'A256GCM'
  iv: string
  ct: string
  /** Method-specific public parameters (salt, iterations ...). */
  kdf?: { name: 'PBKDF2'; hash: 'SHA-256'; salt: string; iterations: number }
}

const enc = new TextEncoder()
/** WebCrypto wants ArrayBuffer-backed views. */
const buf = (u: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(u)

export async function seal(share: Uint8Array, key: CryptoKey, context: string, kdf?: Sealed['kdf']): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: enc.encode(context) }, key, buf(share)))
  const out: Sealed = { v: 1, alg: 'A256GCM', iv: base64.encode(iv), ct: base64.encode(ct) }
  if (kdf) out.kdf = kdf
  return JSON.stringify(out)
}

export function parseSealed(sealed: string): Sealed {
  const s = JSON.parse(sealed) as Sealed
  if (s?.v !== 1 || s.alg !== 'A256GCM' || typeof s.iv !== 'string' || typeof s.ct !== 'string') throw new Error('Not a sealed share')
  return s
}

/** Throws (OperationError) when the key or context is wrong or the data was tampered with. */
export async function open(sealed: string, key: CryptoKey, context: string): Promise<Uint8Array> {
  const s = parseSealed(sealed)
  return new Uint8Array(
    await crypto.subtle.decrypt({ name: 'AES-GCM', iv: buf(base64.decode(s.iv)), additionalData: enc.encode(context) }, key, buf(base64.decode(s.ct))),
  )
}

/** A fresh non-extractable AES-256-GCM key (device storage). */
export function randomKey(extractable = false): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, extractable, ['encrypt', 'decrypt'])
}

/** PBKDF2-SHA256 → AES-256-GCM key from a password (slow KDF; `iterations` ≥ 600 000 recommended). */
export async function passwordKey(password: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', enc.encode(password), 'PBKDF2', false, ['deriveKey'])
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: buf(salt), iterations }, base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ])
}
