/**
 * The bridge provider's quote (spec part 2 section 7 'Funding provider calls'): POST
 * {host}/execute/swap with tradeType EXACT_OUTPUT, origin and destination currencies and chain
 * ids, the amount (destination base units), user and recipient; a testnet host for testnets.
 * Returns steps[0].items[0].data. An error with a message is thrown unless the message starts
 * 'Invalid address' (then: no quote).
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

export interface BridgeQuote {
  tx: BridgeTxData
  /** Total the wallet pays (formatted, origin currency). */
  total?: string
  /** Estimated fee (formatted, origin currency: gas + relayer). */
  fee?: string
}

interface SwapResponse {
  steps?: { items?: { data?: BridgeTxData }[] }[]
  fees?: { gas?: { amount?: string }; relayer?: { amount?: string } }
  details?: { currencyIn?: { amountFormatted?: string } }
  message?: string
}

const fmt = (wei: bigint) => {
  const s = wei.toString().padStart(19, '0')
  const w = s.slice(0, -18)
  const f = s.slice(-18).replace(/0+$/, '').slice(0, 6)
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
  const tx = body.steps?.[0]?.items?.[0]?.data
  if (!tx) return null
  let fee: string | undefined
  try {
    fee = fmt(BigInt(body.fees?.gas?.amount ?? '0') + BigInt(body.fees?.relayer?.amount ?? '0'))
  } catch {
    fee = undefined
  }
  return { tx, total: body.details?.currencyIn?.amountFormatted ?? fmt(BigInt(tx.value || '0')), fee }
}
