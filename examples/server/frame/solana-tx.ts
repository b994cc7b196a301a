/** Solana transaction signing (wire bytes in, signed wire bytes out) with @solana/web3.js. */
import './buffer-shim'
import { PublicKey, Transaction, VersionedTransaction } from '@solana/web3.js'
import { FrameFailure } from './context'
import type { SolanaKey } from './keys'

export function signSolanaTransaction(wire: Uint8Array, key: SolanaKey): Uint8Array {
  const signer = new PublicKey(key.publicKey)
  let versioned: VersionedTransaction | null = null
  try {
    versioned = VersionedTransaction.deserialize(wire)
  } catch {
    versioned = null
  }
  if (versioned && versioned.version !== 'legacy') {
    const n = versioned.message.header.numRequiredSignatures
    const signers = versioned.message.staticAccountKeys.slice(0, n)
    if (!signers.some((k) => k.equals(signer))) throw missing(key.address)
    versioned.addSignature(signer, key.sign(versioned.message.serialize()))
    return versioned.serialize()
  }
  let tx: Transaction
  try {
    tx = Transaction.from(wire)
  } catch {
    throw new FrameFailure('invalid_request_arguments', 'Invalid transaction request')
  }
  const message = tx.serializeMessage()
  if (!tx.signatures.some((s) => s.publicKey.equals(signer))) throw missing(key.address)
  tx.addSignature(signer, Buffer.from(key.sign(message)))
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}

const missing = (address: string) => new FrameFailure('invalid_request_arguments', `Transaction does not contain public key ${address}`)
