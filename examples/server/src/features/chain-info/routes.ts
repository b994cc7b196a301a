/**
 * Chain information for the approval screens (spec part 2 section 7, 'Other provider calls'):
 * - `GET /token_price?chainId&tokenSymbol` → `{ usd }`: the token's USD price from a price
 *   source with CoinGecko's simple price API (`PORTICO_PRICE_URL`, default
 *   https://api.coingecko.com; tests and `npm start` use the local stand-in), cached 60 s.
 * - `GET /spl_token_info?mint_address&cluster` → `{ mint_address, cluster, symbol, decimals, name }`:
 *   the mint read through the cluster's JSON-RPC (getAccountInfo, jsonParsed); the symbol
 *   from a list of well-known mints plus `PORTICO_SPL_TOKENS` (JSON `{ "<mint>": "SYMBOL" }`).
 *   Cluster URLs: Solana's public endpoints, overridden or extended with
 *   `PORTICO_SOLANA_RPC_URLS` (JSON `{ "devnet": "...", "localnet": "http://127.0.0.1:8899" }`).
 * Read-only, no database. An unreachable source answers 424 (`price_unavailable`,
 * `rpc_unavailable`): the client shows no price or symbol, never an error screen.
 */
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { router } from '../../core/router'
import { noPrice, notMint, unavailable } from './errors'

export interface ChainInfoOptions {
  priceUrl: string
  solanaRpcUrls: Record<string, string>
  splTokens: Record<string, string>
  fetch: typeof fetch
  timeoutMs: number
}

export const SOLANA_CLUSTERS: Record<string, string> = {
  'mainnet-beta': 'https://api.mainnet-beta.solana.com',
  devnet: 'https://api.devnet.solana.com',
  testnet: 'https://api.testnet.solana.com',
}

/** Well-known SPL mints (USDC and USDT on mainnet, Circle's devnet USDC). */
export const KNOWN_SPL_TOKENS: Record<string, string> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: 'USDC',
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: 'USDT',
  '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU': 'USDC',
}

/** Token symbol → the price source's id. */
export const PRICE_IDS: Record<string, string> = {
  ETH: 'ethereum',
  WETH: 'ethereum',
  SOL: 'solana',
  USDC: 'usd-coin',
  USDT: 'tether',
  POL: 'polygon-ecosystem-token',
  MATIC: 'polygon-ecosystem-token',
  BNB: 'binancecoin',
  TBNB: 'binancecoin',
  AVAX: 'avalanche-2',
  CELO: 'celo',
  MNT: 'mantle',
  FTM: 'fantom',
  XDAI: 'xdai',
}

const json = (name: string): Record<string, string> => {
  const raw = process.env[name]
  if (!raw) return {}
  try {
    const v = JSON.parse(raw)
    return v && typeof v === 'object' ? v : {}
  } catch {
    return {}
  }
}

export function chainInfoOptionsFromEnv(): ChainInfoOptions {
  return {
    priceUrl: process.env.PORTICO_PRICE_URL || 'https://api.coingecko.com',
    solanaRpcUrls: { ...SOLANA_CLUSTERS, ...json('PORTICO_SOLANA_RPC_URLS') },
    splTokens: { ...KNOWN_SPL_TOKENS, ...json('PORTICO_SPL_TOKENS') },
    fetch: globalThis.fetch,
    timeoutMs: 5000,
  }
}

const SYMBOL = /^[A-Za-z0-9.]{1,16}$/
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const CACHE_MS = 60_000

export function chainInfoRoutes(ctx: ServerCtx, options: Partial<ChainInfoOptions> = {}) {
  const r = router(ctx)
  const o = { ...chainInfoOptionsFromEnv(), ...options }
  const prices = new Map<string, { usd: number; at: number }>()

  const get = async (url: string, init?: RequestInit) => {
    const res = await o.fetch(url, { ...init, signal: AbortSignal.timeout(o.timeoutMs) })
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    return res.json()
  }

  r.get('/token_price', { summary: 'Approvals: a token’s USD price (chainId, tokenSymbol)', query: { chainId: 'The chain id (decimal)', tokenSymbol: 'The token symbol' } }, async (c) => {
    const chainId = c.req.query('chainId') ?? ''
    const symbol = (c.req.query('tokenSymbol') ?? '').toUpperCase()
    if (!/^\d{1,12}$/.test(chainId)) throw errors.invalidData('chainId must be a chain id number')
    if (!SYMBOL.test(symbol)) throw errors.invalidData('tokenSymbol must be a token symbol')
    const id = PRICE_IDS[symbol]
    if (!id) throw noPrice(symbol)
    const hit = prices.get(id)
    if (hit && Date.now() - hit.at < CACHE_MS) return c.json({ usd: hit.usd })
    let usd: unknown
    try {
      const body = (await get(`${o.priceUrl.replace(/\/+$/, '')}/api/v3/simple/price?ids=${encodeURIComponent(id)}&vs_currencies=usd`)) as Record<string, { usd?: unknown }>
      usd = body?.[id]?.usd
    } catch {
      throw unavailable('price_unavailable', 'The price source could not be reached')
    }
    if (typeof usd !== 'number' || !Number.isFinite(usd)) throw noPrice(symbol)
    prices.set(id, { usd, at: Date.now() })
    return c.json({ usd })
  })

  r.get('/spl_token_info', { summary: 'Approvals: an SPL token’s symbol and decimals (mint_address, cluster)', query: { mint_address: 'The mint (base58)', cluster: 'A cluster name (default mainnet-beta)' } }, async (c) => {
    const mint = c.req.query('mint_address') ?? ''
    const cluster = c.req.query('cluster') || 'mainnet-beta'
    if (!BASE58.test(mint)) throw errors.invalidData('mint_address must be a base58 address')
    const rpc = Object.hasOwn(o.solanaRpcUrls, cluster) ? o.solanaRpcUrls[cluster] : undefined
    if (!rpc) throw errors.invalidData('Unknown cluster')
    let value: { owner?: string; data?: { program?: string; parsed?: { type?: string; info?: { decimals?: number } } } } | null
    try {
      const body = (await get(rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [mint, { encoding: 'jsonParsed' }] }),
      })) as { result?: { value?: typeof value }; error?: unknown }
      if (body.error) throw new Error('rpc error')
      value = body.result?.value ?? null
    } catch {
      throw unavailable('rpc_unavailable', 'The cluster could not be reached')
    }
    const parsed = value?.data?.parsed
    if (!value || !String(value.data?.program ?? '').startsWith('spl-token') || parsed?.type !== 'mint' || typeof parsed.info?.decimals !== 'number') {
      throw notMint()
    }
    const symbol = o.splTokens[mint] ?? null
    return c.json({ mint_address: mint, cluster, symbol, name: symbol, decimals: parsed.info.decimals })
  })
  return r.app
}
