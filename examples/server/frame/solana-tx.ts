/** Solana transaction signing in the frame (wire bytes in, signed wire bytes out): ./solana-wire with the wallet's key. */
import './buffer-shim'
import { FrameFailure } from './context'
import type { SolanaKey } from './keys'
import { signSolanaWireWith, SolanaWireError } from './solana-wire'

export function signSolanaTransaction(wire: Uint8Array, key: SolanaKey): Uint8Array {
  try {
    return signSolanaWireWith(wire, key.publicKey, (message) => key.sign(message))
  } catch (e) {
    if (e instanceof SolanaWireError) throw new FrameFailure('invalid_request_arguments', e.message)
    throw e
  }
}
