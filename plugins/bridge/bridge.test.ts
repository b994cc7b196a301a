import { describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract } from 'portico/testing'
import { funding } from 'portico/plugins/funding'
import { listFundingMethods, resolveRequest, type FundingChain } from 'portico/kits/funding'
import { bridge, bridgeSupported } from './index'
import { BRIDGE_TEXTS } from './strings'
import { fetchBridgeQuote, SOLANA_BRIDGE_CHAIN_ID } from './calls'
import { bridgeHost, quoteInput, solanaSourceChain } from './quote'

pluginContract(() => bridge({ chains: [] }))

const chain = (id: number, testnet = false): FundingChain => ({ id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://x'] } }, testnet })
const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH'
const USER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('quote', () => {
  it('EXACT_OUTPUT with the spec payload; Solana destination chain id 792703809', () => {
    const r = resolveRequest({ address: SOL, chainType: 'solana', amount: '0.5' }, null)
    expect(quoteInput(r, chain(8453), USER, 500_000_000n)).toEqual({
      user: USER,
      recipient: SOL,
      originChainId: 8453,
      destinationChainId: SOLANA_BRIDGE_CHAIN_ID,
      originCurrency: '0x0000000000000000000000000000000000000000',
      destinationCurrency: '11111111111111111111111111111111',
      amount: '500000000',
      tradeType: 'EXACT_OUTPUT',
    })
    const evm = resolveRequest({ address: EVM, chain: chain(10) }, null)
    expect(quoteInput(evm, chain(8453), USER, 1n)).toMatchObject({ destinationChainId: 10, destinationCurrency: '0x0000000000000000000000000000000000000000' })
  })
  it('a testnet host for testnets', () => {
    const r = resolveRequest({ address: EVM, chain: chain(84532, true) }, null)
    const urls = { api_url: 'https://main.test', testnet_api_url: 'https://testnets.test' }
    expect(bridgeHost(r, chain(11155111, true), urls)).toBe('https://testnets.test')
    expect(bridgeHost(resolveRequest({ address: EVM, chain: chain(10) }, null), chain(8453), urls)).toBe('https://main.test')
    expect(bridgeHost(resolveRequest({ address: EVM, chain: chain(10) }, null), chain(8453), null)).toBe('https://api.relay.link')
  })
  it('not for Solana testnet or devnet', () => {
    expect(bridgeSupported(resolveRequest({ address: SOL, cluster: { name: 'devnet' } }, null))).toBe(false)
    expect(bridgeSupported(resolveRequest({ address: SOL, cluster: { name: 'testnet' } }, null))).toBe(false)
    expect(bridgeSupported(resolveRequest({ address: SOL, cluster: { name: 'mainnet-beta' } }, null))).toBe(true)
  })
  it('reads steps[0].items[0].data; errors with a message throw unless it starts "Invalid address"', async () => {
    const reply = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status }))
    const data = { from: USER, to: EVM, value: '1000', chainId: 8453, data: '0x01' }
    const ok = reply(200, { steps: [{ items: [{ data }] }], fees: { gas: { amount: '21000000000000' }, relayer: { amount: '100000000000000' } }, details: { currencyIn: { amountFormatted: '0.0501' } } })
    const input = quoteInput(resolveRequest({ address: EVM, chain: chain(10) }, null), chain(8453), USER, 1000n)
    expect(await fetchBridgeQuote(ok as never, 'https://relay.test/', input)).toEqual({ tx: data, spend: 1000n, total: '0.0501', fee: '0.000121' })
    expect((ok.mock.calls[0] as unknown as [string])[0]).toBe('https://relay.test/execute/swap')
    expect(JSON.parse((ok.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual(input)
    expect(await fetchBridgeQuote(reply(400, { message: 'Invalid address for recipient' }) as never, 'h', input)).toBeNull()
    await expect(fetchBridgeQuote(reply(400, { message: 'Insufficient liquidity' }) as never, 'h', input)).rejects.toThrow('Insufficient liquidity')
    expect(BRIDGE_TEXTS.unableToFetchQuotes).toBe('Unable to fetch quotes for bridging')
    expect(BRIDGE_TEXTS.quoteError).toBe('Error fetching quote from relay')
  })
})

it('is offered when bridging is enabled, with other networks to come from', async () => {
  const t = await createTestKernel({ plugins: [funding(), bridge({ chains: [chain(8453), chain(10)] })], app: { funding_config: { methods: ['wallet'] } } as never })
  const ids = (r: Parameters<typeof listFundingMethods>[1]) => listFundingMethods(t.kernel, r, { methods: ['wallet'] }).map((m) => m.method.id)
  expect(ids(resolveRequest({ address: EVM, chain: chain(10) }, null))).toEqual(['funding-wallet'])
  expect(ids(resolveRequest({ address: EVM, chain: chain(10), crossChainBridgingEnabled: true }, null))).toEqual(['funding-wallet', 'bridge'])
  expect(ids(resolveRequest({ address: SOL, cluster: { name: 'devnet' }, crossChainBridgingEnabled: true }, null))).toEqual(['funding-wallet'])
})

describe('from Solana', () => {
  const SOL_USER = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW'
  it('the quote names the Solana origin: chain id 792703809 and native SOL', () => {
    const r = resolveRequest({ address: EVM, chain: chain(8453) }, null)
    expect(quoteInput(r, solanaSourceChain({ rpcUrl: 'http://svm.test' }), SOL_USER, 10n ** 16n)).toEqual({
      user: SOL_USER,
      recipient: EVM,
      originChainId: SOLANA_BRIDGE_CHAIN_ID,
      destinationChainId: 8453,
      originCurrency: '11111111111111111111111111111111',
      destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: '10000000000000000',
      tradeType: 'EXACT_OUTPUT',
    })
    expect(solanaSourceChain({}).rpcUrls.default.http[0]).toBe('https://api.mainnet-beta.solana.com')
  })
  it("reads a Solana step's instructions, what it spends and the fee in SOL", async () => {
    const data = { instructions: [{ keys: [{ pubkey: SOL_USER, isSigner: true, isWritable: true }], programId: '11111111111111111111111111111111', data: '02000000' }], addressLookupTableAddresses: [] }
    const body = {
      steps: [{ items: [{ data }] }],
      fees: { gas: { currency: { decimals: 9 }, amount: '5000' }, relayer: { currency: { decimals: 9 }, amount: '1000000' } },
      details: { currencyIn: { amount: '401000000', amountFormatted: '0.401', currency: { decimals: 9 } } },
    }
    const f = vi.fn(async () => new Response(JSON.stringify(body)))
    const input = quoteInput(resolveRequest({ address: EVM, chain: chain(8453) }, null), solanaSourceChain({}), SOL_USER, 1n)
    expect(await fetchBridgeQuote(f as never, 'h', input)).toEqual({ solana: data, spend: 401_000_000n, total: '0.401', fee: '0.001005' })
    const empty = vi.fn(async () => new Response(JSON.stringify({ steps: [{ items: [{ data: { instructions: [] } }] }] })))
    expect(await fetchBridgeQuote(empty as never, 'h', input)).toBeNull()
  })
  it('is offered for EVM destinations with solanaSource on, even without other EVM networks', async () => {
    const t = await createTestKernel({ plugins: [funding(), bridge({ chains: [], solanaSource: {} })], app: { funding_config: { methods: ['wallet'] } } as never })
    const ids = (r: Parameters<typeof listFundingMethods>[1]) => listFundingMethods(t.kernel, r, { methods: ['wallet'] }).map((m) => m.method.id)
    expect(ids(resolveRequest({ address: EVM, chain: chain(10), crossChainBridgingEnabled: true }, null))).toEqual(['funding-wallet', 'bridge'])
    expect(ids(resolveRequest({ address: SOL, chainType: 'solana', crossChainBridgingEnabled: true }, null))).toEqual(['funding-wallet'])
  })
})
