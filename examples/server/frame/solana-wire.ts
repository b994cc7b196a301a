/**
 * Signing a Solana wire transaction (legacy or versioned, with empty signature slots as
 * `serialize({ requireAllSignatures: false })` leaves them) for one signer, with
 * @solana/web3.js parsing it: used by the frame (`solana-tx.ts`) and by the server's delegated
 * backend API (`src/solana-sign.ts`), each with its own key and error type. The signer must be
 * one of the transaction's required signers: 'Transaction does not contain public key {key}'.
 * In the frame, `./buffer-shim` must be imported first (web3.js needs `Buffer`).
 */
import { PublicKey, Transaction, VersionedTransaction } from '@solana/web3.js'

export const SOLANA_WIRE_TEXTS = {
  missingKey: (key: string) => `Transaction does not contain public key ${key}`,
  invalid: 'Invalid transaction request',
} as const

/** Why the transaction could not be signed; `message` is the text to show. */
export class SolanaWireError extends Error {}

/** Returns the signed wire transaction; `sign` signs a message with the signer's key. */
export function signSolanaWireWith(wire: Uint8Array, publicKey: Uint8Array, sign: (message: Uint8Array) => Uint8Array): Uint8Array {
  const signer = new PublicKey(publicKey)
  const missing = () => new SolanaWireError(SOLANA_WIRE_TEXTS.missingKey(signer.toBase58()))
  let versioned: VersionedTransaction | null = null
  try {
    versioned = VersionedTransaction.deserialize(wire)
  } catch {
    versioned = null
  }
  if (versioned && versioned.version !== 'legacy') {
    const signers = versioned.message.staticAccountKeys.slice(0, versioned.message.header.numRequiredSignatures)
    if (!signers.some((k) => k.equals(signer))) throw missing()
    versioned.addSignature(signer, sign(versioned.message.serialize()))
    return versioned.serialize()
  }
  let tx: Transaction
  try {
    tx = Transaction.from(wire)
  } catch {
    throw new SolanaWireError(SOLANA_WIRE_TEXTS.invalid)
  }
  if (!tx.signatures.some((s) => s.publicKey.equals(signer))) throw missing()
  tx.addSignature(signer, Buffer.from(sign(tx.serializeMessage())))
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}
