import { compactDecrypt, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { deriveKeys } from './keys'

const OLD = 'old-secret-old-secret-old-secret-0001'
const NEW = 'new-secret-new-secret-new-secret-0002'

describe('keys at rest: key ids and rotation', () => {
  it('every sealed record names its key (kid), a fingerprint that is not the key', async () => {
    const k = deriveKeys(NEW)
    const jwe = await k.seal('share', 'p')
    expect(decodeProtectedHeader(jwe)).toMatchObject({ alg: 'dir', enc: 'A256GCM', cty: 'p', kid: k.kid })
    expect(k.kid).toMatch(/^[0-9a-f]{16}$/)
    expect(k.kid).not.toBe(deriveKeys(OLD).kid)
    expect(jwe).not.toContain(NEW)
  })

  it('a previous key opens what it sealed; without it the record names a key the server lacks', async () => {
    const old = deriveKeys(OLD)
    const jwe = await old.seal('share', 'p')
    expect(await deriveKeys(NEW, [OLD]).open(jwe, 'p')).toBe('share')
    await expect(deriveKeys(NEW).open(jwe, 'p')).rejects.toThrow(/unknown key/)
    // The purpose is still checked.
    await expect(deriveKeys(NEW, [OLD]).open(jwe, 'other')).rejects.toThrow(/purpose/)
  })

  it('records sealed before key ids (no kid) open with the current or a previous key', async () => {
    const legacy = async (secret: string) => {
      // What the server wrote before issue 26: the same key, no kid.
      const { CompactEncrypt } = await import('jose')
      const { hkdfSync } = await import('node:crypto')
      const key = new Uint8Array(hkdfSync('sha256', secret, 'portico', 'portico encryption at rest v1', 32))
      return new CompactEncrypt(new TextEncoder().encode('legacy')).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'p' }).encrypt(key)
    }
    expect(await deriveKeys(OLD).open(await legacy(OLD), 'p')).toBe('legacy')
    expect(await deriveKeys(NEW, [OLD]).open(await legacy(OLD), 'p')).toBe('legacy')
    await expect(deriveKeys(NEW).open(await legacy(OLD), 'p')).rejects.toBeTruthy()
  })

  it('rewrap re-seals under the current key and leaves current records alone', async () => {
    const ring = deriveKeys(NEW, [OLD])
    const jwe = await deriveKeys(OLD).seal('share', 'p')
    const next = await ring.rewrap(jwe, 'p')
    expect(next).not.toBeNull()
    expect(ring.kidOf(next!)).toBe(ring.kid)
    expect(await deriveKeys(NEW).open(next!, 'p')).toBe('share')
    expect(await ring.rewrap(next!, 'p')).toBeNull()
    // The new record is a JWE the new key alone decrypts.
    await expect(compactDecrypt(next!, new Uint8Array(32))).rejects.toBeTruthy()
  })
})
