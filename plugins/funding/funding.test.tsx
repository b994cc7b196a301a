// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { createTestKernel, pluginContract, renderScreen } from 'portico/testing'
import { listFundingMethods, resolveRequest, type FundingChain, type FundingMethod } from 'portico/kits/funding'
import { funding } from './index'
import { FUNDING_AMOUNT_SCREEN, FUNDING_MANUAL_SCREEN, FUNDING_METHODS_SCREEN, MANUAL_POLL_MS } from './ids'
import { definePlugin } from 'portico'
import { FUNDING_TEXTS } from './strings'
import { sendingConnectors } from './screens/wallets'

pluginContract(() => funding())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const CHAIN: FundingChain = { id: 31337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://rpc.test'] } } }
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const FUNDING_CONFIG = { methods: ['card', 'exchange', 'wallet', 'manual'] }

describe('the plugin', () => {
  it("refuses with 'Wallet funding is not enabled' when the app has no funding config", async () => {
    const t = await createTestKernel({ plugins: [funding()] })
    await expect(t.kernel.plugin('funding').fund({ address: ADDRESS })).rejects.toMatchObject({ code: 'funding_not_enabled', message: 'Wallet funding is not enabled' })
    expect(t.kernel.plugin('funding').enabled()).toBe(false)
  })
  it("fund(): a chain given by id is completed from the app's supportedChains (its RPC); a Solana request uses the plugin's cluster", async () => {
    const local = { id: 31337, name: 'Hardhat', rpcUrl: 'http://hardhat.test' }
    const t = await createTestKernel({
      plugins: [funding({ enabled: true, config: FUNDING_CONFIG as never, solanaCluster: { name: 'localnet', rpcUrl: 'http://svm.test' } })],
      config: { supportedChains: [local], defaultChain: local },
    })
    const api = t.kernel.plugin('funding')
    void api.fund({ address: ADDRESS, chain: { id: 31337, name: 'Hardhat' } as FundingChain })
    await waitFor(() => expect(api.state.get().request).not.toBeNull())
    expect(api.state.get().request!.chain).toMatchObject({ id: 31337, nativeCurrency: { symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://hardhat.test'] } } })
    t.kernel.screens.dismiss()
    void api.fund({ address: 'So1', chainType: 'solana' })
    await waitFor(() => expect(api.state.get().request?.chainType).toBe('solana'))
    expect(api.state.get().request).toMatchObject({ cluster: { name: 'localnet', rpcUrl: 'http://svm.test' }, network: 'Localnet' })
    t.kernel.screens.dismiss()
  })
  it('lists methods from the fundingMethods hook: the app config, each method rule, the order', async () => {
    const extra = definePlugin({
      id: 'extra',
      kind: 'funding',
      setup(ctx) {
        ctx.hooks.fundingMethods.tap(ctx.id, (l) => [
          ...l,
          { id: 'x-card', kind: 'card', provider: 'x', label: 'X', screen: 'x', order: 1, unsupported: () => 'Unsupported here' } satisfies FundingMethod,
          { id: 'x-hidden', kind: 'card', label: 'H', screen: 'x', available: () => false } satisfies FundingMethod,
        ])
      },
    })
    const t = await createTestKernel({ plugins: [funding(), extra], app: { funding_config: FUNDING_CONFIG } as never })
    const r = resolveRequest({ address: ADDRESS, chain: CHAIN }, null)
    const list = listFundingMethods(t.kernel, r, { methods: ['card', 'wallet', 'manual'] })
    expect(list.map((m) => [m.method.id, m.unsupported])).toEqual([
      ['x-card', 'Unsupported here'],
      ['funding-wallet', undefined],
      ['funding-manual', undefined],
    ])
    expect(listFundingMethods(t.kernel, r, { methods: ['manual'] }).map((m) => m.method.id)).toEqual(['funding-manual'])
  })
  it('records an on-ramp start: analytics, alternate-funding flag, the id after its delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    const api = t.kernel.plugin('funding')
    api.recordStart({ provider: 'moonpay', method: 'card', address: ADDRESS, amount: '1' }, 'ext-1', 8000)
    expect(api.state.get().funding).toMatchObject({ provider: 'moonpay', alternateFunding: true })
    expect(api.state.get().funding?.providerId).toBeUndefined()
    await vi.advanceTimersByTimeAsync(7999)
    expect(api.state.get().funding?.providerId).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(api.state.get().funding?.providerId).toBe('ext-1')
    await vi.waitFor(() => expect(t.net.callsTo('POST', '/analytics_events').map((c) => c.body.eventName)).toContain('funding_flow_started'))
  })
  it('prompts after wallet creation only when the app asks for it', async () => {
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    expect(await t.kernel.plugin('funding').promptAfterWalletCreation({ address: ADDRESS, chainType: 'ethereum' })).toBeNull()
    const t2 = await createTestKernel({ plugins: [funding()], app: { funding_config: { ...FUNDING_CONFIG, prompt_funding_on_wallet_creation: true } } as never })
    const p = t2.kernel.plugin('funding').promptAfterWalletCreation({ address: ADDRESS, chainType: 'ethereum' })
    await waitFor(() => expect(t2.kernel.screens.getState().current?.id).toBe(FUNDING_METHODS_SCREEN))
    t2.kernel.screens.dismiss()
    await expect(p).resolves.toEqual({ status: 'exited' })
  })

  it('a prompt asked while the login modal is open waits for it to close, then opens its own flow', async () => {
    const t = await createTestKernel({
      plugins: [funding(), definePlugin({ id: 'login-stub', kind: 'feature', setup: (ctx) => void ctx.screens.register({ id: 'login-stub-screen', component: () => null }) })],
      app: { funding_config: { ...FUNDING_CONFIG, prompt_funding_on_wallet_creation: true } } as never,
    })
    const login = t.kernel.screens.open('login-stub-screen')
    const p = t.kernel.plugin('funding').promptAfterWalletCreation({ address: ADDRESS, chainType: 'ethereum' })
    await new Promise((r) => setTimeout(r, 0))
    expect(t.kernel.screens.getState().current?.id).toBe('login-stub-screen')
    t.kernel.screens.close({ login: true })
    await expect(login).resolves.toEqual({ ok: true, value: { login: true } })
    await waitFor(() => expect(t.kernel.screens.getState().current?.id).toBe(FUNDING_METHODS_SCREEN))
    t.kernel.screens.dismiss()
    await expect(p).resolves.toEqual({ status: 'exited' })
  })
})

describe('screens', () => {
  it("'Confirm or edit amount': sanitises input, Continue needs > 0, sets the amount", async () => {
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    const api = t.kernel.plugin('funding')
    api.state.set({ request: resolveRequest({ address: ADDRESS, chain: CHAIN, amount: '1' }, null) })
    await renderScreen(t.kernel, FUNDING_AMOUNT_SCREEN, {}, { intent: 'update' })
    expect(await screen.findByText(FUNDING_TEXTS.editAmountTitle)).toBeTruthy()
    const input = screen.getByLabelText('Amount') as HTMLInputElement
    const button = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement
    fireEvent.change(input, { target: { value: '.' } })
    expect(input.value).toBe('0.')
    expect(button.disabled).toBe(true)
    fireEvent.change(input, { target: { value: '.25x' } })
    expect(input.value).toBe('0.25')
    expect(button.disabled).toBe(false)
    fireEvent.click(button)
    expect(api.state.get().request?.amount).toBe('0.25')
  })
  it("manual transfer: 'Receive {amount} {symbol}', QR of size 200, Continue once the balance rises (2 s poll)", async () => {
    let balance = 5n
    const rpc = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body))
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: `0x${balance.toString(16)}` }))
    })
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    const api = t.kernel.plugin('funding')
    Object.defineProperty(api, 'fetch', { value: rpc })
    api.state.set({ request: resolveRequest({ address: ADDRESS, chain: CHAIN, amount: '0.5' }, null) })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
    const view = await renderScreen(t.kernel, FUNDING_MANUAL_SCREEN, {}, { intent: 'update' })
    expect(await screen.findByText('Receive 0.5 ETH')).toBeTruthy()
    await waitFor(() => expect(view.dialog.querySelector('svg.portico-qr-code')?.getAttribute('width')).toBe('200'))
    expect(screen.getByText(ADDRESS)).toBeTruthy()
    // The starting balance is read (the chain reads load on first use): a rise is measured from it.
    await waitFor(() => expect(view.dialog.querySelector('[data-funding-watching]')).not.toBeNull())
    await act(() => vi.advanceTimersByTimeAsync(MANUAL_POLL_MS))
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    balance = 6n
    await act(() => vi.advanceTimersByTimeAsync(MANUAL_POLL_MS))
    const cont = await screen.findByRole('button', { name: 'Continue' })
    expect(rpc.mock.calls.length).toBeGreaterThanOrEqual(3)
    fireEvent.click(cont)
    await expect(view.flow).resolves.toEqual({ ok: true, value: { method: 'manual' } })
  })
})

describe('transfer from an external Solana wallet', () => {
  const to = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
  const request = resolveRequest({ address: to, chainType: 'solana', cluster: { name: 'mainnet-beta', rpcUrl: 'http://svm.test' }, amount: '0.5' }, null)

  it("USDC on Solana: 'Transfer from wallet' is shown unsupported (SOL only)", async () => {
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    const usdc = resolveRequest({ address: to, chainType: 'solana', isUSDC: true }, null)
    expect(listFundingMethods(t.kernel, usdc, FUNDING_CONFIG as never).find((m) => m.method.id === 'funding-wallet')?.unsupported).toBe('Not available for this network')
    expect(listFundingMethods(t.kernel, request, FUNDING_CONFIG as never).find((m) => m.method.id === 'funding-wallet')?.unsupported).toBeUndefined()
  })

  it('the wallets screen lists Solana connectors that can send', () => {
    const list = [
      { id: 'a', name: 'A', chainType: 'solana' as const, solanaSignAndSendTransaction: () => null },
      { id: 'b', name: 'B', chainType: 'solana' as const },
      { id: 'c', name: 'C', chainType: 'ethereum' as const, provider: { request() {} } },
    ]
    expect(sendingConnectors(list, 'solana').map((c) => c.id)).toEqual(['a'])
    expect(sendingConnectors(list, 'ethereum').map((c) => c.id)).toEqual(['c'])
  })
})

describe('SOL price', () => {
  const solRequest = resolveRequest({ address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', chainType: 'solana', amount: '0.1' }, null)
  it("shows the amount's USD value from /token_price", async () => {
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    t.net.on('GET', '/token_price', { usd: 150 })
    t.kernel.plugin('funding').state.set({ request: solRequest })
    await renderScreen(t.kernel, FUNDING_METHODS_SCREEN, {}, { intent: 'update' })
    expect(await screen.findByText('≈ $15.00 USD')).toBeTruthy()
    expect(screen.queryByText('Unable to fetch SOL price')).toBeNull()
  })
  it("'Unable to fetch SOL price' when the price cannot be fetched", async () => {
    const t = await createTestKernel({ plugins: [funding()], app: { funding_config: FUNDING_CONFIG } as never })
    t.net.on('GET', '/token_price', { status: 424, body: { code: 'price_unavailable', error: 'The price source could not be reached' } })
    t.kernel.plugin('funding').state.set({ request: solRequest })
    await renderScreen(t.kernel, FUNDING_METHODS_SCREEN, {}, { intent: 'update' })
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to fetch SOL price')
  })
})
