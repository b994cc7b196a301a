/**
 * Solana transaction signing for the delegated backend API (`POST /wallets/{address}/rpc`,
 * method `signTransaction`): the frame's wire signing (frame/solana-wire.ts, @solana/web3.js
 * parses) with the wallet's ed25519 seed (@noble/curves signs). A wallet that is not one of
 * the transaction's required signers: 'Transaction does not contain public key {key}'.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { signSolanaWireWith, SolanaWireError } from '../frame/solana-wire'

export { SolanaWireError as SolanaSignError }

/** `seed`: the wallet's 32-byte ed25519 secret. Returns the signed wire transaction. */
export function signSolanaWire(wire: Uint8Array, seed: Uint8Array): Uint8Array {
  return signSolanaWireWith(wire, ed25519.getPublicKey(seed), (message) => ed25519.sign(message, seed))
}
