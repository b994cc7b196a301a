/**
 * wallets:import, parsing the key the user pastes: Ethereum 0x-hex (a valid secp256k1
 * scalar); Solana base58 of the 64-byte secret key (seed then public key, checked against
 * each other) or of the 32-byte seed, or the JSON byte array `solana-keygen` writes. Returns
 * the 32 bytes the frame splits into shares; anything else is refused with the frame's text.
 */
import { base58 } from '@scure/base'
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import type { ChainType } from '../src/wire/frame'
import { FRAME_TEXTS, FrameFailure } from './context'

const bad = (chainType: ChainType) => new FrameFailure('invalid_request_arguments', chainType === 'ethereum' ? FRAME_TEXTS.invalidEthereumKey : FRAME_TEXTS.invalidSolanaKey)

export function parseImportedKey(chainType: ChainType, input: unknown): Uint8Array {
  if (typeof input !== 'string' || input.length > 512) throw bad(chainType)
  const raw = input.trim()
  if (chainType === 'ethereum') {
    const m = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(raw)
    if (!m) throw bad(chainType)
    const key = Uint8Array.from(m[1].match(/../g)!, (h) => parseInt(h, 16))
    if (!secp256k1.utils.isValidSecretKey(key)) throw bad(chainType)
    return key
  }
  let bytes: Uint8Array
  try {
    if (raw.startsWith('[')) {
      const list = JSON.parse(raw) as unknown
      if (!Array.isArray(list) || !list.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) throw bad(chainType)
      bytes = Uint8Array.from(list as number[])
    } else bytes = base58.decode(raw)
  } catch {
    throw bad(chainType)
  }
  if (bytes.length === 32) return bytes
  if (bytes.length !== 64) throw bad(chainType)
  const seed = bytes.slice(0, 32)
  const pub = ed25519.getPublicKey(seed)
  if (!pub.every((b, i) => b === bytes[32 + i])) throw bad(chainType)
  bytes.fill(0)
  return seed
}
