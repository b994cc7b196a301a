/**
 * The one PKCE (RFC 7636) and state code of the house (the OAuth kit, cross-app, the wallet's
 * cloud recovery, the example plugin), with the Web Crypto API only (browsers, Node 20+): the
 * code verifier is derived from 36 random bytes (base64url, 48 characters; part 1 section 9),
 * the challenge is BASE64URL(SHA-256(verifier)) with method S256, the state 24 random bytes.
 */
const VERIFIER_BYTES = 36
const STATE_BYTES = 24

export function base64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))

export const createVerifier = (): string => base64url(random(VERIFIER_BYTES))
export const createStateCode = (): string => base64url(random(STATE_BYTES))

export async function challengeOf(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
}
