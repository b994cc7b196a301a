/**
 * Coinbase Onramp networks and assets (spec part 2 section 5: native Ethereum, Base, Optimism,
 * Polygon, Arbitrum; USDC Ethereum, Base, Polygon, Optimism; section 9 asset ids USDC, ETH, BTC,
 * SOL, POL). Others: 'Unsupported chainId: {id} for Coinbase Onramp'.
 */
import type { ResolvedFundingRequest } from 'portico/kits/funding'

export const COINBASE_NATIVE: Record<number, { network: string; asset: string }> = {
  1: { network: 'ethereum', asset: 'ETH' },
  8453: { network: 'base', asset: 'ETH' },
  10: { network: 'optimism', asset: 'ETH' },
  137: { network: 'polygon', asset: 'POL' },
  42161: { network: 'arbitrum', asset: 'ETH' },
}
export const COINBASE_USDC: Record<number, string> = { 1: 'ethereum', 8453: 'base', 137: 'polygon', 10: 'optimism' }
export const COINBASE_ASSETS = ['USDC', 'ETH', 'BTC', 'SOL', 'POL'] as const

export type CoinbaseTarget = { network: string; asset: string } | { unsupported: number }

export function coinbaseTarget(r: Pick<ResolvedFundingRequest, 'chainType' | 'chain' | 'isUSDC' | 'erc20Address'>): CoinbaseTarget {
  if (r.chainType === 'solana') return { network: 'solana', asset: r.isUSDC ? 'USDC' : 'SOL' }
  const id = r.chain?.id ?? 1
  if (r.isUSDC) return COINBASE_USDC[id] ? { network: COINBASE_USDC[id], asset: 'USDC' } : { unsupported: id }
  if (r.erc20Address) return { unsupported: id }
  return COINBASE_NATIVE[id] ?? { unsupported: id }
}

/** buy → CARD, send → CRYPTO_ACCOUNT (spec part 2 section 7). */
export function paymentMethodFor(experience: 'buy' | 'send'): 'CARD' | 'CRYPTO_ACCOUNT' {
  return experience === 'buy' ? 'CARD' : 'CRYPTO_ACCOUNT'
}
