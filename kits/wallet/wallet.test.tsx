// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { lazy, Suspense } from 'react'
import { act, cleanup, screen } from '@testing-library/react'
import { PorticoError, definePlugin, isRecentEntry, type PorticoPlugin } from 'portico'
import { authResponse, createTestKernel, pluginContract, renderScreen, wireUser } from 'portico/testing'
import {
  WALLET_CONNECT_SCREEN,
  WALLET_LIST_SCREEN,
  normaliseWallet,
  setupWallet,
  walletConnectionScreen,
  walletConnectors,
  type WalletLoginConnector,
} from './base'
import { WALLET_TEXTS } from './strings'
import { visibleWallets } from './screens/wallet-list'

/** A third-party wallet plugin on the base: one connector that never answers. */
function testWallet(id = 'test-wallet', connectors: Partial<WalletLoginConnector>[] = []): PorticoPlugin {
  return definePlugin({
    id,
    kind: 'login',
    setup(ctx) {
      setupWallet(ctx, { method: id })
      ctx.hooks.walletConnectors.tap(ctx.id, (list) => [
        ...list,
        ...connectors.map((c, i) => ({
          id: `${id}:${i}`,
          name: `Wallet ${i}`,
          chainType: 'ethereum' as const,
          connectorType: 'injected' as const,
          walletClientType: `w${i}`,
          login: true as const,
          method: id,
          connect: () => new Promise<string>(() => {}),
          signIn: () => Promise.reject(new Error('not reached')),
          ...c,
        })),
      ])
    },
  })
}

const at = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }
const eth = { type: 'wallet', address: '0xAbC0000000000000000000000000000000000001', chain_type: 'ethereum', connector_type: 'injected', wallet_client_type: 'metamask', ...at }
const sol = { type: 'wallet', address: 'So1ana1111111111111111111111111111111111111', chain_type: 'solana', connector_type: 'solana_adapter', delegated: true, ...at }
const embedded = { type: 'wallet', address: '0xE000000000000000000000000000000000000002', chain_type: 'ethereum', connector_type: 'embedded', delegated: true, wallet_index: 0, ...at }

beforeEach(() => {
  vi.spyOn(performance, 'now').mockReturnValue(10_000) // past the 3000 ms detection window
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

pluginContract(() => testWallet(), { loginMethods: ['wallet'] })

describe('wallet base: the wallet account types', () => {
  it('normalises wallet accounts: fields, kinds, chain type forced to ethereum or solana', () => {
    expect(normaliseWallet({ ...eth, chain_type: 'bitcoin', chain_id: 'eip155:1', imported: 'yes', wallet_index: '2' } as never)).toEqual({
      type: 'wallet',
      address: eth.address,
      chainType: 'ethereum',
      chainId: 'eip155:1',
      walletClientType: 'metamask',
      connectorType: 'injected',
      imported: false,
      delegated: false,
      recoveryMethod: null,
      walletIndex: null,
      verifiedAt: new Date(1000),
      firstVerifiedAt: new Date(1000),
      latestVerifiedAt: new Date(1000),
    })
    expect(normaliseWallet(sol as never)).toMatchObject({ chainType: 'solana', delegated: true, chainId: null })
  })

  it('derives user.wallet (the first wallet), delegatedWallets and smartWallet, declared once', async () => {
    const user = wireUser({
      accounts: [
        { type: 'email', address: 'a@example.com', ...at } as never,
        eth as never,
        sol as never,
        embedded as never,
        { type: 'smart_wallet', address: '0x5a', smart_wallet_type: 'safe', ...at } as never,
      ],
    })
    const { kernel } = await createTestKernel({ plugins: [testWallet('one'), testWallet('two')], app: { login_methods: ['wallet'] }, user })
    const u = kernel.session.user!
    expect(u.wallet).toMatchObject({ address: eth.address, chainType: 'ethereum' })
    expect(u.delegatedWallets.map((w) => w.address)).toEqual([sol.address, embedded.address])
    expect(u.smartWallet).toMatchObject({ address: '0x5a', smartWalletType: 'safe' })
    expect(kernel.methods.forAccountType('wallet')?.id).toBe('wallet')
    expect(kernel.methods.list().filter((m) => m.accountTypes?.includes('wallet'))).toHaveLength(1)
    kernel.destroy()
    expect(kernel.methods.get('wallet')).toBeUndefined()
  })

  it('a user without wallets has no wallet and no delegated wallets', async () => {
    const { kernel } = await createTestKernel({ plugins: [testWallet()], app: { login_methods: ['wallet'] }, user: wireUser() })
    expect(kernel.session.user?.wallet).toBeUndefined()
    expect(kernel.session.user?.delegatedWallets).toEqual([])
  })

  it('unlinks an external wallet by its chain (the generic unlink of the account type), never an embedded one', async () => {
    const user = wireUser({ accounts: [eth as never, sol as never, embedded as never] })
    const { kernel, net } = await createTestKernel({ plugins: [testWallet()], app: { login_methods: ['wallet'] }, user })
    const reply = authResponse(user, { session_update_action: 'ignore', token: null, refresh_token: null })
    net.on('POST', '/siwe/unlink', reply).on('POST', '/siws/unlink', reply)
    const [e, s, emb] = kernel.session.user!.linkedAccounts
    const descriptor = kernel.methods.forAccountType('wallet')!
    await descriptor.unlink!(kernel.api, s)
    await descriptor.unlink!(kernel.api, e)
    expect(net.callsTo('POST', '/siws/unlink').map((c) => c.body)).toEqual([{ address: sol.address }])
    expect(net.callsTo('POST', '/siwe/unlink').map((c) => c.body)).toEqual([{ address: eth.address }])
    await expect(descriptor.unlink!(kernel.api, emb)).rejects.toMatchObject({ code: 'method_not_supported' })
  })
})

describe('wallet base: the landing entry', () => {
  it('is one entry covering every wallet plugin, so the Recent chip finds it for any of them', async () => {
    const { kernel } = await createTestKernel({ plugins: [testWallet('one'), testWallet('two')], app: { login_methods: ['wallet'] } })
    const entries = kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })
    expect(entries).toHaveLength(1)
    const [entry] = entries
    expect(entry).toMatchObject({ id: 'wallet', label: 'Wallet', group: 'web3', screen: WALLET_LIST_SCREEN, covers: ['one', 'two'] })
    expect(isRecentEntry(entry, 'two')).toBe(true)
    expect(isRecentEntry(entry, 'email')).toBe(false)
    await kernel.completeLogin(authResponse(wireUser()), { method: 'two', walletClientType: 'w0', chainType: 'ethereum' })
    expect(isRecentEntry(entry, kernel.recentLogin()!.method)).toBe(true)
  })

  it('takes its label from the app texts (texts.wallet)', async () => {
    const { kernel } = await createTestKernel({
      plugins: [testWallet()],
      app: { login_methods: ['wallet'] },
      config: { texts: { wallet: { methodLabel: 'Krypto-Wallet' } } },
    })
    expect(kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })[0].label).toBe('Krypto-Wallet')
  })

  it('sets up, tears down and sets up again cleanly (StrictMode)', async () => {
    const { kernel } = await createTestKernel({ plugins: [testWallet('one'), testWallet('two')], app: { login_methods: ['wallet'] } })
    kernel.destroy()
    expect(kernel.screens.has(WALLET_LIST_SCREEN)).toBe(false)
    kernel.start()
    expect(kernel.screens.has(WALLET_LIST_SCREEN)).toBe(true)
    expect(kernel.screens.has(WALLET_CONNECT_SCREEN)).toBe(true)
    expect(kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })).toHaveLength(1)
  })
})

describe('wallet base: errors', () => {
  it('shows server conflicts on the awaiting-connection screen, elsewhere leaves them to the kernel', async () => {
    const { kernel } = await createTestKernel({ plugins: [testWallet()], app: { login_methods: ['wallet'] } })
    // The error views are declared lazily (screens wait for them; headless code loads them).
    await kernel.loadDeclarations()
    const linked = new PorticoError('linked_to_another_user', 'x', { kind: 'api_error', status: 409 })
    expect(kernel.screens.hasOwnScreen(linked, { screen: WALLET_CONNECT_SCREEN })).toBe(false)
    expect(kernel.screens.resolveError(linked, { screen: WALLET_CONNECT_SCREEN }).detail).toBe('User already exists for this address')
    expect(kernel.screens.hasOwnScreen(linked, { screen: 'email-code' })).toBe(true)
    const allowlist = new PorticoError('allowlist_rejected', 'x', { kind: 'api_error', status: 403 })
    expect(kernel.screens.hasOwnScreen(allowlist, { screen: WALLET_CONNECT_SCREEN })).toBe(true)
    const rejected = new PorticoError('wallet_user_rejected', 'x', { kind: 'wallet_error', retryable: true })
    expect(kernel.screens.resolveError(rejected)).toMatchObject({ title: 'You rejected the request', cta: 'Retry' })
  })
})

describe('wallet base: the wallet list', () => {
  it('shows all of up to 4 wallets, else 3 and More wallets', () => {
    expect(visibleWallets([1, 2, 3, 4], false)).toEqual({ shown: [1, 2, 3, 4], more: false })
    expect(visibleWallets([1, 2, 3, 4, 5], false)).toEqual({ shown: [1, 2, 3], more: true })
    expect(visibleWallets([1, 2, 3, 4, 5], true)).toEqual({ shown: [1, 2, 3, 4, 5], more: false })
  })

  it('has the no-wallet texts word for word', () => {
    expect(WALLET_TEXTS.noWalletsEthereum).toBe(
      'No wallets available: Please download an external wallet provider, like Rainbow, Phantom, or Coinbase Wallet',
    )
    expect(WALLET_TEXTS.noWalletsSolana).toBe('No wallets available: Please download an external wallet provider, like Phantom or Solflare')
  })

  it('lists every registered connector, the recent one first with its chip, in the app texts', async () => {
    const { kernel } = await createTestKernel({
      plugins: [testWallet('test-wallet', [{}, {}])],
      app: { login_methods: ['wallet'] },
      config: { texts: { wallet: { connect: 'Verbinden' } } },
    })
    expect(walletConnectors(kernel).map((c) => c.id)).toEqual(['test-wallet:0', 'test-wallet:1'])
    await kernel.completeLogin(authResponse(wireUser()), { method: 'test-wallet', walletClientType: 'w1', chainType: 'ethereum' })
    await renderScreen(kernel, WALLET_LIST_SCREEN)
    const rows = await screen.findAllByRole('button', { name: /Wallet \d/ })
    expect(rows.map((r) => r.textContent)).toEqual(['Wallet 1Recent', 'Wallet 0Verbinden'])
  })
})

describe('wallet base: the awaiting-connection body for connectors with their own pairing step', () => {
  it("walletConnectionScreen(): the connector's waiting screen while connecting, the base's error screen and Retry after", async () => {
    let reject!: (e: unknown) => void
    const WalletConnection = lazy(walletConnectionScreen)
    const pairing = definePlugin({
      id: 'pairing-wallet',
      kind: 'login',
      setup(ctx) {
        setupWallet(ctx, { method: 'siwe' })
        const connector: WalletLoginConnector = {
          id: 'pairing-wallet',
          name: 'Pairing Wallet',
          chainType: 'ethereum',
          connectorType: 'wallet_connect_v2',
          walletClientType: 'pairing',
          login: true,
          connect: () => new Promise<string>((_, r) => (reject = r)),
          signIn: () => Promise.reject(new Error('not reached')),
        }
        ctx.screens.register({
          id: 'pairing-wallet-connect',
          load: async () => ({
            default: () => (
              <Suspense fallback={null}>
                <WalletConnection
                  connector={connector}
                  connectOnly={false}
                  renderWaiting={(state, back) => (
                    <div data-testid="pairing" data-status={state?.status ?? 'connecting'}>
                      {back}
                    </div>
                  )}
                />
              </Suspense>
            ),
          }),
        })
      },
    })
    const { kernel } = await createTestKernel({ plugins: [pairing], app: { login_methods: ['wallet'] } })
    await renderScreen(kernel, 'pairing-wallet-connect')
    expect((await screen.findByTestId('pairing')).getAttribute('data-status')).toBe('connecting')
    expect(await screen.findByRole('button', { name: WALLET_TEXTS.useDifferentWallet })).toBeTruthy()
    await act(async () => reject(Object.assign(new Error('no'), { code: 4001 })))
    expect(await screen.findByRole('button', { name: WALLET_TEXTS.tryConnectingAgain })).toBeTruthy()
    expect(screen.queryByTestId('pairing')).toBeNull()
  })
})
