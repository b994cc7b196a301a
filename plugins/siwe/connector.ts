/**
 * An announced EIP-1193 provider as a login connector of the wallet base. Light: it names the
 * wallet and loads the signing code (`./ethereum`: viem's wallet client and the EIP-4361
 * message builder) only when the user picks the wallet.
 */
import type { PluginContext } from 'portico'
import { createConnectorStatus, walletClientTypeOf, watchAccounts, type WalletLoginConnector } from 'portico/plugins/wallet'
import type { DiscoveredProvider } from './eip6963'
import type { EthereumSession } from './ethereum'

export interface EthereumConnectorOptions {
  /** 'no-signup' refuses new users. */
  mode: () => 'login-or-sign-up' | 'no-signup'
  /** Wallet request time-out in ms (default 120000). */
  requestTimeoutMs?: number
  /** Sign-in statement (read when signing: the app's texts may change). */
  statement: () => string
  confirmSign?: boolean
  /** The app's chains: a wallet on another chain is asked to switch to the default one. */
  chains?: () => { supported: number[]; defaultId: number }
}

type Ctx = Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut' | 'events' | 'id'>>

export function createEthereumConnector(d: DiscoveredProvider, ctx: Ctx, options: EthereumConnectorOptions): WalletLoginConnector {
  const walletClientType = walletClientTypeOf(d.info)
  // viem and the message builder load when the user picks this wallet, not when it is announced.
  let pending: Promise<EthereumSession> | null = null
  const session = () =>
    (pending ??= import('./ethereum').then((m) => m.createEthereumSession(d.provider, ctx.api, { ...options, walletClientType })))

  const status = createConnectorStatus(ctx.events ?? null, ctx.id ?? 'siwe')
  // A wallet that reports no accounts (or disconnects) is disconnected (spec part 1 section 4).
  let unwatch: (() => void) | null = null
  const connected = (address: string) => {
    status.set({ connected: true, address })
    unwatch ??= watchAccounts(d.provider, status)
  }
  return {
    id: d.source === 'eip6963' ? `eip6963:${d.info.rdns || d.info.uuid}` : 'injected',
    name: d.info.name,
    icon: d.info.icon || undefined,
    chainType: 'ethereum',
    connectorType: 'injected',
    walletClientType,
    login: true,
    method: 'siwe',
    confirmSign: options.confirmSign,
    provider: d.provider,
    rdns: d.info.rdns,
    status: () => status.get(),
    async getEthereumProvider() {
      return d.provider
    },
    async disconnect() {
      unwatch?.()
      unwatch = null
      status.set({ connected: false })
    },
    async connect(signal) {
      const address = await (await session()).connect(signal)
      connected(address)
      return address
    },
    async signIn(address, intent, signal, progress) {
      if (intent === 'login') ctx.assertLoggedOut?.()
      return (await session()).signIn(address, intent, signal, progress)
    },
  }
}
