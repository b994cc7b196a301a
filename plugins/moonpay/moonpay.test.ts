import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract } from 'portico/testing'
import { funding } from 'portico/plugins/funding'
import { listFundingMethods, resolveRequest, type FundingChain } from 'portico/kits/funding'
import { moonpay } from './index'
import { MOONPAY_TEXTS } from './strings'
import { fetchMoonpayStatus } from './calls'
import { moonpayCurrencyCode } from './currency'
import { moonpayView, watchMoonpay } from './status'

pluginContract(() => moonpay())
afterEach(() => vi.useRealTimers())

const chain = (id: number): FundingChain => ({ id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://x'] } } })
const req = (id: number, isUSDC = false) => resolveRequest({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chain: chain(id), isUSDC }, null)

it('an override key that is not a text warns when the texts load; the labels take overrides', async () => {
  const t = await createTestKernel({ plugins: [funding({ enabled: true }), moonpay()], config: { texts: { moonpay: { label: 'Card', nope: 'x' } } } })
  await t.kernel.loadDeclarations()
  expect(t.warnings).toContain("texts: 'nope' is not a text of this namespace; it is ignored.")
  const r = resolveRequest({ address: '0x0000000000000000000000000000000000000001' }, { moonpay: {} as never }, undefined)
  expect(listFundingMethods(t.kernel, r, { moonpay: {} as never }).find((m) => m.method.id === 'moonpay')?.method.label).toBe('Card')
})

describe('currency codes', () => {
  it('native Ethereum, Arbitrum, Base, Polygon (and Avalanche, Celo); USDC also Optimism', () => {
    expect([1, 42161, 8453, 137, 43114, 42220].map((id) => moonpayCurrencyCode(req(id)).code)).toEqual(['eth', 'eth_arbitrum', 'eth_base', 'pol_polygon', 'avax_cchain', 'celo'])
    expect([1, 42161, 8453, 137, 10].map((id) => moonpayCurrencyCode(req(id, true)).code)).toEqual(['usdc', 'usdc_arbitrum', 'usdc_base', 'usdc_polygon', 'usdc_optimism'])
    expect(moonpayCurrencyCode(resolveRequest({ address: 'So1', chainType: 'solana' }, null)).code).toBe('sol')
  })
  it('an unknown chain defaults to Ethereum with a warning', () => {
    expect(moonpayCurrencyCode(req(31337))).toEqual({ code: 'eth', defaulted: 31337 })
    expect(moonpayCurrencyCode(req(10))).toEqual({ code: 'eth', defaulted: 10 })
    expect(moonpayCurrencyCode({ ...req(31337), moonpayConfigOverride: { currencyCode: 'usdc_base' } })).toEqual({ code: 'usdc_base' })
  })
})

describe('status', () => {
  it('maps statuses to the spec texts', () => {
    expect(moonpayView('completed')).toBe('funded')
    expect(moonpayView('waitingAuthorization')).toBe('processing')
    expect(moonpayView('awaitingAuthorization')).toBe('processing')
    for (const s of ['pending', 'failed', 'serviceFailure', null]) expect(moonpayView(s)).toBe('in-progress')
    expect(MOONPAY_TEXTS.fundedTitle).toBe("You've funded your account!")
    expect(MOONPAY_TEXTS.processingDescription).toBe('This may take up to a few hours. You will receive an email when the purchase is complete.')
    expect(MOONPAY_TEXTS.inProgressDescription).toBe('Go back to MoonPay to finish funding your account.')
  })
  it('reads MoonPay transactions/ext with the API key; arrays and objects', async () => {
    const f = vi.fn(async () => new Response(JSON.stringify([{ status: 'completed' }])))
    expect(await fetchMoonpayStatus(f as never, 'https://mp.test/', 'ext 1', 'pk_test_x')).toBe('completed')
    expect(f).toHaveBeenCalledWith('https://mp.test/v1/transactions/ext/ext%201?apiKey=pk_test_x')
    await expect(fetchMoonpayStatus((async () => new Response('{}', { status: 404 })) as never, 'https://mp.test', 'x', 'k')).rejects.toMatchObject({ status: 404 })
  })
  it('polls every 3 s, 404s keep waiting, fails after 3 consecutive other errors', async () => {
    vi.useFakeTimers()
    const answers = [404, 404, 500, 502, 500]
    let n = 0
    const seen: string[] = []
    const p = watchMoonpay({
      fetch: (async () => new Response('{}', { status: answers[n++] ?? 500 })) as never,
      apiUrl: 'https://mp.test',
      apiKey: 'k',
      externalTransactionId: 'x',
      onStatus: (s) => seen.push(s),
    })
    let failed = false
    p.result.catch(() => (failed = true))
    await vi.advanceTimersByTimeAsync(2999)
    expect(n).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(n).toBe(1)
    await vi.advanceTimersByTimeAsync(3000 * 3)
    expect(failed).toBe(false)
    await vi.advanceTimersByTimeAsync(3000)
    expect(n).toBe(5)
    expect(failed).toBe(true)
  })
  it('stops at completed', async () => {
    vi.useFakeTimers()
    const statuses = ['pending', 'waitingAuthorization', 'completed']
    let n = 0
    const seen: string[] = []
    const p = watchMoonpay({ fetch: (async () => new Response(JSON.stringify([{ status: statuses[n++] }]))) as never, apiUrl: 'u', apiKey: 'k', externalTransactionId: 'x', onStatus: (s) => seen.push(s) })
    await vi.advanceTimersByTimeAsync(9000)
    await expect(p.result).resolves.toBe('completed')
    expect(seen).toEqual(statuses)
  })
})

it('is offered when the app has MoonPay, as a card method that opens a popup', async () => {
  const cfg = { methods: ['card'], moonpay: { use_sandbox: true, payment_method: null, api_key: 'pk', sandbox_api_key: 'pkt', api_url: 'u', sandbox_api_url: 'u' } }
  const t = await createTestKernel({ plugins: [funding(), moonpay()], app: { funding_config: cfg } as never })
  const r = req(1)
  expect(listFundingMethods(t.kernel, r, cfg as never).map((m) => [m.method.id, m.method.popup])).toEqual([['moonpay', true]])
  expect(listFundingMethods(t.kernel, r, { methods: ['card'] }).map((m) => m.method.id)).toEqual([])
})
