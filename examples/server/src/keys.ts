/**
 * Keys derived from a server key (PORTICO_SECRET, or the recovery key; outside the database):
 * HKDF-SHA256 subkeys for the code HMAC and for encrypting secrets at rest (JWE, dir + A256GCM,
 * jose). Every sealed record names its key in the JWE header (`kid`: a fingerprint of the
 * encryption subkey, never the key); previous keys (rotation: PORTICO_SECRET_PREVIOUS,
 * PORTICO_RECOVERY_KEY_PREVIOUS) still open what they sealed, and `rewrap` re-seals a record
 * under the current key (`rotate-keys`, src/rotate-keys.ts).
 * No cryptography is written here: node:crypto and jose do it.
 */
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose'

export interface Keys {
  /** The current key's id (written in every sealed record's header). */
  readonly kid: string
  /** Keyed hash of a one-time code (hex). */
  codeHash(parts: string[]): string
  /** Encrypts a string (compact JWE) under the current key. */
  seal(plain: string, purpose: string): Promise<string>
  /** Decrypts `seal`'s output (current or a previous key); throws when no key or the purpose differs. */
  open(jwe: string, purpose: string): Promise<string>
  /** The key id a sealed record names (null: sealed before key ids, by the current or a previous key). */
  kidOf(jwe: string): string | null
  /** Re-seals a record under the current key; null when it already is. */
  rewrap(jwe: string, purpose: string): Promise<string | null>
  /** A 32-byte HKDF subkey of the current key for `info` (e.g. a per-wallet OPRF key seed). */
  derive(info: string): Uint8Array
}

interface Ring {
  kid: string
  encKey: Uint8Array
}

const ring = (secret: string): Ring => {
  const encKey = new Uint8Array(hkdfSync('sha256', secret, 'portico', 'portico encryption at rest v1', 32))
  // The id is a hash of a separate subkey: it names the key without helping to guess it.
  const kid = createHash('sha256')
    .update(new Uint8Array(hkdfSync('sha256', secret, 'portico', 'portico key id v1', 32)))
    .digest('hex')
    .slice(0, 16)
  return { kid, encKey }
}

/** Keys of `secret`; `previous` (older secrets) open what they sealed, never seal. */
export function deriveKeys(secret: string, previous: readonly string[] = []): Keys {
  const sub = (info: string) => new Uint8Array(hkdfSync('sha256', secret, 'portico', info, 32))
  const codeKey = sub('portico one-time codes v1')
  const current = ring(secret)
  const older = previous.filter((p) => p && p !== secret).map(ring)
  const all = [current, ...older]
  const dec = new TextDecoder()
  const kidOf = (jwe: string): string | null => {
    const kid = decodeProtectedHeader(jwe).kid
    return typeof kid === 'string' ? kid : null
  }
  const seal = (plain: string, purpose: string) =>
    new CompactEncrypt(new TextEncoder().encode(plain)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: purpose, kid: current.kid }).encrypt(current.encKey)
  const open = async (jwe: string, purpose: string) => {
    const kid = kidOf(jwe)
    // A named key: only that one. No name (sealed before key ids): the current key, then the previous ones.
    const candidates = kid ? all.filter((r) => r.kid === kid) : all
    if (!candidates.length) throw new Error(`sealed under an unknown key (${kid}): set the previous key`)
    let last: unknown
    for (const r of candidates) {
      try {
        const { plaintext, protectedHeader } = await compactDecrypt(jwe, r.encKey)
        if (protectedHeader.cty !== purpose) throw new Error('sealed for another purpose')
        return dec.decode(plaintext)
      } catch (e) {
        last = e
      }
    }
    throw last
  }
  return {
    kid: current.kid,
    codeHash: (parts) => createHmac('sha256', codeKey).update(parts.join('\u0000')).digest('hex'),
    seal,
    open,
    kidOf,
    async rewrap(jwe, purpose) {
      if (kidOf(jwe) === current.kid) return null
      return seal(await open(jwe, purpose), purpose)
    },
    derive: (info) => sub(info),
  }
}

export function hexEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}
