/**
 * The recovery-proof key (issue 26): an ed25519 key derived from the recovery share (HKDF-SHA256,
 * salt RECOVERY_PROOF_SALT, info `<appId>|<root>`). The server keeps its public half; a new
 * device that opened a user-owned recovery share (password, cloud file) signs the server's nonce
 * with it and so gets the auth share, without the share ever leaving the frame.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { RECOVERY_PROOF_SALT, recoveryProofMessage } from '../src/wire/custody'

const enc = new TextEncoder()
const b64url = (u: Uint8Array) => {
  let s = ''
  for (const b of u) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

async function secret(share: Uint8Array, appId: string, entropyId: string): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey('raw', share as BufferSource, 'HKDF', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: enc.encode(RECOVERY_PROOF_SALT), info: enc.encode(`${appId}|${entropyId.toLowerCase()}`) },
    ikm,
    256,
  )
  return new Uint8Array(bits)
}

/** The public key the server keeps (base64url, 32 bytes). */
export async function recoveryProofKey(share: Uint8Array, appId: string, entropyId: string): Promise<string> {
  const sk = await secret(share, appId, entropyId)
  const pk = ed25519.getPublicKey(sk)
  sk.fill(0)
  return b64url(pk)
}

/** The proof for one nonce and device (base64url signature). */
export async function recoveryProof(share: Uint8Array, p: { appId: string; entropyId: string; nonce: string; deviceId: string }): Promise<string> {
  const sk = await secret(share, p.appId, p.entropyId)
  const sig = ed25519.sign(enc.encode(recoveryProofMessage(p)), sk)
  sk.fill(0)
  return b64url(sig)
}
