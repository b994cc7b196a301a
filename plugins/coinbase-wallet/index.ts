/**
 * portico/plugins/coinbase-wallet — log in with Coinbase Wallet: its browser extension, the
 * Coinbase Wallet app (its own browser), or the Coinbase Smart Wallet (a smart-contract
 * account; its signatures are ERC-1271, or ERC-6492 before the account is deployed, and the
 * server verifies them on chain).
 *
 * ```ts
 * import { siwe } from 'portico/plugins/siwe'
 * import { coinbaseWallet } from 'portico/plugins/coinbase-wallet'
 * createPortico({ appId, plugins: [siwe(), coinbaseWallet({ preference: 'all' })] })
 * ```
 *
 * One 'Coinbase Wallet' row in the wallet list ('Coinbase Smart Wallet' with
 * `preference: 'smartWalletOnly'`); it replaces the extension's own EIP-6963 row. The SDK
 * (`@coinbase/wallet-sdk`, an optional peer) and viem load only when the user picks it.
 */
import { definePlugin, type PorticoPlugin, type WalletConnectorEntry } from 'portico'
import {
  createConnectorStatus,
  needsSignButton,
  setupWallet,
  walletChains,
  watchAccounts,
  type Eip1193Like,
  type SignPrompt,
  type WalletLoginConnector,
} from 'portico/kits/wallet'
import type { EthereumSession } from 'portico/plugins/siwe'
import { COINBASE_WALLET_TEXTS } from './strings'

export interface CoinbaseWalletOptions {
  /** 'all' (default: extension, app or smart wallet), 'smartWalletOnly', 'eoaOnly'. */
  preference?: 'all' | 'smartWalletOnly' | 'eoaOnly'
  /** Shown by the wallet. Default: the app's name and logo. */
  appName?: string
  appLogoUrl?: string
  /** The smart wallet's popup origin (default Coinbase's keys.coinbase.com). */
  keysUrl?: string
  signPrompt?: SignPrompt
  disableSignup?: boolean
  /** Wallet request time-out in ms. Default 120000. */
  requestTimeoutMs?: number
  /** SIWE statement. Default `SIWE_TEXTS.statement` (overridable with `texts.siwe`). */
  statement?: string
}

export const COINBASE_CONNECTOR_ID = 'coinbase_wallet'

export interface CoinbaseWalletApi {
  connector(): WalletLoginConnector
}

declare module 'portico' {
  interface PluginApis {
    'coinbase-wallet': CoinbaseWalletApi
  }
}

export function coinbaseWallet(options: CoinbaseWalletOptions = {}): PorticoPlugin<'coinbase-wallet'> {
  return definePlugin({
    id: 'coinbase-wallet',
    kind: 'login',
    setup(ctx) {
      setupWallet(ctx, { method: 'siwe' })
      const preference = options.preference ?? 'all'
      const smart = preference === 'smartWalletOnly'
      const walletClientType = smart ? 'coinbase_smart_wallet' : 'coinbase_wallet'
      const status = createConnectorStatus(ctx.events, ctx.id)
      let provider: Eip1193Like | null = null
      let unwatch: (() => void) | null = null
      let pending: Promise<EthereumSession> | null = null
      const texts = () => ctx.texts(COINBASE_WALLET_TEXTS)
      // The SDK and the sign-in (./sign-in.ts) load when the user picks the wallet.
      const load = async () => {
        if (!provider) {
          const p = (await import('./sign-in')).createProvider(ctx, options, preference)
          provider ??= p
        }
        return provider
      }
      const session = () =>
        (pending ??= load()
          .then(async (p) => (await import('./sign-in')).createSession(ctx, options, p, walletClientType))
          .catch((e) => {
            pending = null
            throw e
          }))

      const connector: WalletLoginConnector = {
        id: COINBASE_CONNECTOR_ID,
        get name() {
          return smart ? texts().smartWalletName : texts().name
        },
        chainType: 'ethereum',
        connectorType: 'coinbase_wallet',
        walletClientType,
        login: true,
        method: 'siwe',
        confirmSign: needsSignButton(options.signPrompt),
        status: () => status.get(),
        async getEthereumProvider() {
          return load()
        },
        async disconnect() {
          unwatch?.()
          unwatch = null
          await (provider as { disconnect?: () => Promise<void> } | null)?.disconnect?.().catch(() => {})
          status.set({ connected: false })
        },
        async connect(signal) {
          const address = await (await session()).connect(signal)
          status.set({ connected: true, address })
          if (provider) unwatch ??= watchAccounts(provider, status)
          return address
        },
        async signIn(address, intent, signal, progress) {
          if (intent === 'login') ctx.assertLoggedOut()
          return (await session()).signIn(address, intent, signal, progress)
        },
      }
      ctx.hooks.walletConnectors.tap({ name: ctx.id, stage: 10 } as never, (list: WalletConnectorEntry[]) => {
        if (!walletChains(ctx.config.appearance.walletChainType).has('ethereum')) return list
        // The SDK drives the extension too: its own EIP-6963 row would be the same wallet twice.
        const rest = list.filter((c) => !((c as Partial<WalletLoginConnector>).connectorType === 'injected' && (c as Partial<WalletLoginConnector>).walletClientType === 'coinbase_wallet'))
        return [...rest, connector]
      })
      ctx.provide<CoinbaseWalletApi>({ connector: () => connector })
    },
  })
}

export { COINBASE_WALLET_TEXTS } from './strings'
export type { CoinbaseWalletTexts } from './strings'
