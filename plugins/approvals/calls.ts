/**
 * The approvals plugin's Portico API calls (spec part 2 section 7, 'Other provider calls').
 * Both answer null when the server has no answer (no price, unknown mint, source down).
 */
import type { Api } from 'portico'

/** `GET /token_price?chainId&tokenSymbol` → the token's USD price, or null. */
export async function getTokenPrice(api: Api, chainId: number | string, tokenSymbol: string): Promise<number | null> {
  try {
    const r = await api.get<{ usd?: unknown }>(`/token_price?chainId=${encodeURIComponent(String(chainId))}&tokenSymbol=${encodeURIComponent(tokenSymbol)}`)
    return typeof r?.usd === 'number' ? r.usd : null
  } catch {
    return null
  }
}

export interface SplTokenInfo {
  mint_address: string
  cluster: string
  symbol: string | null
  decimals: number
}

/** `GET /spl_token_info?mint_address&cluster` → symbol and decimals of an SPL mint, or null. */
export async function getSplTokenInfo(api: Api, mintAddress: string, cluster: string): Promise<SplTokenInfo | null> {
  try {
    return await api.get<SplTokenInfo>(`/spl_token_info?mint_address=${encodeURIComponent(mintAddress)}&cluster=${encodeURIComponent(cluster)}`)
  } catch {
    return null
  }
}
