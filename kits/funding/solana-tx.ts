/**
 * Solana transactions for funding, loaded lazily (with @solana/web3.js) only when a Solana
 * wallet sends: a SOL transfer, or a transaction from a bridge provider's instructions
 * (Relay's Solana step data: `instructions[{ keys[{ pubkey, isSigner, isWritable }],
 * programId, data (hex) }]`, `addressLookupTableAddresses[]`). The wallet signs the bytes;
 * nothing here holds a key.
 */
import { Buffer } from 'buffer'
import {
  AddressLookupTableAccount,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { base58 } from '@scure/base'

/** @solana/web3.js expects Node's `Buffer` in the page: the `buffer` package stands in (a call, not an import side effect). */
function ensureBuffer(): void {
  const g = globalThis as { Buffer?: typeof Buffer }
  g.Buffer ??= Buffer
}

export interface RelaySolanaInstruction {
  keys: { pubkey: string; isSigner: boolean; isWritable: boolean }[]
  programId: string
  /** Hex (with or without 0x). */
  data: string
}

export interface RelaySolanaStepData {
  instructions: RelaySolanaInstruction[]
  addressLookupTableAddresses?: string[]
}

/** A legacy transaction moving `lamports` from `from` to `to`, unsigned (the wallet signs). */
export function solTransferTransaction(o: { from: string; to: string; lamports: bigint; blockhash: string }): Uint8Array {
  ensureBuffer()
  const payerKey = new PublicKey(o.from)
  const message = new TransactionMessage({
    payerKey,
    recentBlockhash: o.blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: payerKey, toPubkey: new PublicKey(o.to), lamports: o.lamports })],
  }).compileToLegacyMessage()
  return new VersionedTransaction(message).serialize()
}

/**
 * A transaction from a bridge provider's instructions, unsigned: v0 with the step's address
 * lookup tables (their accounts read by `lookupTable`), legacy when there are none.
 */
export async function instructionsTransaction(o: {
  payer: string
  step: RelaySolanaStepData
  blockhash: string
  lookupTable?: (address: string) => Promise<AddressLookupTableAccount | null>
}): Promise<Uint8Array> {
  ensureBuffer()
  const instructions = o.step.instructions.map(
    (i) =>
      new TransactionInstruction({
        programId: new PublicKey(i.programId),
        keys: i.keys.map((k) => ({ pubkey: new PublicKey(k.pubkey), isSigner: !!k.isSigner, isWritable: !!k.isWritable })),
        data: Buffer.from(i.data.replace(/^0x/, ''), 'hex'),
      }),
  )
  const message = new TransactionMessage({ payerKey: new PublicKey(o.payer), recentBlockhash: o.blockhash, instructions })
  const tables = o.step.addressLookupTableAddresses ?? []
  if (!tables.length) return new VersionedTransaction(message.compileToLegacyMessage()).serialize()
  const accounts = (await Promise.all(tables.map((a) => o.lookupTable?.(a) ?? Promise.resolve(null)))).filter((a): a is AddressLookupTableAccount => !!a)
  return new VersionedTransaction(message.compileToV0Message(accounts)).serialize()
}

/** Reads an address lookup table through the cluster's JSON-RPC (`getAccountInfo`, base64). */
export function lookupTableReader(call: <T>(method: string, params: unknown[]) => Promise<T>) {
  return async (address: string): Promise<AddressLookupTableAccount | null> => {
    ensureBuffer()
    const r = await call<{ value: { data: [string, string] } | null }>('getAccountInfo', [address, { encoding: 'base64', commitment: 'confirmed' }])
    if (!r?.value) return null
    const state = AddressLookupTableAccount.deserialize(Buffer.from(r.value.data[0], 'base64'))
    return new AddressLookupTableAccount({ key: new PublicKey(address), state })
  }
}

/** A signature as the RPC names it (base58). */
export const signatureToString = (signature: Uint8Array): string => base58.encode(signature)
export const signatureFromString = (signature: string): Uint8Array => base58.decode(signature)

/** Base64 for the RPC's `sendTransaction` (encoding base64). */
export function toBase64(bytes: Uint8Array): string {
  ensureBuffer()
  return Buffer.from(bytes).toString('base64')
}
