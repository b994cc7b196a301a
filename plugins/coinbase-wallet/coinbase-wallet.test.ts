// @vitest-environment happy-dom
/**
 * The Coinbase Wallet connector: one row (replacing the extension's own EIP-6963 row), the
 * SDK loaded only when the user picks it, SIWE with `connectorType: 'coinbase_wallet'`, the
 * smart-wallet preference's name and client type, disconnect on no accounts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { isHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { definePlugin } from 'portico'
import { authResponse, createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { setupWallet, walletConnectors, type WalletLoginConnector } from 'portico/kits/wallet'
import { COINBASE_CONNECTOR_ID, coinbaseWallet } from './index'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const sdk = vi.hoisted(() => ({ created: [] as unknown[], listeners: {} as Record<string, (a: unknown) => void> }))

vi.mock('@coinbase/wallet-sdk', () => ({
  createCoinbaseWalletSDK(params: unknown) {
    sdk.created.push(params)
    return {
      getProvider: () => ({
        on: (e: string, l: (a: unknown) => void) => void (sdk.listeners[e] = l),
        removeListener: () => {},
        async request({ method, params }: { method: string; params?: unknown[] }) {
          const p = params ?? []
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account.address]
          if (method === 'eth_chainId') return '0x1'
          if (method === 'personal_sign') return account.signMessage({ message: isHex(p[0]) ? { raw: p[0] as Hex } : String(p[0]) })
          throw Object.assign(new Error(method), { code: 4200 })
        },
      }),
    }
  },
}))

beforeEach(() => {
  sdk.created.length = 0
})

pluginContract(() => coinbaseWallet(), { loginMethods: ['wallet'] })

const injectedCoinbase = definePlugin({
  id: 'fake-siwe',
  kind: 'login',
  setup(ctx) {
    setupWallet(ctx, { method: 'siwe' })
    const c = { id: 'eip6963:com.coinbase.wallet', name: 'Coinbase Wallet', chainType: 'ethereum', connectorType: 'injected', walletClientType: 'coinbase_wallet', login: true, connect: async () => '', signIn: async () => ({}) as never }
    ctx.hooks.walletConnectors.tap(ctx.id, (list) => [...list, c as WalletLoginConnector])
  },
})

describe('coinbase-wallet', () => {
  it('one row that replaces the extension row; the SDK loads only on connect; SIWE says coinbase_wallet', async () => {
    const { kernel, net } = await createTestKernel({ plugins: [injectedCoinbase, coinbaseWallet()], app: { login_methods: ['wallet'], name: 'Acme' } as never })
    const list = walletConnectors(kernel)
    expect(list.map((c) => [c.id, c.name, c.connectorType, c.walletClientType])).toEqual([[COINBASE_CONNECTOR_ID, 'Coinbase Wallet', 'coinbase_wallet', 'coinbase_wallet']])
    expect(sdk.created).toHaveLength(0)
    const [c] = list
    net.on('POST', '/siwe/init', { nonce: 'n0nce1234' }).on('POST', '/siwe/authenticate', authResponse(wireUser()))
    expect(await c.connect()).toBe(account.address)
    expect(sdk.created).toEqual([expect.objectContaining({ appName: 'Acme', appChainIds: [1], preference: { options: 'all' } })])
    expect(c.status?.()).toMatchObject({ connected: true, address: account.address })
    const { meta } = await c.signIn(account.address, 'login')
    expect(net.callsTo('POST', '/siwe/authenticate')[0].body).toMatchObject({ walletClientType: 'coinbase_wallet', connectorType: 'coinbase_wallet', chainId: 'eip155:1' })
    expect(meta).toMatchObject({ method: 'siwe', walletClientType: 'coinbase_wallet' })
    // The wallet reports no accounts: disconnected.
    sdk.listeners.accountsChanged([])
    expect(c.status?.()).toMatchObject({ connected: false, address: null })
  })

  it("smartWalletOnly is the 'Coinbase Smart Wallet' (coinbase_smart_wallet); a custom keys URL reaches the SDK", async () => {
    const { kernel } = await createTestKernel({ plugins: [coinbaseWallet({ preference: 'smartWalletOnly', keysUrl: 'http://127.0.0.1:8795' })], app: { login_methods: ['wallet'] } })
    const [c] = walletConnectors(kernel)
    expect([c.name, c.walletClientType]).toEqual(['Coinbase Smart Wallet', 'coinbase_smart_wallet'])
    await c.connect()
    expect(sdk.created[0]).toMatchObject({ preference: { options: 'smartWalletOnly', keysUrl: 'http://127.0.0.1:8795' } })
  })

  it('is not listed for a Solana-only app', async () => {
    const { kernel } = await createTestKernel({ plugins: [coinbaseWallet()], app: { login_methods: ['wallet'] }, config: { appearance: { walletChainType: 'solana-only' } } })
    expect(walletConnectors(kernel)).toEqual([])
  })
})
