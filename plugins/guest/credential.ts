/** The guest credential: 32 random bytes (part 1 sections 3 and 9), base64url without padding. */
import { GUEST_CREDENTIAL_BYTES } from './state'

export { GUEST_CREDENTIAL_BYTES } from './state'

export function base64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function newGuestCredential(): string {
  const bytes = new Uint8Array(GUEST_CREDENTIAL_BYTES)
  globalThis.crypto.getRandomValues(bytes)
  return base64url(bytes)
}
