/**
 * Preparing an Ethereum transaction (part 2 section 4, 'Ethereum transaction'; section 9,
 * 'Fee multipliers'): nonce, gas estimate, and fees by the chain's rule —
 * - Arbitrum: EIP-1559 with maxFeePerGas 120% of the last block's base fee (no tip);
 * - OP Stack (Optimism, Base, Zora, …): maxFeePerGas 126% of the base fee plus the priority fee;
 * - BSC: legacy (type 0) with the node's gas price;
 * - any other chain: EIP-1559 (2 × base fee + tip, as viem does) when its blocks carry a
 *   base fee, else legacy.
 * Fields the caller set are kept. A sponsored transaction shows no fee to the user.
 */
import type { Hex, PublicClient } from 'viem'

export const ARBITRUM_CHAIN_IDS = new Set([42161, 42170, 421614])
export const OP_STACK_CHAIN_IDS = new Set([10, 11155420, 8453, 84532, 7777777, 999999999, 34443, 919, 252, 2522, 690, 1135, 4202, 130, 1301, 480, 4801, 57073, 763373])
export const BSC_CHAIN_IDS = new Set([56, 97])

export type FeeRule = 'arbitrum' | 'op-stack' | 'bsc-legacy' | 'eip1559' | 'legacy'

export interface FeeFields {
  type: 'eip1559' | 'legacy'
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  gasPrice?: bigint
}

export function feeRule(chainId: number, supports1559: boolean): FeeRule {
  if (BSC_CHAIN_IDS.has(chainId)) return 'bsc-legacy'
  if (ARBITRUM_CHAIN_IDS.has(chainId)) return 'arbitrum'
  if (OP_STACK_CHAIN_IDS.has(chainId)) return 'op-stack'
  return supports1559 ? 'eip1559' : 'legacy'
}

/** Percent of a bigint, rounded up (fees are never rounded down). */
const pct = (v: bigint, p: bigint) => (v * p + 99n) / 100n

/** The fee fields a chain's rule gives for these network readings. Pure, for unit tests. */
export function computeFees(input: { chainId: number; baseFeePerGas?: bigint | null; priorityFee?: bigint; gasPrice?: bigint }): FeeFields {
  const { chainId, baseFeePerGas, priorityFee = 0n, gasPrice = 0n } = input
  const rule = feeRule(chainId, baseFeePerGas !== undefined && baseFeePerGas !== null)
  switch (rule) {
    case 'bsc-legacy':
    case 'legacy':
      return { type: 'legacy', gasPrice }
    case 'arbitrum':
      return { type: 'eip1559', maxFeePerGas: pct(baseFeePerGas ?? gasPrice, 120n), maxPriorityFeePerGas: 0n }
    case 'op-stack':
      return { type: 'eip1559', maxFeePerGas: pct(baseFeePerGas!, 126n) + priorityFee, maxPriorityFeePerGas: priorityFee }
    default:
      return { type: 'eip1559', maxFeePerGas: baseFeePerGas! * 2n + priorityFee, maxPriorityFeePerGas: priorityFee }
  }
}

export interface TxRequest {
  chainId?: number
  from?: Hex
  to?: Hex | null
  data?: Hex
  value?: bigint
  nonce?: number
  gasLimit?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  type?: 'legacy' | 'eip1559' | 'eip2930'
}

export interface PreparedTx extends TxRequest {
  chainId: number
  from: Hex
  nonce: number
  gasLimit: bigint
  value: bigint
  type: 'legacy' | 'eip1559'
}

/** The fee the user pays at most: gas × (maxFeePerGas or gasPrice). */
export const maxFee = (tx: PreparedTx) => tx.gasLimit * (tx.type === 'legacy' ? (tx.gasPrice ?? 0n) : (tx.maxFeePerGas ?? 0n))

/**
 * Fills nonce, gas and fees through the chain's RPC. `resetNonce` asks the chain again even
 * when the request carries one (a retry after a nonce error).
 */
export async function prepareTransaction(client: PublicClient, tx: TxRequest & { chainId: number; from: Hex }, options: { resetNonce?: boolean } = {}): Promise<PreparedTx> {
  const nonce =
    tx.nonce !== undefined && !options.resetNonce ? tx.nonce : await client.getTransactionCount({ address: tx.from, blockTag: 'pending' })
  const value = tx.value ?? 0n
  const gasLimit =
    tx.gasLimit ?? (await client.estimateGas({ account: tx.from, to: tx.to ?? undefined, data: tx.data, value }))
  let fees: FeeFields
  if (tx.gasPrice !== undefined && tx.maxFeePerGas === undefined) fees = { type: 'legacy', gasPrice: tx.gasPrice }
  else if (tx.maxFeePerGas !== undefined) {
    fees = { type: 'eip1559', maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n }
  } else {
    const block = await client.getBlock({ blockTag: 'latest' })
    const base = block.baseFeePerGas ?? null
    const rule = feeRule(tx.chainId, base !== null)
    const needsTip = rule === 'op-stack' || rule === 'eip1559'
    const needsPrice = rule === 'legacy' || rule === 'bsc-legacy'
    const [priorityFee, gasPrice] = await Promise.all([
      needsTip ? client.estimateMaxPriorityFeePerGas().catch(() => 0n) : Promise.resolve(0n),
      needsPrice ? client.getGasPrice() : Promise.resolve(0n),
    ])
    fees = computeFees({ chainId: tx.chainId, baseFeePerGas: base, priorityFee, gasPrice })
  }
  return { ...tx, ...fees, nonce, value, gasLimit, type: fees.type }
}
