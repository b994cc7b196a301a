/**
 * Solana transaction signing for the delegated backend API (`POST /wallets/{address}/rpc`,
 * method `signTransaction`): the frame's wire signing (frame/solana-wire.ts, @solana/web3.js
 * parses) with the wallet's ed25519 seed (@noble/curves signs). A wallet that is not one of
 * the transaction's required signers: 'Transaction does not contain public key {key}'.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { Transaction, VersionedTransaction } from '@solana/web3.js'
import { signSolanaWireWith, SolanaWireError } from '../frame/solana-wire'

export { SolanaWireError as SolanaSignError }

/** `seed`: the wallet's 32-byte ed25519 secret. Returns the signed wire transaction. */
export function signSolanaWire(wire: Uint8Array, seed: Uint8Array): Uint8Array {
  return signSolanaWireWith(wire, ed25519.getPublicKey(seed), (message) => ed25519.sign(message, seed))
}

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const u64 = (b: Uint8Array, at: number) => (at + 8 <= b.length ? new DataView(b.buffer, b.byteOffset + at, 8).getBigUint64(0, true) : null)

/**
 * What a delegation policy checks in a Solana wire transaction: the programs it invokes and the
 * lamports the System program moves out of `wallet` (transfer, transfer with seed, create
 * account, create account with seed). Throws SolanaSignError on a transaction it cannot read.
 */
export function solanaTxFacts(wire: Uint8Array, wallet: string): { programs: string[]; lamports: bigint } {
  let ixs: { program: string; accounts: string[]; data: Uint8Array }[]
  try {
    let v: VersionedTransaction | null = null
    try {
      v = VersionedTransaction.deserialize(wire)
    } catch {
      v = null
    }
    if (v && v.version !== 'legacy') {
      const keys = v.message.staticAccountKeys.map((k) => k.toBase58())
      ixs = v.message.compiledInstructions.map((ix) => ({
        program: keys[ix.programIdIndex] ?? '',
        accounts: ix.accountKeyIndexes.map((i) => keys[i] ?? ''),
        data: ix.data,
      }))
    } else {
      const tx = Transaction.from(wire)
      ixs = tx.instructions.map((ix) => ({ program: ix.programId.toBase58(), accounts: ix.keys.map((k) => k.pubkey.toBase58()), data: Uint8Array.from(ix.data) }))
    }
  } catch {
    throw new SolanaWireError('Invalid transaction request')
  }
  let lamports = 0n
  for (const ix of ixs) {
    if (ix.program !== SYSTEM_PROGRAM || ix.accounts[0] !== wallet || ix.data.length < 4) continue
    const kind = new DataView(ix.data.buffer, ix.data.byteOffset, 4).getUint32(0, true)
    let amount: bigint | null = null
    if (kind === 0 || kind === 2 || kind === 11) amount = u64(ix.data, 4) // create account, transfer, transfer with seed
    else if (kind === 3) {
      // create account with seed: base (32), seed (u64 length + bytes), lamports
      const len = u64(ix.data, 36)
      amount = len === null || len > 4096n ? null : u64(ix.data, 44 + Number(len))
    } else continue
    if (amount === null) throw new SolanaWireError('Invalid transaction request')
    lamports += amount
  }
  return { programs: [...new Set(ixs.map((i) => i.program))], lamports }
}
