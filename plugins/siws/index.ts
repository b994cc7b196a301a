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
 * 'Wallet' landing entry are the wallet base's (`portico/kits/wallet`), shared with `siwe`
 * and any other wallet plugin: the list renders every connector of all of them.
 */
import { definePlugin, type Portico, type PorticoPlugin, type User } from 'portico'
import { needsSignButton, setupSignInWallets, type SignInWalletsApi, type SignPrompt, type WalletLoginConnector } from 'portico/kits/wallet'
import { createSolanaConnector } from './solana'
import { SIWS_TEXTS } from './strings'
import { createWalletStandardRegistry, isSolanaSignInWallet } from './wallet-standard'

// The API calls (./calls.ts) load on use.
const calls = () => import('./calls')

export interface SiwsOptions {
  /** When to wait for 'Sign with your wallet' before the signature: 'auto', 'button', 'mobile' (default). */
  signPrompt?: SignPrompt
  /** Refuse new users (mode 'no-signup'). Default false. */
  disableSignup?: boolean
  /** Wallet request time-out in ms. Default 120000. */
  requestTimeoutMs?: number
  /** The statement of the sign-in message. Default: `SIWS_TEXTS.statement` (overridable with `texts.siws`). */
  statement?: string
  /** Where the registry events are dispatched (default: the page's window). */
  target?: Window
}

/**
 * What `kernel.plugin('siws')` / `usePlugin('siws')` return: `connectors()`, the registered
 * Solana sign-in wallets as login connectors (whatever the app's chains); `unlink(address)`,
 * unlink a Solana wallet (POST /siws/unlink) and update the user record.
 */
export type SiwsApi = SignInWalletsApi

/** The plugin's state: the login connectors of the registered wallets. */
export interface SiwsState {
  wallets: WalletLoginConnector[]
}

declare module 'portico' {
  interface PluginApis {
    siws: SiwsApi
  }
}

export function siws(options: SiwsOptions = {}): PorticoPlugin<'siws'> {
  return definePlugin({
    id: 'siws',
    kind: 'login',
    setup(ctx) {
      const target = options.target ?? (typeof window !== 'undefined' ? window : undefined)
      const registry = target ? createWalletStandardRegistry(target) : null
      return setupSignInWallets(ctx, {
        method: 'siws',
        chain: 'solana',
        calls: () => calls().then((m) => ({ transfer: m.transferSiws, unlink: m.unlinkSiws })),
        source: registry,
        list: () => registry!.get().filter(isSolanaSignInWallet),
        connector: (w) =>
          createSolanaConnector(w, ctx, {
            mode: () => (options.disableSignup ? 'no-signup' : 'login-or-sign-up'),
            requestTimeoutMs: options.requestTimeoutMs,
            statement: () => options.statement ?? ctx.texts(SIWS_TEXTS).statement,
            confirmSign: needsSignButton(options.signPrompt),
          }),
      })
    },
  })
}

/** Unlink a Solana wallet (POST /siws/unlink) and update the user record. */
export async function unlinkSolanaWallet(kernel: Pick<Portico, 'api' | 'session'>, address: string): Promise<User> {
  const res = await (await calls()).unlinkSiws(kernel.api, { address })
  return kernel.session.setUser(res.user)
}

export { buildSiwsMessage } from './message'
export { SIWS_TEXTS } from './strings'
export type { SiwsMessageInput } from './message'
export { createWalletStandardRegistry, isSolanaSignInWallet, REGISTER_WALLET_EVENT, APP_READY_EVENT } from './wallet-standard'
export type {
  StandardWallet,
  StandardWalletAccount,
  WalletStandardRegistry,
  RegistryApi,
  SolanaSignMessageFeature,
  SolanaSignAndSendTransactionFeature,
  SolanaSignTransactionFeature,
  SolanaSignInFeature,
  SolanaSignInInput,
  StandardConnectFeature,
} from './wallet-standard'
