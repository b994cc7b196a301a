/**
 * The bridge provider's quote (spec part 2 section 7 'Funding provider calls'): POST
 * {host}/execute/swap with tradeType EXACT_OUTPUT, origin and destination currencies and chain
 * ids, the amount (destination base units), user and recipient; a testnet host for testnets.
 * Returns steps[0].items[0].data: a transaction (from, to, value, chainId, data) for an EVM
 * origin, instructions (and address lookup tables) for a Solana origin. An error with a message
 * is thrown unless the message starts 'Invalid address' (then: no quote).
 */
export const SOLANA_BRIDGE_CHAIN_ID = 792703809
export const NATIVE_EVM_CURRENCY = '0x0000000000000000000000000000000000000000'
export const NATIVE_SOLANA_CURRENCY = '11111111111111111111111111111111'

export interface BridgeQuoteInput {
  user: string
  recipient: string
  originChainId: number
  destinationChainId: number
  originCurrency: string
  destinationCurrency: string
  amount: string
  tradeType: 'EXACT_OUTPUT'
}

export interface BridgeTxData {
  from: string
  to: string
  value: string
  chainId: number
  data: string
}

/** A Solana origin's deposit: instructions for the wallet's transaction (Relay's Solana step data). */
export interface BridgeSolanaData {
  instructions: { keys: { pubkey: string; isSigner: boolean; isWritable: boolean }[]; programId: string; data: string }[]
  addressLookupTableAddresses?: string[]
}

export interface BridgeQuote {
  /** An EVM origin's deposit transaction. */
  tx?: BridgeTxData
  /** A Solana origin's deposit instructions. */
  solana?: BridgeSolanaData
  /** What the deposit spends in origin base units (value, or the provider's currencyIn amount). */
  spend: bigint
  /** Total the wallet pays (formatted, origin currency). */
  total?: string
  /** Estimated fee (formatted, origin currency: gas + relayer). */
  fee?: string
}

interface SwapResponse {
  steps?: { items?: { data?: BridgeTxData | BridgeSolanaData }[] }[]
  fees?: { gas?: { amount?: string; currency?: { decimals?: number } }; relayer?: { amount?: string } }
  details?: { currencyIn?: { amount?: string; amountFormatted?: string; currency?: { decimals?: number } } }
  message?: string
}

const fmt = (units: bigint, decimals = 18) => {
  const s = units.toString().padStart(decimals + 1, '0')
  const w = s.slice(0, -decimals)
  const f = s.slice(-decimals).replace(/0+$/, '').slice(0, 6)
  return f ? `${w}.${f}` : w
}

/** null: no quote for these addresses ('Invalid address …'). Throws Error(message) for other refusals. */
export async function fetchBridgeQuote(fetchFn: typeof fetch, host: string, input: BridgeQuoteInput): Promise<BridgeQuote | null> {
  const res = await fetchFn(`${host.replace(/\/$/, '')}/execute/swap`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  })
  const body = (await res.json().catch(() => ({}))) as SwapResponse
  if (!res.ok || body.message) {
    if (body.message?.startsWith('Invalid address')) return null
    throw new Error(body.message ?? `Bridge provider answered ${res.status}`)
  }
  const data = body.steps?.[0]?.items?.[0]?.data
  if (!data) return null
  const decimals = body.fees?.gas?.currency?.decimals ?? body.details?.currencyIn?.currency?.decimals ?? (input.originChainId === SOLANA_BRIDGE_CHAIN_ID ? 9 : 18)
  let fee: string | undefined
  try {
    fee = fmt(BigInt(body.fees?.gas?.amount ?? '0') + BigInt(body.fees?.relayer?.amount ?? '0'), decimals)
  } catch {
    fee = undefined
  }
  const units = (v: string | undefined) => {
    try {
      return BigInt(v || '0')
    } catch {
      return 0n
    }
  }
  if ('instructions' in data) {
    if (!Array.isArray(data.instructions) || !data.instructions.length) return null
    const spend = units(body.details?.currencyIn?.amount)
    return { solana: data, spend, total: body.details?.currencyIn?.amountFormatted ?? fmt(spend, decimals), fee }
  }
  const spend = units(data.value)
  return { tx: data, spend, total: body.details?.currencyIn?.amountFormatted ?? fmt(spend, decimals), fee }
}
