/**
 * Request validation (part 2 section 5, wallet rules): the message must be a non-empty string;
 * the chain must be configured; numeric fields must be a number, bigint or hex string (the
 * error names the property); chainId a number, defaulting to the wallet's chain.
 */
import { PorticoError } from 'portico'
import { APPROVALS_TEXTS } from './strings'
import type { TxRequest } from './fees'

export const NUMERIC_FIELDS = ['gasLimit', 'gasPrice', 'value', 'maxPriorityFeePerGas', 'maxFeePerGas'] as const

const invalid = (message: string, code = 'invalid_transaction_request') => new PorticoError(code, message, { kind: 'client_error' })

const HEX = /^0x[0-9a-fA-F]*$/

/** number | bigint | hex string → bigint, else undefined. */
export function toBigInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v)
  if (typeof v === 'string' && HEX.test(v)) return v === '0x' ? 0n : BigInt(v)
  return undefined
}

export function validateMessage(message: unknown): string {
  if (typeof message !== 'string' || message.length === 0) throw invalid(APPROVALS_TEXTS.messageEmpty, 'INVALID_MESSAGE')
  return message
}

const fmt = (t: string, v: Record<string, string | number>) => t.replace(/\{(\w+)\}/g, (_, k) => String(v[k] ?? `{${k}}`))

/**
 * Checks and normalises an EIP-1193 transaction request (`gas` is taken as `gasLimit`).
 * `chainIds` is the configured chain list; `defaultChainId` the wallet's current chain.
 */
export function validateTransactionRequest(raw: unknown, chainIds: number[], defaultChainId: number): TxRequest & { chainId: number } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(APPROVALS_TEXTS.invalidRequest)
  const r = raw as Record<string, unknown>
  let chainId = defaultChainId
  if (r.chainId !== undefined && r.chainId !== null) {
    const c = typeof r.chainId === 'string' && HEX.test(r.chainId) ? Number(BigInt(r.chainId)) : r.chainId
    if (typeof c !== 'number' || !Number.isInteger(c)) throw invalid(fmt(APPROVALS_TEXTS.notNumeric, { property: 'chainId' }))
    chainId = c
  }
  if (!chainIds.includes(chainId)) throw invalid(fmt(APPROVALS_TEXTS.chainNotSupported, { id: chainId }), 'UNSUPPORTED_CHAIN_ID')
  const out: TxRequest & { chainId: number } = { chainId }
  const fields: Record<string, unknown> = { ...r }
  if (fields.gasLimit === undefined && fields.gas !== undefined) fields.gasLimit = fields.gas
  for (const f of NUMERIC_FIELDS) {
    if (fields[f] === undefined || fields[f] === null) continue
    const v = toBigInt(fields[f])
    if (v === undefined) throw invalid(fmt(APPROVALS_TEXTS.notNumeric, { property: f }))
    out[f] = v
  }
  if (r.nonce !== undefined && r.nonce !== null) {
    const n = toBigInt(r.nonce)
    if (n === undefined) throw invalid(fmt(APPROVALS_TEXTS.notNumeric, { property: 'nonce' }))
    out.nonce = Number(n)
  }
  const addr = /^0x[0-9a-fA-F]{40}$/
  if (r.to !== undefined && r.to !== null && (typeof r.to !== 'string' || !addr.test(r.to))) throw invalid(APPROVALS_TEXTS.invalidRequest)
  if (r.from !== undefined && r.from !== null && (typeof r.from !== 'string' || !addr.test(r.from))) throw invalid(APPROVALS_TEXTS.invalidRequest)
  if (r.data !== undefined && r.data !== null && (typeof r.data !== 'string' || !HEX.test(r.data))) throw invalid(APPROVALS_TEXTS.invalidRequest)
  if (r.to) out.to = r.to as `0x${string}`
  if (r.from) out.from = r.from as `0x${string}`
  if (r.data) out.data = r.data as `0x${string}`
  if (!out.to && !out.data) throw invalid(APPROVALS_TEXTS.invalidRequest)
  return out
}

/** The signing address must be the wallet's ('Cannot request a signature with this wallet address'). */
export function assertSameAddress(requested: unknown, wallet: string): void {
  if (requested === undefined || requested === null) return
  if (typeof requested !== 'string' || requested.toLowerCase() !== wallet.toLowerCase()) {
    throw invalid(APPROVALS_TEXTS.wrongAddress, 'UNABLE_TO_SIGN')
  }
}
