import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve } from '@hono/node-server'
import type { Store } from '../src/core/store'
import { startTestServer, type TestServer, openTestStore } from './helpers'
import { createPriceStandIn } from '../../stand-ins/price/handler'
import { startSvm, type Svm } from '../../../test/chains/svm'

let store: Store
let s: TestServer
let svm: Svm
let price: ReturnType<typeof createPriceStandIn>
let priceServer: ReturnType<typeof serve>
const saved = { ...process.env }

beforeAll(async () => {
  svm = await startSvm()
  price = createPriceStandIn()
  priceServer = serve({ fetch: price.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => priceServer.once('listening', r))
  process.env.PORTICO_PRICE_URL = `http://127.0.0.1:${(priceServer.address() as { port: number }).port}`
  process.env.PORTICO_SOLANA_RPC_URLS = JSON.stringify({ localnet: svm.rpc, 'down-cluster': 'http://127.0.0.1:9' })
  process.env.PORTICO_SPL_TOKENS = JSON.stringify({ [svm.demoMint]: 'USDC' })
  store = await openTestStore()
  s = await startTestServer(store)
})
afterAll(async () => {
  process.env = saved
  await s?.close()
  await store?.close()
  priceServer?.close()
  svm?.stop()
})

describe('GET /api/v1/token_price', () => {
  it('answers the USD price from the price source, cached', async () => {
    const r = await s.call('/api/v1/token_price?chainId=1&tokenSymbol=ETH')
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ usd: 3000 })
    const sol = await s.call('/api/v1/token_price?chainId=1&tokenSymbol=sol')
    expect(sol.body).toEqual({ usd: 150 })
    price.setPrice('ethereum', 1)
    expect((await s.call('/api/v1/token_price?chainId=31337&tokenSymbol=ETH')).body).toEqual({ usd: 3000 })
    expect(price.calls.filter((c) => c.includes('ids=ethereum'))).toHaveLength(1)
  })
  it('refuses bad input with 4xx and names an unknown token 404', async () => {
    expect((await s.call('/api/v1/token_price?chainId=x&tokenSymbol=ETH')).status).toBe(400)
    expect((await s.call('/api/v1/token_price?chainId=1')).status).toBe(400)
    expect((await s.call('/api/v1/token_price?chainId=1&tokenSymbol=%00ETH')).status).toBe(400)
    expect((await s.call('/api/v1/token_price?chainId=1&tokenSymbol=NOPE')).status).toBe(404)
    expect((await s.call('/api/v1/token_price?chainId=1&tokenSymbol=ETH', { appId: null })).status).toBe(400)
  })
})

describe('GET /api/v1/spl_token_info', () => {
  it('reads the mint through the cluster RPC: decimals, and the symbol from the known list', async () => {
    const r = await s.call(`/api/v1/spl_token_info?mint_address=${svm.demoMint}&cluster=localnet`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ mint_address: svm.demoMint, cluster: 'localnet', symbol: 'USDC', name: 'USDC', decimals: 6 })
    const other = await svm.createMint(9, 'other')
    const o = await s.call(`/api/v1/spl_token_info?mint_address=${other}&cluster=localnet`)
    expect(o.body).toMatchObject({ symbol: null, decimals: 9 })
  })
  it('404 for an address that is not a mint; 400 for bad input; 424 when the cluster is down', async () => {
    const payer = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
    expect((await s.call(`/api/v1/spl_token_info?mint_address=${payer}&cluster=localnet`)).status).toBe(404)
    expect((await s.call('/api/v1/spl_token_info?mint_address=0xabc&cluster=localnet')).status).toBe(400)
    expect((await s.call(`/api/v1/spl_token_info?mint_address=${svm.demoMint}&cluster=__proto__`)).status).toBe(400)
    expect((await s.call(`/api/v1/spl_token_info?mint_address=${svm.demoMint}&cluster=nowhere`)).status).toBe(400)
    const down = await s.call(`/api/v1/spl_token_info?mint_address=${svm.demoMint}&cluster=down-cluster`)
    expect(down.status).toBe(424)
    expect(down.body.code ?? down.body.error).toBeTruthy()
  })
})
