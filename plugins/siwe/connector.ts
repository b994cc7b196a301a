/**
 * An announced EIP-1193 provider as a login connector of the wallet base. Light: it names the
 * wallet and loads the signing code (`./ethereum`: viem's wallet client and the EIP-4361
 * message builder) only when the user picks the wallet.
 */
import type { PluginContext } from 'portico'
import { createConnectorStatus, walletClientTypeOf, watchAccounts, type WalletLoginConnector } from 'portico/kits/wallet'
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
  /**
   * The connectors connected before (kept across reloads). A remembered wallet that still
   * reports an account to `eth_accounts` (it authorised this site; no prompt) is connected
   * again at start-up: initialising until it answered (the wallet base's 1.5 s grace).
   */
  remembered?: RememberedConnectors
}

export interface RememberedConnectors {
  has(id: string): boolean
  add(id: string): void
  remove(id: string): void
}

type Ctx = Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut' | 'events' | 'id'>>

export function createEthereumConnector(d: DiscoveredProvider, ctx: Ctx, options: EthereumConnectorOptions): WalletLoginConnector {
  const walletClientType = walletClientTypeOf(d.info)
  // viem and the message builder load when the user picks this wallet, not when it is announced.
  let pending: Promise<EthereumSession> | null = null
  const session = () =>
    (pending ??= import('./ethereum').then((m) => m.createEthereumSession(d.provider, ctx.api, { ...options, walletClientType })))

  const id = d.source === 'eip6963' ? `eip6963:${d.info.rdns || d.info.uuid}` : 'injected'
  const remembered = options.remembered
  const reconnect = !!remembered?.has(id)
  const status = createConnectorStatus(ctx.events ?? null, ctx.id ?? 'siwe', reconnect ? { initialized: false } : {})
  // A wallet that reports no accounts (or disconnects) is disconnected (spec part 1 section 4).
  let unwatch: (() => void) | null = null
  const connected = (address: string) => {
    status.set({ connected: true, address })
    unwatch ??= watchAccounts(d.provider, status)
    remembered?.add(id)
  }
  if (reconnect) {
    // Silent: `eth_accounts` never prompts (`eth_requestAccounts` would).
    void Promise.resolve()
      .then(() => d.provider.request({ method: 'eth_accounts' }))
      .then(
        (accounts) => {
          const address = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : null
          if (address && !status.get().connected) connected(address)
          else if (!address) remembered!.remove(id)
        },
        () => remembered!.remove(id),
      )
      .finally(() => status.set({ initialized: true }))
  }
  return {
    id,
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
      remembered?.remove(id)
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
