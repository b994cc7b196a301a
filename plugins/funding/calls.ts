/** The funding base's Portico API calls (spec part 2 section 7, 'Other provider calls'). */
import type { Api } from 'portico'

/**
 * `GET /token_price?chainId&tokenSymbol` → the token's USD price. Throws when the server has
 * none (price source unreachable or failing): the flow shows 'Unable to fetch SOL price'.
 */
export async function getTokenPrice(api: Api, chainId: number, tokenSymbol: string): Promise<number> {
  const r = await api.get<{ usd?: unknown }>(`/token_price?chainId=${encodeURIComponent(String(chainId))}&tokenSymbol=${encodeURIComponent(tokenSymbol)}`)
  if (typeof r?.usd !== 'number' || !Number.isFinite(r.usd)) throw new Error(`No price for ${tokenSymbol}`)
  return r.usd
}
