import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract } from 'portico/testing'
import { funding } from 'portico/plugins/funding'
import { listFundingMethods, resolveRequest, type FundingChain } from 'portico/kits/funding'
import { coinbaseOnramp, coinbaseTarget, paymentMethodFor } from './index'
import { COINBASE_ONRAMP_TEXTS } from './strings'
import { coinbaseStatus, watchCoinbase } from './status'

pluginContract(() => coinbaseOnramp())
afterEach(() => vi.useRealTimers())

const chain = (id: number): FundingChain => ({ id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://x'] } } })
const req = (id: number, isUSDC = false) => resolveRequest({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chain: chain(id), isUSDC }, null)

describe('supported chains', () => {
  it('native Ethereum, Base, Optimism, Polygon, Arbitrum; USDC Ethereum, Base, Polygon, Optimism', () => {
    expect([1, 8453, 10, 137, 42161].map((id) => coinbaseTarget(req(id)))).toEqual([
      { network: 'ethereum', asset: 'ETH' },
      { network: 'base', asset: 'ETH' },
      { network: 'optimism', asset: 'ETH' },
      { network: 'polygon', asset: 'POL' },
      { network: 'arbitrum', asset: 'ETH' },
    ])
    expect([1, 8453, 137, 10].map((id) => coinbaseTarget(req(id, true)))).toEqual(['ethereum', 'base', 'polygon', 'optimism'].map((network) => ({ network, asset: 'USDC' })))
    expect(coinbaseTarget(req(42161, true))).toEqual({ unsupported: 42161 })
    expect(coinbaseTarget(req(31337))).toEqual({ unsupported: 31337 })
    expect(coinbaseTarget(resolveRequest({ address: 'So1', chainType: 'solana' }, null))).toEqual({ network: 'solana', asset: 'SOL' })
  })
  it("others show a clear text on the method ('Coinbase is not available on {network}.'); the spec's 'Unsupported chainId: {id} for Coinbase Onramp' goes to the console (issue 25)", async () => {
    const cfg = { methods: ['card', 'exchange'], coinbase: { pay_url: 'https://pay.test' } }
    const t = await createTestKernel({ plugins: [funding(), coinbaseOnramp()], app: { funding_config: cfg } as never })
    const warnings: string[] = []
    t.kernel.events.on('warning', (w: { message: string }) => warnings.push(w.message))
    expect(listFundingMethods(t.kernel, req(31337), cfg as never).map((m) => [m.method.id, m.unsupported])).toEqual([
      ['coinbase-onramp', 'Coinbase is not available on Chain 31337.'],
      ['coinbase-onramp-exchange', 'Coinbase is not available on Chain 31337.'],
    ])
    expect(warnings.filter((m) => m.includes('Unsupported chainId: 31337 for Coinbase Onramp'))).toHaveLength(1)
    expect(listFundingMethods(t.kernel, req(8453), cfg as never).map((m) => [m.method.kind, m.method.params, m.unsupported])).toEqual([
      ['card', { experience: 'buy' }, undefined],
      ['exchange', { experience: 'send' }, undefined],
    ])
  })
  it('buy → CARD, send → CRYPTO_ACCOUNT', () => {
    expect(paymentMethodFor('buy')).toBe('CARD')
    expect(paymentMethodFor('send')).toBe('CRYPTO_ACCOUNT')
  })
})

describe('status', () => {
  it('maps the server status and the popup to the spec statuses', () => {
    expect(coinbaseStatus('success', true)).toBe('success')
    expect(coinbaseStatus('pending', false)).toBe('pending-in-flow')
    expect(coinbaseStatus('pending', true)).toBe('pending-after-flow')
    expect(coinbaseStatus('failure', false)).toBe('error')
    expect(COINBASE_ONRAMP_TEXTS.failure).toBe('Something went wrong adding funds. Please try again or use another method.')
  })
  it('polls every 1.5 s; back to method selection after 3 polls with the popup closed', async () => {
    vi.useFakeTimers()
    let closed = false
    let calls = 0
    const seen: string[] = []
    const p = watchCoinbase({ status: async () => (calls++, 'pending'), popupClosed: () => closed, onStatus: (s) => seen.push(s) })
    let result: string | null = null
    p.result.then((r) => (result = r))
    await vi.advanceTimersByTimeAsync(1500 * 2)
    expect(calls).toBe(2)
    closed = true
    await vi.advanceTimersByTimeAsync(1500 * 2)
    expect(result).toBeNull()
    await vi.advanceTimersByTimeAsync(1500)
    expect(result).toBe('closed')
    expect(seen).toEqual(['pending-in-flow', 'pending-in-flow', 'pending-after-flow', 'pending-after-flow', 'pending-after-flow'])
  })
  it('a success after the popup closed still wins', async () => {
    vi.useFakeTimers()
    const answers = ['pending', 'success'] as const
    let n = 0
    const p = watchCoinbase({ status: async () => answers[n++], popupClosed: () => true, onStatus() {} })
    await vi.advanceTimersByTimeAsync(3000)
    await expect(p.result).resolves.toBe('success')
  })
})
