/**
 * PKCE (RFC 7636) and state, with the Web Crypto API only (browsers and Node 20+): the code
 * verifier is 36 random bytes in base64url (48 characters, part 1 section 9), the challenge
 * is BASE64URL(SHA-256(verifier)) with method S256, the state 24 random bytes.
 */
export function base64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))

export const createVerifier = (): string => base64url(random(36))
export const createState = (): string => base64url(random(24))

export async function challengeOf(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
}
