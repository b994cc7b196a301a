/**
 * The WalletConnect plugin's configuration, connector shape, deep links and error mapping.
 * The connection itself (pairing through the relay stand-in with a real wallet-side
 * sign-client, QR closing, MetaMask wait, restore, disconnect) is test/walletconnect/connector.test.ts;
 * the browser flow test/e2e/walletconnect.spec.ts.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract } from 'portico/testing'
import { walletConnectors, type WalletLoginConnector } from 'portico/kits/wallet'
import { walletconnect, walletDeepLink, walletOpenLink, DEFAULT_MOBILE_WALLETS, type WalletConnectOptions } from './index'
import { peerClientType } from './client'
import { qrClosedError, walletRpcError } from './errors'
import { mobileWalletsFor } from './wallets'

async function setup(options: WalletConnectOptions = {}) {
  const t = await createTestKernel({
    plugins: [walletconnect({ projectId: 'portico-test-project', relayUrl: 'ws://127.0.0.1:9', ...options })],
    app: { login_methods: ['wallet'] },
    config: { externalWallets: { walletConnect: { enabled: true } } },
  })
  const api = t.kernel.plugin('walletconnect')
  const connector = walletConnectors(t.kernel).find((c) => c.id === 'walletconnect') as WalletLoginConnector
  return { ...t, api, connector }
}

const kernels: { destroy(): void }[] = []
afterEach(() => {
  for (const k of kernels.splice(0)) k.destroy()
})

pluginContract(() => walletconnect({ projectId: 'portico-test-project', relayUrl: 'ws://127.0.0.1:9' }), { loginMethods: ['wallet'] })

describe('walletconnect: configuration', () => {
  it('offers WalletConnect (wallet_connect_v2) in the wallet list when enabled with a project id; the libraries are not loaded', async () => {
    const { kernel, connector, api } = await setup()
    kernels.push(kernel)
    expect(connector).toMatchObject({ id: 'walletconnect', name: 'WalletConnect', connectorType: 'wallet_connect_v2', chainType: 'ethereum', screen: 'walletconnect-connect', method: 'siwe' })
    expect(api.state.get().status).toBe('idle')
    expect(api.isMobile()).toBe(false)
    // Nothing pending: closing a QR that is not shown does nothing; nothing kept: restore
    // answers null without loading the WalletConnect libraries.
    api.closeQr()
    expect(await api.restore()).toBeNull()
    expect(api.state.get().status).toBe('idle')
  })

  it('offers deep links instead of the QR code on mobile (option or user agent)', async () => {
    const { kernel, api } = await setup({ mobile: true, mobileWallets: [{ id: 'rainbow', name: 'Rainbow', universalLink: 'https://rnbwapp.com' }] })
    kernels.push(kernel)
    expect(api.isMobile()).toBe(true)
    expect(api.mobileWallets().map((w) => w.name)).toEqual(['Rainbow'])
  })

  it('reads the project id and enabled flag from the host config, and is off without a project id', async () => {
    const on = await createTestKernel({
      plugins: [walletconnect()],
      app: { login_methods: ['wallet'] },
      config: { walletConnectCloudProjectId: 'from-host', externalWallets: { walletConnect: { enabled: true } } },
    })
    expect(walletConnectors(on.kernel).map((c) => c.id)).toEqual(['walletconnect'])
    on.kernel.destroy()
    const off = await createTestKernel({
      plugins: [walletconnect({ projectId: 'p' })],
      app: { login_methods: ['wallet'] },
      config: { externalWallets: { walletConnect: { enabled: false } } },
    })
    expect(walletConnectors(off.kernel)).toEqual([])
    off.kernel.destroy()
    const none = await createTestKernel({ plugins: [walletconnect()], app: { login_methods: ['wallet'] } })
    expect(walletConnectors(none.kernel)).toEqual([])
    expect(none.warnings.some((w) => w.includes('no project id'))).toBe(true)
    none.kernel.destroy()
    const solana = await createTestKernel({ plugins: [walletconnect({ projectId: 'p' })], app: { login_methods: ['wallet'], wallet_chain_type: 'solana-only' } })
    expect(walletConnectors(solana.kernel)).toEqual([])
    solana.kernel.destroy()
  })

  it('builds mobile deep links from the wallet universal link, and maps wallet names and refusals', () => {
    const uri = 'wc:abc@2?relay-protocol=irn&symKey=01'
    expect(walletDeepLink(DEFAULT_MOBILE_WALLETS[0], uri)).toBe(`https://metamask.app.link/wc?uri=${encodeURIComponent(uri)}`)
    expect(walletOpenLink({ universalLink: 'https://rnbwapp.com/' })).toBe('https://rnbwapp.com/wc')
    expect(mobileWalletsFor(DEFAULT_MOBILE_WALLETS, ['rainbow', 'phantom']).map((w) => w.id)).toEqual(['rainbow'])
    expect(mobileWalletsFor(DEFAULT_MOBILE_WALLETS, ['phantom']).map((w) => w.id)).toEqual(DEFAULT_MOBILE_WALLETS.map((w) => w.id))
    expect(qrClosedError()).toMatchObject({ code: 4001 })
    expect(peerClientType('MetaMask Wallet')).toBe('metamask')
    expect(peerClientType('Rainbow')).toBe('rainbow')
    expect(peerClientType('Some Other Wallet')).toBe('wallet_connect')
    expect((walletRpcError({ code: 5000, message: 'User rejected.' }) as any).code).toBe(4001)
    expect((walletRpcError({ code: -32000, message: 'x' }) as any).code).toBe(-32000)
  })
})

