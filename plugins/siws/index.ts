/**
 * portico/plugins/siws — log in with an external Solana wallet (Sign-In With Solana).
 *
 * ```ts
 * import { siws } from 'portico/plugins/siws'
 * createPortico({ appId, appearance: { walletChainType: 'solana-only' }, plugins: [siws()] })
 * ```
 *
 * Wallets come from the wallet-standard registry (`wallet-standard:register-wallet` /
 * `wallet-standard:app-ready`). The wallet list, the awaiting-connection screen and the
 * 'Wallet' landing entry are shared with `siwe` (plugins/siwe/shared.ts): whichever plugin
 * sets up first registers them, and the list renders every connector of both.
 */
import { definePlugin, type Portico, type PorticoPlugin, type User, type WalletConnectorEntry } from 'portico'
import { CONNECTORS_CHANGED, needsSignButton, setupWalletShell, walletChains, type SignPrompt, type WalletLoginConnector } from 'portico/plugins/siwe'
import { siwsUnlink } from './calls'
import { createSolanaConnector } from './solana'
import { createWalletStandardRegistry, isSolanaSignInWallet, type StandardWallet, type WalletStandardRegistry } from './wallet-standard'

export interface SiwsOptions {
  /** When to wait for 'Sign with your wallet' before the signature: 'auto', 'button', 'mobile' (default). */
  signPrompt?: SignPrompt
  /** Refuse new users (mode 'no-signup'). Default false. */
  disableSignup?: boolean
  /** Wallet request time-out in ms. Default 120000. */
  requestTimeoutMs?: number
  /** The statement of the sign-in message. Default: the spec's wording. */
  statement?: string
  /** Where the registry events are dispatched (default: the page's window). */
  target?: Window
}

export function siws(options: SiwsOptions = {}): PorticoPlugin<'siws'> {
  return definePlugin({
    id: 'siws',
    kind: 'login',
    setup(ctx) {
      const undoShell = setupWalletShell(ctx)
      const target = options.target ?? (typeof window !== 'undefined' ? window : undefined)
      let registry: WalletStandardRegistry | null = null
      const connectors = new Map<StandardWallet, WalletLoginConnector>()
      if (target) {
        registry = createWalletStandardRegistry(target)
        registry.subscribe(() => ctx.events.emit(CONNECTORS_CHANGED, { plugin: ctx.id }))
      }
      ctx.hooks.walletConnectors.tap(ctx.id, (list: WalletConnectorEntry[]) => {
        if (!registry || !walletChains(ctx.config.appearance.walletChainType).has('solana')) return list
        const found = registry
          .get()
          .filter(isSolanaSignInWallet)
          .map((w) => {
            let c = connectors.get(w)
            if (!c) {
              c = createSolanaConnector(w, ctx, {
                mode: () => (options.disableSignup ? 'no-signup' : 'login-or-sign-up'),
                requestTimeoutMs: options.requestTimeoutMs,
                statement: options.statement,
                confirmSign: needsSignButton(options.signPrompt),
              })
              connectors.set(w, c)
            }
            return c
          })
        return [...list, ...found]
      })
      return () => {
        registry?.destroy()
        connectors.clear()
        undoShell()
      }
    },
  })
}

/** Unlink a Solana wallet (POST /siws/unlink) and update the user record. */
export async function unlinkSolanaWallet(kernel: Pick<Portico, 'api' | 'session'>, address: string): Promise<User> {
  const res = await siwsUnlink(kernel.api, { address })
  return kernel.session.setUser(res.user)
}

export { buildSiwsMessage } from './message'
export type { SiwsMessageInput } from './message'
export { createWalletStandardRegistry, isSolanaSignInWallet, REGISTER_WALLET_EVENT, APP_READY_EVENT } from './wallet-standard'
export type {
  StandardWallet,
  StandardWalletAccount,
  WalletStandardRegistry,
  RegistryApi,
  SolanaSignMessageFeature,
  StandardConnectFeature,
} from './wallet-standard'
