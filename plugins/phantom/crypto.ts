/**
 * Phantom's deep-link encryption (its documented protocol: "NaCl box"): an x25519 key
 * agreement, the HSalsa20 box key (what NaCl's `crypto_box_beforenm` computes) and
 * XSalsa20-Poly1305, from @noble/curves and @noble/ciphers; base58 from @scure/base. Loaded
 * only when the user picks Phantom or comes back from it.
 */
import { x25519 } from '@noble/curves/ed25519.js'
import { hsalsa, xsalsa20poly1305 } from '@noble/ciphers/salsa.js'
import { randomBytes } from '@noble/ciphers/utils.js'
import { base58 } from '@scure/base'

export { base58 }

/** "expand 32-byte k", the Salsa20 constant (NaCl's sigma). */
const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574])

const words = (bytes: Uint8Array) => {
  const out = new Uint32Array(bytes.length / 4)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true)
  return out
}
const bytesOf = (w: Uint32Array) => {
  const out = new Uint8Array(w.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < w.length; i++) view.setUint32(i * 4, w[i], true)
  return out
}

export interface BoxKeyPair {
  publicKey: Uint8Array
  secretKey: Uint8Array
}

/** A fresh x25519 key pair (the dapp's encryption key of one deep-link session). */
export function boxKeyPair(): BoxKeyPair {
  const secretKey = x25519.utils.randomSecretKey()
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) }
}

/** NaCl `box.before`: HSalsa20 over the x25519 shared secret, with a zero input. */
export function boxBefore(theirPublicKey: Uint8Array, mySecretKey: Uint8Array): Uint8Array {
  const shared = x25519.getSharedSecret(mySecretKey, theirPublicKey)
  const out = new Uint32Array(8)
  hsalsa(SIGMA, words(shared), new Uint32Array(4), out)
  return bytesOf(out)
}

/** Encrypt a JSON payload for the other side: `{ nonce, payload }` in base58. */
export function sealJson(value: unknown, sharedKey: Uint8Array): { nonce: string; payload: string } {
  const nonce = randomBytes(24)
  const box = xsalsa20poly1305(sharedKey, nonce).encrypt(new TextEncoder().encode(JSON.stringify(value)))
  return { nonce: base58.encode(nonce), payload: base58.encode(box) }
}

/** Decrypt the other side's `data` (base58) with its `nonce` (base58); throws when forged. */
export function openJson<T>(data: string, nonce: string, sharedKey: Uint8Array): T {
  const plain = xsalsa20poly1305(sharedKey, base58.decode(nonce)).decrypt(base58.decode(data))
  return JSON.parse(new TextDecoder().decode(plain)) as T
}
