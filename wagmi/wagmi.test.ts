// @vitest-environment happy-dom
/**
 * portico/wagmi: wagmi's view of the user's wallets (external connected + linked, embedded),
 * signing routed to the wallet the request names, nothing when logged out.
 */
import { describe, expect, it, vi } from 'vitest'
import { connect, createConfig, getAccount, signMessage } from '@wagmi/core'
import { custom } from 'viem'
import { mainnet } from 'viem/chains'
import { definePlugin } from 'portico'
import { createTestKernel, wireUser } from 'portico/testing'
import { createConnectorStatus, setupWallet, type WalletLoginConnector } from 'portico/kits/wallet'
import { porticoConnector, userEthereumWallets } from './index'

const EXT = '0x1111111111111111111111111111111111111111'
const EMB = '0x2222222222222222222222222222222222222222'
const OTHER = '0x3333333333333333333333333333333333333333'
const at = { verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }

function setup() {
  const ext = createConnectorStatus(null, 'w', { connected: true, address: EXT })
  const other = createConnectorStatus(null, 'w', { connected: true, address: OTHER })
  const extProvider = { request: vi.fn(async () => '0xext') }
  const embProvider = { request: vi.fn(async () => '0xemb') }
  const conn = (id: string, status: typeof ext): WalletLoginConnector => ({
    id,
    name: id,
    chainType: 'ethereum',
    connectorType: 'injected',
    walletClientType: 'metamask',
    login: true,
    status: () => status.get(),
    getEthereumProvider: async () => extProvider,
    connect: async () => '',
    signIn: async () => ({}) as never,
  })
  const external = definePlugin({
    id: 'ext',
    kind: 'login',
    setup(ctx) {
      setupWallet(ctx, { method: 'siwe' })
      ctx.hooks.walletConnectors.tap(ctx.id, (l) => [...l, conn('linked', ext), conn('not-linked', other)])
    },
  })
  const embedded = definePlugin({
    id: 'embedded-wallet',
    kind: 'wallet',
    setup(ctx) {
      ctx.provide({ wallets: () => [{ address: EMB, chainType: 'ethereum', walletClientType: 'privy', getEthereumProvider: async () => embProvider }] })
    },
  })
  return { external, embedded, extProvider, embProvider }
}

describe('portico/wagmi', () => {
  it('lists the linked external wallet and the embedded one; wagmi signs with each through its own provider', async () => {
    const { external, embedded, extProvider, embProvider } = setup()
    const user = wireUser({ accounts: [{ type: 'wallet', address: EXT, chain_type: 'ethereum', connector_type: 'injected', ...at } as never] })
    const { kernel } = await createTestKernel({ plugins: [external, embedded], app: { login_methods: ['wallet'] }, user })
    expect(userEthereumWallets(kernel).map((w) => [w.address, w.kind])).toEqual([
      [EXT, 'external'],
      [EMB, 'embedded'],
    ])
    const config = createConfig({ chains: [mainnet], connectors: [porticoConnector({ kernel })], transports: { [mainnet.id]: custom({ request: async () => null }) }, storage: null })
    await connect(config, { connector: config.connectors[0] })
    expect(getAccount(config)).toMatchObject({ status: 'connected', address: EXT, addresses: [EXT, EMB] })
    expect(await signMessage(config, { account: EMB, message: 'hi' })).toBe('0xemb')
    expect(await signMessage(config, { account: EXT, message: 'hi' })).toBe('0xext')
    expect(embProvider.request).toHaveBeenCalledWith(expect.objectContaining({ method: 'personal_sign' }))
    expect(extProvider.request).toHaveBeenCalledTimes(1)
    const provider = (await config.connectors[0].getProvider()) as { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> }
    await expect(provider.request({ method: 'personal_sign', params: ['0x00', OTHER] })).rejects.toMatchObject({ code: 4100 })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
    await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] })).rejects.toMatchObject({ code: 4200 })
  })

  it('logged out: no wallets, connect refuses', async () => {
    const { external, embedded } = setup()
    const { kernel } = await createTestKernel({ plugins: [external, embedded], app: { login_methods: ['wallet'] } })
    expect(userEthereumWallets(kernel)).toEqual([])
    const config = createConfig({ chains: [mainnet], connectors: [porticoConnector({ kernel })], transports: { [mainnet.id]: custom({ request: async () => null }) }, storage: null })
    await expect(connect(config, { connector: config.connectors[0] })).rejects.toMatchObject({ code: 'must_be_authenticated' })
  })
})
