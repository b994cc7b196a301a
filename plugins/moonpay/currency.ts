/**
 * MoonPay currency codes (spec part 2 section 5: native Ethereum, Arbitrum, Base, Polygon; USDC
 * also Optimism; section 9: Ethereum, Arbitrum, Base, Polygon, Avalanche, Celo). An unknown
 * chain defaults to Ethereum with a warning.
 */
import type { ResolvedFundingRequest } from 'portico/kits/funding'

export const MOONPAY_NATIVE: Record<number, string> = {
  1: 'eth',
  42161: 'eth_arbitrum',
  8453: 'eth_base',
  137: 'pol_polygon',
  43114: 'avax_cchain',
  42220: 'celo',
}
export const MOONPAY_USDC: Record<number, string> = {
  1: 'usdc',
  42161: 'usdc_arbitrum',
  8453: 'usdc_base',
  137: 'usdc_polygon',
  10: 'usdc_optimism',
}

export interface MoonpayCurrency {
  code: string
  /** Set when the chain is unknown to MoonPay and the code fell back to Ethereum's. */
  defaulted?: number
}

export function moonpayCurrencyCode(r: Pick<ResolvedFundingRequest, 'chainType' | 'chain' | 'isUSDC' | 'moonpayConfigOverride'>): MoonpayCurrency {
  if (r.moonpayConfigOverride?.currencyCode) return { code: r.moonpayConfigOverride.currencyCode }
  if (r.chainType === 'solana') return { code: r.isUSDC ? 'usdc_sol' : 'sol' }
  const id = r.chain?.id ?? 1
  const table = r.isUSDC ? MOONPAY_USDC : MOONPAY_NATIVE
  const code = table[id]
  return code ? { code } : { code: table[1], defaulted: id }
}
