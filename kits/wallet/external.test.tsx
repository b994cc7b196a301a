// @vitest-environment happy-dom
/**
 * The wallet base's external-wallet rules: the fifteen brands, walletList ordering, chain-type
 * filtering, the constants of spec part 1 section 9, account polling, disconnect on no
 * accounts, the provider errors 4200 / 4900, wallet objects, the connect-only flow, and the
 * interstitial / install / login-failed screens.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { definePlugin, type PorticoPlugin } from 'portico'
import { createTestKernel, renderScreen, wireUser } from 'portico/testing'
import {
  ACCOUNT_POLL_ATTEMPTS,
  ACCOUNT_POLL_INTERVAL_MS,
  APP_STORE_FALLBACK_MS,
  CONNECTOR_INIT_GRACE_MS,
  MAX_WALLET_RETRIES,
  PROVIDER_DETECTION_TIMEOUT_MS,
  WALLET_BRANDS,
  WALLET_FAILED_SCREEN,
  WALLET_INSTALL_SCREEN,
  WALLET_LIST_SCREEN,
  WALLET_REDIRECT_SCREEN,
  WALLET_REQUEST_TIMEOUT_MS,
  brandName,
  connectOrCreateWallet,
  connectedWallets,
  createConnectorStatus,
  guardProvider,
  mobilePlatform,
  pollAccounts,
  providerError,
  setupWallet,
  walletClientTypeOf,
  watchAccounts,
  type WalletLoginConnector,
} from './base'
import { WALLET_TEXTS } from './strings'
import { createWalletConnection } from './connect-flow'
import { BRAND_MARKS } from './screens/brand-icons'
import { walletRows } from './list'

const conn = (over: Partial<WalletLoginConnector> = {}): WalletLoginConnector => ({
  id: over.id ?? `c:${over.walletClientType ?? 'x'}`,
  name: over.name ?? 'X',
  chainType: 'ethereum',
  connectorType: 'injected',
  walletClientType: 'x',
  login: true,
  connect: () => new Promise<string>(() => {}),
  signIn: () => Promise.reject(new Error('not reached')),
  ...over,
})

function walletPlugin(connectors: WalletLoginConnector[]): PorticoPlugin {
  return definePlugin({
    id: 'test-wallet',
    kind: 'login',
    setup(ctx) {
      setupWallet(ctx, { method: 'siwe' })
      ctx.hooks.walletConnectors.tap(ctx.id, (list) => [...list, ...connectors])
    },
  })
}

beforeEach(() => {
  vi.spyOn(performance, 'now').mockReturnValue(10_000)
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('constants (spec part 1 section 9)', () => {
  it('has the spec values', () => {
    expect(MAX_WALLET_RETRIES).toBe(2)
    expect(WALLET_REQUEST_TIMEOUT_MS).toBe(120_000)
    expect(PROVIDER_DETECTION_TIMEOUT_MS).toBe(3_000)
    expect(ACCOUNT_POLL_ATTEMPTS).toBe(10)
    expect(ACCOUNT_POLL_INTERVAL_MS).toBe(500)
    expect(CONNECTOR_INIT_GRACE_MS).toBe(1_500)
    expect(APP_STORE_FALLBACK_MS).toBe(1_000)
  })

  it('has the mobile and wallet texts word for word', () => {
    expect(WALLET_TEXTS.redirecting.replace('{wallet}', 'Phantom')).toBe('Redirecting to Phantom Mobile Wallet')
    expect(WALLET_TEXTS.goToAppStore).toBe('Go to App Store')
    expect(WALLET_TEXTS.couldNotConnect).toBe('Could not connect with wallet')
    expect([WALLET_TEXTS.tryAgain, WALLET_TEXTS.cancel]).toEqual(['Try again', 'Cancel'])
    expect(WALLET_TEXTS.unableToConnect).toBe('Unable to connect wallet')
  })
})

describe('the fifteen brands (spec part 1 section 3)', () => {
  it('lists them in the spec order, each with a name and an inline SVG mark', () => {
    expect(WALLET_BRANDS.map((b) => b.id)).toEqual([
      'coinbase_wallet',
      'coinbase_smart_wallet',
      'metamask',
      'phantom',
      'rainbow',
      'wallet_connect',
      'zerion',
      'brave_wallet',
      'host_onchain',
      'uniswap',
      'okx_wallet',
      'rabby_wallet',
      'safe',
      'universal_profile',
      'bybit_wallet',
    ])
    for (const b of WALLET_BRANDS) expect(typeof BRAND_MARKS[b.id]).toBe('function')
    expect(brandName(WALLET_BRANDS[8], 'Acme')).toBe('Acme onchain')
  })

  it('maps rdns and names to wallet client types', () => {
    expect(walletClientTypeOf({ name: 'Whatever', rdns: 'io.rabby' })).toBe('rabby_wallet')
    expect(walletClientTypeOf({ name: 'Coinbase Smart Wallet' })).toBe('coinbase_smart_wallet')
    expect(walletClientTypeOf({ name: 'My Wallet!' })).toBe('my_wallet')
  })

  it('tells iOS from Android from desktop', () => {
    expect(mobilePlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios')
    expect(mobilePlatform('Mozilla/5.0 (Linux; Android 14)')).toBe('android')
    expect(mobilePlatform('Mozilla/5.0 (X11; Linux x86_64)')).toBeNull()
  })
})

describe('walletRows: walletList and walletChainType', () => {
  const mm = conn({ walletClientType: 'metamask', name: 'MetaMask' })
  const rb = conn({ walletClientType: 'rainbow', name: 'Rainbow' })
  const zr = conn({ walletClientType: 'zerion', name: 'Zerion' })
  const ph = conn({ walletClientType: 'phantom', name: 'Phantom', chainType: 'solana', connectorType: 'solana_adapter' })
  const phLink = conn({ id: 'phantom:deeplink', walletClientType: 'phantom', name: 'Phantom', chainType: 'solana', connectorType: 'phantom', redirect: true })
  const both = new Set(['ethereum', 'solana'] as const)
  const names = (rows: ReturnType<typeof walletRows>) => rows.map((r) => (r.kind === 'brand' ? `brand:${r.brand.id}` : r.connector.name))

  it('without walletList: every connector of the app chains, the recent one first', () => {
    expect(names(walletRows([mm, rb, ph], { chains: new Set(['ethereum']) }))).toEqual(['MetaMask', 'Rainbow'])
    expect(names(walletRows([mm, rb, ph], { chains: new Set(['solana']) }))).toEqual(['Phantom'])
    expect(names(walletRows([mm, rb, ph], { chains: both, isRecent: (c) => c === rb }))).toEqual(['Rainbow', 'MetaMask', 'Phantom'])
  })

  it('with walletList: its order, detected_* for the rest, install rows for listed brands not here', () => {
    const rows = walletRows([mm, rb, zr, ph], { chains: both, walletList: ['coinbase_wallet', 'zerion', 'detected_ethereum_wallets'] })
    expect(names(rows)).toEqual(['brand:coinbase_wallet', 'Zerion', 'MetaMask', 'Rainbow'])
    expect(names(walletRows([mm, ph], { chains: both, walletList: ['detected_solana_wallets'] }))).toEqual(['Phantom'])
    expect(names(walletRows([mm], { chains: both, walletList: ['rainbow'] }))).toEqual(['brand:rainbow'])
    // A brand of another chain, WalletConnect (its own plugin) and unknown ids add nothing.
    expect(names(walletRows([], { chains: new Set(['solana']), walletList: ['metamask', 'wallet_connect', 'nope'] }))).toEqual([])
  })

  it('prefers a wallet that is here over its redirect (deep-link) connector', () => {
    expect(walletRows([phLink, ph], { chains: both, walletList: ['phantom'] }).map((r) => r.kind === 'connector' && r.connector.id)).toEqual([ph.id])
    expect(walletRows([phLink], { chains: both, walletList: ['phantom'] }).map((r) => r.kind === 'connector' && r.connector.id)).toEqual([phLink.id])
    // detected_wallets never lists a redirect connector.
    expect(walletRows([phLink, mm], { chains: both, walletList: ['detected_wallets'] }).map((r) => r.kind === 'connector' && r.connector.id)).toEqual([mm.id])
  })
})

describe('connector status, account polling, provider errors', () => {
  it('polls 10 times, 500 ms apart, and stops at the first account', async () => {
    const waits: number[] = []
    const sleep = async (ms: number) => void waits.push(ms)
    let calls = 0
    expect(await pollAccounts(async () => (++calls === 4 ? ['0xabc'] : []), { sleep })).toBe('0xabc')
    expect(calls).toBe(4)
    calls = 0
    waits.length = 0
    expect(await pollAccounts(async () => (calls++, []), { sleep })).toBeNull()
    expect(calls).toBe(10)
    expect(waits).toEqual(Array(9).fill(500))
  })

  it('disconnects when the wallet reports no accounts; follows an account change', () => {
    const listeners: Record<string, (a: unknown) => void> = {}
    const provider = { request: async () => null, on: (e: string, l: (a: unknown) => void) => void (listeners[e] = l), removeListener: vi.fn() }
    const emit = vi.fn()
    const status = createConnectorStatus({ emit } as never, 'p')
    status.set({ connected: true, address: '0x1' })
    const stop = watchAccounts(provider, status)
    listeners.accountsChanged(['0x2'])
    expect(status.get()).toMatchObject({ connected: true, address: '0x2' })
    listeners.accountsChanged([])
    expect(status.get()).toEqual({ connected: false, initialized: true, address: null })
    expect(emit).toHaveBeenCalledWith('wallet-connectors:changed', { plugin: 'p' })
    stop()
    expect(provider.removeListener).toHaveBeenCalledTimes(2)
  })

  it('raises 4900 once disconnected and 4200 for eth_sign', async () => {
    expect(providerError(4200)).toMatchObject({ code: 4200, message: 'The requested method is not supported by this Ethereum provider.' })
    expect(providerError(4900)).toMatchObject({ code: 4900, message: 'The provider is disconnected from all chains.' })
    let connected = true
    const inner = { request: vi.fn(async () => '0xsig') }
    const p = guardProvider(inner, () => connected)
    expect(await p.request({ method: 'personal_sign', params: ['0x00', '0x1'] })).toBe('0xsig')
    await expect(p.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({ code: 4200 })
    connected = false
    await expect(p.request({ method: 'personal_sign', params: [] })).rejects.toMatchObject({ code: 4900 })
  })

  it('connected external wallets are wallet objects like the embedded ones', async () => {
    const status = createConnectorStatus(null, 'p')
    const provider = { request: vi.fn(async () => '0xsig') }
    const c = conn({ walletClientType: 'metamask', status: () => status.get(), getEthereumProvider: async () => provider, disconnect: async () => status.set({ connected: false }) })
    const at = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }
    const user = wireUser({ accounts: [{ type: 'wallet', address: '0xAbC', chain_type: 'ethereum', ...at } as never] })
    const { kernel } = await createTestKernel({ plugins: [walletPlugin([c])], app: { login_methods: ['wallet'] }, user })
    expect(connectedWallets(kernel)).toEqual([])
    status.set({ connected: true, address: '0xabc' })
    const [w] = connectedWallets(kernel)
    expect(w).toMatchObject({ address: '0xabc', chainType: 'ethereum', walletClientType: 'metamask', connectorType: 'injected', linked: true, imported: false, delegated: false, walletIndex: null })
    const p = await w.getEthereumProvider!()
    expect(await p.request({ method: 'personal_sign', params: [] })).toBe('0xsig')
    await w.disconnect()
    await expect(p.request({ method: 'personal_sign', params: [] })).rejects.toMatchObject({ code: 4900 })
    expect(connectedWallets(kernel)).toEqual([])
  })

  it('a connected Solana wallet signs and sends transactions through its connector; 4900 once disconnected', async () => {
    const status = createConnectorStatus(null, 'p')
    const send = vi.fn(async () => new Uint8Array([7]))
    const c = conn({ chainType: 'solana', connectorType: 'solana_adapter', status: () => status.get(), solanaSignAndSendTransaction: send })
    const { kernel } = await createTestKernel({ plugins: [walletPlugin([c])], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    status.set({ connected: true, address: 'So1anaAddress' })
    const [w] = connectedWallets(kernel)
    const rpc = vi.fn()
    expect(await w.signAndSendTransaction!(new Uint8Array([1]), 'solana:mainnet', rpc)).toEqual(new Uint8Array([7]))
    expect(send).toHaveBeenCalledWith(new Uint8Array([1]), 'solana:mainnet', rpc)
    status.set({ connected: false })
    await expect(w.signAndSendTransaction!(new Uint8Array([1]), 'solana:mainnet', rpc)).rejects.toMatchObject({ code: 4900 })
  })
})

describe('the connection state machine', () => {
  it('connect-only: done once the wallet gave its account, no signature', async () => {
    const signIn = vi.fn()
    const c = conn({ connect: async () => '0xabc', signIn })
    const connection = createWalletConnection(c, 'login', vi.fn(), { connectOnly: true })
    await connection.start()
    expect(connection.getState()).toMatchObject({ status: 'done', connection: 'connected', address: '0xabc', result: null })
    expect(signIn).not.toHaveBeenCalled()
  })

  it('a wallet without accounts is disconnected; 2 retries, then no Retry', async () => {
    const c = conn({ connect: async () => Promise.reject(Object.assign(new Error('no'), { code: 4001 })) })
    const connection = createWalletConnection(c, 'login', vi.fn())
    await connection.start()
    expect(connection.getState()).toMatchObject({ status: 'error', connection: 'disconnected', address: null, canRetry: true })
    expect(await connection.retry()).toBe(true)
    expect(await connection.retry()).toBe(true)
    expect(connection.getState()).toMatchObject({ retriesUsed: 2, canRetry: false })
    expect(await connection.retry()).toBe(false)
  })
})

describe('screens', () => {
  it('the list waits out the connector initialisation grace (1.5 s) for a connector still initialising', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const init = createConnectorStatus(null, 'p', { initialized: false })
    const { kernel } = await createTestKernel({
      plugins: [walletPlugin([conn({ name: 'Ready', walletClientType: 'metamask' }), conn({ id: 'late', name: 'Late', walletClientType: 'rainbow', status: () => init.get() })])],
      app: { login_methods: ['wallet'] },
    })
    await renderScreen(kernel, WALLET_LIST_SCREEN)
    await screen.findByText('Ready')
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toContain('ReadyConnect')
    expect(screen.queryByText('Late')).toBeNull()
    expect(document.querySelector('[role=dialog] .portico-spinner')).not.toBeNull()
    await act(async () => {
      vi.advanceTimersByTime(CONNECTOR_INIT_GRACE_MS)
    })
    // Waits for the state, not an instant: on a loaded machine a re-render may start the grace late.
    await waitFor(() => expect(document.querySelector('[role=dialog] .portico-spinner')).toBeNull())
    expect(screen.queryByText('Late')).toBeNull()
  })

  it('the interstitial offers Go to App Store after about 1 s; the install screen links the brand and learn-more', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')
    const connect = vi.fn(() => new Promise<string>(() => {}))
    const c = conn({ id: 'deep', name: 'Phantom', walletClientType: 'phantom', chainType: 'solana', connectorType: 'phantom', redirect: true, connect })
    const { kernel } = await createTestKernel({ plugins: [walletPlugin([c])], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    await renderScreen(kernel, WALLET_REDIRECT_SCREEN, { connectorId: 'deep' })
    expect(await screen.findByText('Redirecting to Phantom Mobile Wallet')).toBeTruthy()
    expect(screen.queryByText('Go to App Store')).toBeNull()
    await act(async () => {
      vi.advanceTimersByTime(APP_STORE_FALLBACK_MS)
    })
    await vi.waitFor(() => expect(connect).toHaveBeenCalledTimes(1))
    expect((await screen.findByText('Go to App Store')).closest('a')?.getAttribute('href')).toContain('apps.apple.com')
    cleanup()
    await renderScreen(kernel, WALLET_INSTALL_SCREEN, { brand: 'metamask' })
    expect((await screen.findByText('Install MetaMask')).closest('a')?.getAttribute('href')).toBe('https://metamask.io/download/')
    expect(screen.getByText('Learn more about wallets').closest('a')?.getAttribute('href')).toBe('https://ethereum.org/en/wallets/')
  })

  it('login failed: Could not connect with wallet, Try again reopens the interstitial', async () => {
    const c = conn({ id: 'deep', name: 'Phantom', walletClientType: 'phantom', redirect: true })
    const { kernel } = await createTestKernel({ plugins: [walletPlugin([c])], app: { login_methods: ['wallet'] } })
    await renderScreen(kernel, WALLET_FAILED_SCREEN, { connectorId: 'deep' })
    expect(await screen.findByText('Could not connect with wallet')).toBeTruthy()
    expect(screen.getByText('Cancel')).toBeTruthy()
    const replace = vi.spyOn(kernel.screens, 'replace')
    fireEvent.click(screen.getByText('Try again'))
    expect(replace).toHaveBeenCalledWith(WALLET_REDIRECT_SCREEN, { connectorId: 'deep' })
  })
})


describe('connect or create (the connect-only variant)', () => {
  it('logged out: the wallet list signs in; logged in without an embedded wallet: the embedded plugin creates one; else connect only', async () => {
    const create = vi.fn(async () => ({ address: '0xnew' }))
    let embeddedWallets: unknown[] = []
    const embedded = definePlugin({ id: 'embedded-wallet', kind: 'wallet', setup: (ctx) => ctx.provide({ wallets: () => embeddedWallets, create }) })
    const { kernel } = await createTestKernel({ plugins: [walletPlugin([conn()]), embedded], app: { login_methods: ['wallet'] } })
    void connectOrCreateWallet(kernel)
    await vi.waitFor(() => expect(kernel.screens.getState().current).toMatchObject({ id: WALLET_LIST_SCREEN, params: {} }))
    expect(kernel.screens.getState().intent).toBe('login')
    kernel.screens.dismiss()

    const { kernel: inK } = await createTestKernel({ plugins: [walletPlugin([conn()]), embedded], app: { login_methods: ['wallet'] }, user: wireUser() })
    expect(await connectOrCreateWallet(inK)).toEqual({ address: '0xnew' })
    expect(create).toHaveBeenCalledTimes(1)
    embeddedWallets = [{ address: '0xnew' }]
    void connectOrCreateWallet(inK)
    await vi.waitFor(() => expect(inK.screens.getState().current).toMatchObject({ id: WALLET_LIST_SCREEN, params: { connectOnly: true } }))
    expect(inK.screens.getState().intent).toBe('link')
  })
})
