/**
 * Solana transaction signing for the delegated backend API (`POST /wallets/{address}/rpc`,
 * method `signTransaction`): the wire transaction (legacy or versioned, with empty signature
 * slots as `serialize({ requireAllSignatures: false })` leaves them) gets the wallet's ed25519
 * signature over its message (@solana/web3.js parses, @noble/curves signs). The wallet must be
 * one of the transaction's required signers: 'Transaction does not contain public key {key}'.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { PublicKey, Transaction, VersionedTransaction } from '@solana/web3.js'

export const SOLANA_SIGN_MSG = {
  missingKey: (key: string) => `Transaction does not contain public key ${key}`,
  invalid: 'Invalid transaction request',
} as const

export class SolanaSignError extends Error {}

/** `seed`: the wallet's 32-byte ed25519 secret. Returns the signed wire transaction. */
export function signSolanaWire(wire: Uint8Array, seed: Uint8Array): Uint8Array {
  const signer = new PublicKey(ed25519.getPublicKey(seed))
  let versioned: VersionedTransaction | null = null
  try {
    versioned = VersionedTransaction.deserialize(wire)
  } catch {
    versioned = null
  }
  if (versioned && versioned.version !== 'legacy') {
    const signers = versioned.message.staticAccountKeys.slice(0, versioned.message.header.numRequiredSignatures)
    if (!signers.some((k) => k.equals(signer))) throw new SolanaSignError(SOLANA_SIGN_MSG.missingKey(signer.toBase58()))
    versioned.addSignature(signer, ed25519.sign(versioned.message.serialize(), seed))
    return versioned.serialize()
  }
  let tx: Transaction
  try {
    tx = Transaction.from(wire)
  } catch {
    throw new SolanaSignError(SOLANA_SIGN_MSG.invalid)
  }
  if (!tx.signatures.some((s) => s.publicKey.equals(signer))) throw new SolanaSignError(SOLANA_SIGN_MSG.missingKey(signer.toBase58()))
  tx.addSignature(signer, Buffer.from(ed25519.sign(tx.serializeMessage(), seed)))
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}
