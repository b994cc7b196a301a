/**
 * Solana transactions (part 2 section 3, 'Solana instruction'; section 4 'Solana
 * transaction'), with `@solana/web3.js` (loaded lazily): instructions parsed into
 * sol-transfer, spl-transfer (token symbol, address and decimals from `spl_token_info`) or
 * unknown; fee for the message, simulation, send raw, confirm by polling signature statuses,
 * then the parsed transaction (maxSupportedTransactionVersion 0). Reads that fail yield null.
 */
import {
  Connection,
  PublicKey,
  SystemInstruction,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
  type ParsedTransactionWithMeta,
} from '@solana/web3.js'
import { PorticoError } from 'portico'
import { APPROVALS_TEXTS } from './strings'

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EHFLwz3dq8RpwFq9YAcHC'

export interface TokenInfo {
  symbol: string
  address: string
  decimals: number
}

export type SolanaInstruction =
  | { type: 'sol-transfer'; fromAccount: string; toAccount: string; value: bigint }
  | { type: 'spl-transfer'; fromAccount: string; fromAta: string; toAta: string; toAccount?: string; token: TokenInfo; value: bigint }
  | { type: 'unknown'; programId: string }

/** Deserialises a wire transaction (versioned or legacy). */
export function deserializeTransaction(bytes: Uint8Array): VersionedTransaction {
  try {
    return VersionedTransaction.deserialize(bytes)
  } catch {
    return new VersionedTransaction(Transaction.from(bytes).compileMessage())
  }
}

/** 'Transaction does not contain public key {key}' unless the wallet's key is among the accounts. */
export function assertContainsKey(tx: VersionedTransaction, key: string): void {
  if (!tx.message.staticAccountKeys.some((k) => k.toBase58() === key)) {
    throw new PorticoError('UNABLE_TO_SIGN', APPROVALS_TEXTS.missingPublicKey.replace('{key}', key), { kind: 'client_error' })
  }
}

export function instructionsOf(tx: VersionedTransaction): TransactionInstruction[] {
  return TransactionMessage.decompile(tx.message).instructions
}

const u64 = (data: Uint8Array, offset: number) => new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)

/** The raw shape of one instruction, before token information is looked up. Pure. */
export function classifyInstruction(ix: TransactionInstruction):
  | { type: 'sol-transfer'; fromAccount: string; toAccount: string; value: bigint }
  | { type: 'spl-transfer'; fromAta: string; toAta: string; owner: string; mint?: string; decimals?: number; value: bigint }
  | { type: 'unknown'; programId: string } {
  const program = ix.programId.toBase58()
  if (ix.programId.equals(SystemProgram.programId)) {
    try {
      if (SystemInstruction.decodeInstructionType(ix) === 'Transfer') {
        const t = SystemInstruction.decodeTransfer(ix)
        return { type: 'sol-transfer', fromAccount: t.fromPubkey.toBase58(), toAccount: t.toPubkey.toBase58(), value: t.lamports }
      }
    } catch {
      /* not a transfer */
    }
  }
  if ((program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM) && ix.data.length >= 9) {
    const k = ix.keys.map((x) => x.pubkey.toBase58())
    // Transfer (3): [source, destination, owner]; TransferChecked (12): [source, mint, destination, owner] + decimals.
    if (ix.data[0] === 3 && k.length >= 3) return { type: 'spl-transfer', fromAta: k[0], toAta: k[1], owner: k[2], value: u64(ix.data, 1) }
    if (ix.data[0] === 12 && ix.data.length >= 10 && k.length >= 4) {
      return { type: 'spl-transfer', fromAta: k[0], mint: k[1], toAta: k[2], owner: k[3], value: u64(ix.data, 1), decimals: ix.data[9] }
    }
  }
  return { type: 'unknown', programId: program }
}

export interface SolanaReads {
  /** The mint of a token account (jsonParsed getAccountInfo), or null. */
  mintOf(ata: string): Promise<string | null>
  /** The owner of a token account, or null. */
  ownerOf(ata: string): Promise<string | null>
  /** `GET /spl_token_info` for a mint. */
  tokenInfo(mint: string): Promise<TokenInfo | null>
}

/** Parses every instruction, looking token details up where needed. */
export async function parseInstructions(tx: VersionedTransaction, reads: SolanaReads): Promise<SolanaInstruction[]> {
  const out: SolanaInstruction[] = []
  for (const ix of instructionsOf(tx)) {
    const c = classifyInstruction(ix)
    if (c.type !== 'spl-transfer') {
      out.push(c)
      continue
    }
    const mint = c.mint ?? (await reads.mintOf(c.fromAta))
    const info = mint ? await reads.tokenInfo(mint) : null
    const toAccount = (await reads.ownerOf(c.toAta)) ?? undefined
    out.push({
      type: 'spl-transfer',
      fromAccount: c.owner,
      fromAta: c.fromAta,
      toAta: c.toAta,
      ...(toAccount ? { toAccount } : {}),
      token: { symbol: info?.symbol ?? '', address: mint ?? '', decimals: info?.decimals ?? c.decimals ?? 0 },
      value: c.value,
    })
  }
  return out
}

/** Chain reads through a cluster's JSON-RPC; every read that fails yields null. */
export function solanaReads(connection: Connection, tokenInfo: (mint: string) => Promise<TokenInfo | null>): SolanaReads {
  const parsed = async (ata: string) => {
    try {
      const r = await connection.getParsedAccountInfo(new PublicKey(ata))
      const d = r.value?.data as { parsed?: { info?: { mint?: string; owner?: string } } } | undefined
      return d?.parsed?.info ?? null
    } catch {
      return null
    }
  }
  return {
    mintOf: async (ata) => (await parsed(ata))?.mint ?? null,
    ownerOf: async (ata) => (await parsed(ata))?.owner ?? null,
    tokenInfo,
  }
}

export async function feeFor(connection: Connection, tx: VersionedTransaction): Promise<bigint | null> {
  try {
    const r = await connection.getFeeForMessage(tx.message)
    return r.value === null ? null : BigInt(r.value)
  } catch {
    return null
  }
}

export async function balanceOf(connection: Connection, address: string): Promise<bigint | null> {
  try {
    return BigInt(await connection.getBalance(new PublicKey(address)))
  } catch {
    return null
  }
}

export async function simulate(connection: Connection, tx: VersionedTransaction): Promise<{ err: unknown; logs: string[] } | null> {
  try {
    const r = await connection.simulateTransaction(tx, { sigVerify: false, replaceRecentBlockhash: true })
    return { err: r.value.err, logs: r.value.logs ?? [] }
  } catch {
    return null
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Sets a fresh blockhash (retry): the message must be signed again afterwards. Fresh means
 * another than the one the failed attempt carried: the same blockhash would sign the same bytes
 * again (the same signature, refused as already processed), so while the cluster's latest is
 * still that one, it waits for the next slot (a few tries, `pollMs` apart).
 */
export async function refreshBlockhash(
  connection: Pick<Connection, 'getLatestBlockhash'>,
  tx: VersionedTransaction,
  options: { pollMs?: number; tries?: number } = {},
): Promise<VersionedTransaction> {
  const previous = tx.message.recentBlockhash
  let { blockhash } = await connection.getLatestBlockhash()
  for (let i = 1; blockhash === previous && i < (options.tries ?? 10); i++) {
    await sleep(options.pollMs ?? 400)
    ;({ blockhash } = await connection.getLatestBlockhash())
  }
  tx.message.recentBlockhash = blockhash
  return new VersionedTransaction(tx.message)
}

export class SolanaSendError extends Error {
  constructor(
    message: string,
    readonly txSignature?: string,
    readonly logs: string[] = [],
  ) {
    super(message)
    this.name = 'SolanaSendError'
  }
}

/** Sends the signed transaction raw, confirms (signature statuses) and fetches the parsed transaction. */
export async function sendAndConfirm(
  connection: Connection,
  signed: Uint8Array,
  options: { timeoutMs?: number; onSent?: (signature: string) => void } = {},
): Promise<{ signature: string; receipt: ParsedTransactionWithMeta | null }> {
  let signature: string
  try {
    signature = await connection.sendRawTransaction(signed, { skipPreflight: false })
  } catch (e) {
    const err = e as { message?: string; logs?: string[]; transactionLogs?: string[] }
    throw new SolanaSendError(err.message ?? String(e), undefined, err.logs ?? err.transactionLogs ?? [])
  }
  options.onSent?.(signature)
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (let delay = 200; ; delay = Math.min(delay * 2, 2000)) {
    const st = (await connection.getSignatureStatuses([signature])).value[0]
    if (st?.err) {
      const receipt = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 }).catch(() => null)
      throw new SolanaSendError(JSON.stringify(st.err), signature, receipt?.meta?.logMessages ?? [])
    }
    if (st && (st.confirmationStatus === 'confirmed' || st.confirmationStatus === 'finalized')) break
    if (Date.now() > deadline) throw new SolanaSendError('Transaction was not confirmed in time', signature)
    await sleep(delay)
  }
  const receipt = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 }).catch(() => null)
  return { signature, receipt }
}

export { Connection, VersionedTransaction }
