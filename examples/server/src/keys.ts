/**
 * Keys derived from the server secret (PORTICO_SECRET, outside the database): HKDF-SHA256
 * subkeys for the code HMAC and for encrypting secrets at rest (JWE, dir + A256GCM, jose).
 * No cryptography is written here: node:crypto and jose do it.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { CompactEncrypt, compactDecrypt } from 'jose'

export interface Keys {
  /** Keyed hash of a one-time code (hex). */
  codeHash(parts: string[]): string
  /** Encrypts a string (compact JWE). */
  seal(plain: string, purpose: string): Promise<string>
  /** Decrypts `seal`'s output; throws when the key or purpose differs. */
  open(jwe: string, purpose: string): Promise<string>
}

export function deriveKeys(secret: string): Keys {
  const sub = (info: string) => new Uint8Array(hkdfSync('sha256', secret, 'portico', info, 32))
  const codeKey = sub('portico one-time codes v1')
  const encKey = sub('portico encryption at rest v1')
  const dec = new TextDecoder()
  return {
    codeHash: (parts) => createHmac('sha256', codeKey).update(parts.join('\u0000')).digest('hex'),
    seal: (plain, purpose) =>
      new CompactEncrypt(new TextEncoder().encode(plain)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: purpose }).encrypt(encKey),
    async open(jwe, purpose) {
      const { plaintext, protectedHeader } = await compactDecrypt(jwe, encKey)
      if (protectedHeader.cty !== purpose) throw new Error('sealed for another purpose')
      return dec.decode(plaintext)
    },
  }
}

export function hexEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}
