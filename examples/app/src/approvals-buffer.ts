/** @solana/web3.js expects Node's `Buffer` in the page (loaded with the Solana buttons only). */
import { Buffer } from 'buffer'

/** Installs `Buffer` on the page when it has none (a call, not an import side effect: the package marks modules side-effect free). */
export function ensureBuffer(): typeof Buffer {
  const g = globalThis as { Buffer?: typeof Buffer }
  g.Buffer ??= Buffer
  return g.Buffer
}

export { PublicKey, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js'
