/**
 * A local stand-in of the price source the server's `/token_price` asks: CoinGecko's public
 * `GET /api/v3/simple/price?ids=ethereum,solana&vs_currencies=usd` →
 * `{ "ethereum": { "usd": 3000 } }` (ids it does not know are left out, as CoinGecko does).
 * Prices are fixed demo values, changeable with `setPrice` (tests).
 */
export const DEMO_PRICES: Record<string, number> = {
  ethereum: 3000,
  solana: 150,
  'usd-coin': 1,
  tether: 1,
  'polygon-ecosystem-token': 0.5,
  binancecoin: 600,
  'avalanche-2': 30,
  celo: 0.6,
  mantle: 0.8,
  fantom: 0.7,
  xdai: 1,
}

export function createPriceStandIn(prices: Record<string, number> = { ...DEMO_PRICES }) {
  const calls: string[] = []
  return {
    prices,
    calls,
    setPrice: (id: string, usd: number) => void (prices[id] = usd),
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url)
      calls.push(url.pathname + url.search)
      if (url.pathname !== '/api/v3/simple/price') return Response.json({ error: 'not found' }, { status: 404 })
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean)
      const vs = url.searchParams.get('vs_currencies') ?? 'usd'
      if (!ids.length) return Response.json({ error: 'missing ids' }, { status: 400 })
      const out: Record<string, Record<string, number>> = {}
      for (const id of ids) if (prices[id] !== undefined && vs === 'usd') out[id] = { usd: prices[id] }
      return Response.json(out)
    },
  }
}
