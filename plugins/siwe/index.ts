/**
 * portico/plugins/siwe — log in with an external Ethereum wallet (Sign-In with Ethereum).
 *
 * ```ts
 * import { siwe } from 'portico/plugins/siwe'
 * createPortico({ appId, plugins: [siwe()] })
 * ```
 *
 * Wallets are found through EIP-6963 announcements, with `window.ethereum` as fallback, and
 * driven through viem. The landing gets a 'Wallet' entry (group web3) that opens the wallet
 * list; the list shows every connector registered through the `walletConnectors` hook, so
 * Solana wallets of the `siws` plugin appear in the same list.
 */
import { definePlugin, type Portico, type PorticoPlugin, type User, type WalletConnectorEntry } from 'portico'
import { siweUnlink } from './calls'
import { isLoginConnector, needsSignButton, type SignPrompt, type WalletLoginConnector } from './connector'
import { createEip6963Discovery, type Eip1193Provider, type Eip6963Discovery } from './eip6963'
import { createEthereumConnector } from './ethereum'
import { CONNECTORS_CHANGED, setupWalletShell, walletChains } from './shared'

export interface SiweOptions {
  /** When to wait for 'Sign with your wallet' before the signature: 'auto', 'button', 'mobile' (default). */
  signPrompt?: SignPrompt
  /** Refuse new users (mode 'no-signup'). Default false. */
  disableSignup?: boolean
  /** Wallet request time-out in ms. Default 120000 (spec part 1 section 9). */
  requestTimeoutMs?: number
  /** How long to wait for wallets to announce themselves. Default 3000 ms. */
  detectionTimeoutMs?: number
  /** The statement of the sign-in message. Default: the spec's wording. */
  statement?: string
  /** Where to listen for EIP-6963 announcements (default: the page's window). Tests pass their own. */
  target?: Window
}

export function siwe(options: SiweOptions = {}): PorticoPlugin<'siwe'> {
  return definePlugin({
    id: 'siwe',
    kind: 'login',
    setup(ctx) {
      const undoShell = setupWalletShell(ctx)
      const target = options.target ?? (typeof window !== 'undefined' ? window : undefined)
      let discovery: Eip6963Discovery | null = null
      const connectors = new Map<Eip1193Provider, WalletLoginConnector>()
      if (target) {
        discovery = createEip6963Discovery(target, { detectionTimeoutMs: options.detectionTimeoutMs })
        discovery.subscribe(() => ctx.events.emit(CONNECTORS_CHANGED, { plugin: ctx.id }))
      }
      ctx.hooks.walletConnectors.tap(ctx.id, (list: WalletConnectorEntry[]) => {
        if (!discovery || !walletChains(ctx.config.appearance.walletChainType).has('ethereum')) return list
        const found = discovery.providers().map((d) => {
          let c = connectors.get(d.provider)
          if (!c) {
            c = createEthereumConnector(d, ctx, {
              mode: () => (options.disableSignup ? 'no-signup' : 'login-or-sign-up'),
              requestTimeoutMs: options.requestTimeoutMs,
              statement: options.statement,
              confirmSign: needsSignButton(options.signPrompt),
              chains: () => ({
                supported: ctx.config.supportedChains.map((c) => c.id),
                defaultId: ctx.config.defaultChain.id,
              }),
            })
            connectors.set(d.provider, c)
          }
          return c
        })
        return [...list, ...found]
      })
      return () => {
        discovery?.destroy()
        connectors.clear()
        undoShell()
      }
    },
  })
}

/**
 * Unlink an Ethereum wallet from the logged-in user (POST /siwe/unlink) and update the user
 * record. Resolves with the new user.
 */
export async function unlinkEthereumWallet(kernel: Pick<Portico, 'api' | 'session'>, address: string): Promise<User> {
  const res = await siweUnlink(kernel.api, { address })
  return kernel.session.setUser(res.user)
}

/** The login connectors currently registered (Ethereum and Solana), for custom wallet lists. */
export function walletLoginConnectors(kernel: Pick<Portico, 'hooks'>): WalletLoginConnector[] {
  return kernel.hooks.walletConnectors.call([]).filter(isLoginConnector)
}

export { unlinkWallet, useUnlinkWallet } from './hooks'
export { buildSiweMessage } from './message'
export type { SiweMessageInput } from './message'
export { createEip6963Discovery, walletClientTypeOf } from './eip6963'
export type { Eip1193Provider, Eip6963ProviderInfo, Eip6963Discovery, DiscoveredProvider } from './eip6963'
export { createWalletConnection, isLoginConnector, needsSignButton } from './connector'
export type { WalletLoginConnector, WalletConnection, ConnectionState, ConnectionProgress, WalletIntent, WalletSignInResult, SignPrompt } from './connector'
export {
  toWalletError,
  walletErrorText,
  canRetry,
  MAX_WALLET_RETRIES,
  WALLET_REQUEST_TIMEOUT_MS,
  PROVIDER_DETECTION_TIMEOUT_MS,
  WALLET_CONNECT_CODES,
  STANDARD_WALLET_ERRORS,
  withWalletTimeout,
  providerError,
  SCREEN_ERRORS,
} from './errors'
export type { WalletPhase, WalletErrorText } from './errors'
export type { CompleteFn, ConnectionStatus } from './connector'
// The wallet shell other wallet plugins (siws, third parties) build on: the 'wallet' landing
// entry, the wallet list and awaiting-connection screens, the chains the app shows.
export {
  setupWalletShell,
  walletChains,
  CONNECTORS_CHANGED,
  WALLET_METHOD,
  WALLET_LIST_SCREEN,
  WALLET_CONNECT_SCREEN,
} from './shared'
export { pageOrigin } from './page'
export { WALLET_STRINGS } from './strings'
