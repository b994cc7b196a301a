// The wallet kit's internal hub: every part of the kit, for its own files and tests. The public surface is ./index.ts.
/**
 * portico/kits/wallet — the wallet kit that `siwe`, `siws`, embedded wallets and
 * WalletConnect build on: the 'Wallet' landing entry (covering the signature methods behind
 * it, so the 'Recent' chip finds it), the wallet list and awaiting-connection screens
 * (`wallet-list`, `wallet-connect`, lazy), the connector registry (the kernel's
 * `walletConnectors` hook), the wallet errors and texts (`WALLET_TEXTS`, overridable under
 * `texts: { wallet: {...} }`), and the `wallet` / `smart_wallet` account types with the user
 * record's `wallet` and `delegatedWallets`.
 *
 * Apps do not add it: a wallet plugin calls `setupWallet(ctx, { method })` in its setup and
 * the first one to do so registers the shared parts; apps keep listing `siwe()` / `siws()`
 * and the login method 'wallet'. Light on purpose: no chain library at module level.
 *
 * ```ts
 * // a third-party wallet plugin
 * setup(ctx) {
 *   setupWallet(ctx, { method: 'my-wallet' })
 *   ctx.hooks.walletConnectors.tap(ctx.id, (list) => [...list, myConnector])
 * }
 * ```
 */
import type { Portico, PluginContext, ResolvedConfig } from 'portico'
import { WalletIcon } from 'portico/ui'
import { WALLET_METHOD, smartWalletDescriptor, walletDescriptor } from './account'
import { walletChains } from './chains'
import { isLoginConnector, type WalletLoginConnector } from './connection'
import {
  CONNECTORS_CHANGED,
  WALLET_CONNECT_SCREEN,
  WALLET_FAILED_SCREEN,
  WALLET_INSTALL_SCREEN,
  WALLET_LIST_SCREEN,
  WALLET_REDIRECT_SCREEN,
} from './ids'

declare module 'portico' {
  interface PorticoEvents {
    'wallet-connectors:changed': { plugin: string }
  }
}

export interface WalletPluginInfo {
  /** The login method the plugin signs in with ('siwe', 'siws'): the 'Wallet' entry covers it. */
  method: string
}

/**
 * Attach a wallet plugin to the wallet base. The first wallet plugin to call it registers
 * the wallet screens, declares the `wallet` method (account types, normalising, unlink) and
 * the wallet errors; every caller's method is covered by the one 'Wallet' landing entry.
 * All of it is undone with the calling plugin's teardown.
 */
export function setupWallet(ctx: PluginContext, plugin: WalletPluginInfo): void {
  if (!ctx.methods.get(WALLET_METHOD)) {
    ctx.screens.register({ id: WALLET_LIST_SCREEN, load: () => import('./screens/wallet-list') })
    ctx.screens.register({ id: WALLET_CONNECT_SCREEN, load: () => import('./screens/wallet-connect') })
    ctx.screens.register({ id: WALLET_INSTALL_SCREEN, load: () => import('./screens/wallet-install') })
    ctx.screens.register({ id: WALLET_REDIRECT_SCREEN, load: () => import('./screens/wallet-mobile-redirect') })
    ctx.screens.register({ id: WALLET_FAILED_SCREEN, load: () => import('./screens/wallet-login-failed') })
    ctx.methods.declare(walletDescriptor())
    if (!ctx.methods.get('smart_wallet')) ctx.methods.declare(smartWalletDescriptor())
    ctx.declareErrors(() => loadWalletKit().then((m) => m.walletErrors(() => ctx.texts(m.WALLET_TEXTS, 'wallet'))))
  }
  ctx.hooks.loginMethods.tap(ctx.id, (methods) => {
    const i = methods.findIndex((m) => m.id === WALLET_METHOD)
    if (i < 0) {
      const label = methodLabel(ctx)
      return [
        ...methods,
        {
          id: WALLET_METHOD,
          label,
          group: 'web3' as const,
          screen: WALLET_LIST_SCREEN,
          icon: WalletIcon,
          covers: [plugin.method],
          // The wallet list a click opens (and the flow helpers it needs), loaded at idle once ready.
          preload: () => Promise.all([import('./screens/wallet-list'), loadWalletKit()]),
        },
      ]
    }
    const entry = methods[i]
    if (entry.covers?.includes(plugin.method)) return methods
    const next = methods.slice()
    next[i] = { ...entry, covers: [...(entry.covers ?? []), plugin.method] }
    return next
  })
}

/**
 * The flow helpers (./kit.ts: `toWalletError`, `walletErrorText`, `canRetry`,
 * `withWalletTimeout`, `createWalletConnection`, `walletErrors`, `WALLET_TEXTS` ...), loaded on
 * first use: a connector calls them inside its connect / sign-in code, which runs after a click.
 */
export const loadWalletKit = () => import('./kit')
export type WalletKit = Awaited<ReturnType<typeof loadWalletKit>>

/**
 * The landing entry's label: `WALLET_TEXTS.methodLabel` with the app's override
 * (`texts: { wallet: { methodLabel } }`); the texts themselves (./strings.ts) load with the screens.
 */
function methodLabel(ctx: PluginContext): string {
  const own = (ctx.config.texts as Record<string, Record<string, unknown> | undefined>).wallet?.methodLabel
  return typeof own === 'string' ? own : 'Wallet'
}

/** The login connectors currently registered (every wallet plugin's), for custom wallet lists. */
export function walletConnectors(kernel: Pick<Portico, 'hooks'>): WalletLoginConnector[] {
  return kernel.hooks.walletConnectors.call([]).filter(isLoginConnector)
}

/**
 * The awaiting-connection screen's body (`WalletConnection`: Retry, errors, 'Sign with your
 * wallet', done, connect-only close) for a connector with a pairing step of its own, which
 * draws only its waiting screens. Loads lazily, as the screen does (`React.lazy` it).
 */
export const walletConnectionScreen = () => import('./screens/wallet-connect').then((m) => ({ default: m.WalletConnection }))
export type { WalletConnectionProps } from './screens/wallet-connect'

export {
  WALLET_LIST_SCREEN,
  WALLET_CONNECT_SCREEN,
  WALLET_INSTALL_SCREEN,
  WALLET_REDIRECT_SCREEN,
  WALLET_FAILED_SCREEN,
  CONNECTORS_CHANGED,
  walletChains,
}
export { WALLET_METHOD, WALLET_FIELDS, SMART_WALLET_FIELDS, normaliseWallet, deriveWallets, isExternalWallet } from './account'
export { unlinkExternalWallet } from './calls'
export { unlinkWallet, useUnlinkWallet } from './unlink'
export { walletClientTypeOf, walletBrand, brandName, mobilePlatform, WALLET_BRANDS, DETECTED_WALLETS } from './brands'
export type { WalletBrand } from './brands'
export type { WalletRow, WalletRowOptions } from './list'
export { pageOrigin, pageUrl, navigateTo } from './page'
export {
  connectedWallets,
  createConnectorStatus,
  guardProvider,
  pollAccounts,
  providerError,
  watchAccounts,
  PROVIDER_ERRORS,
} from './wallets'
export type { ExternalWallet, ConnectorStatusStore } from './wallets'
export { connectWallet, connectOrCreateWallet, useConnectWallet, useExternalWallets } from './host'
export type { ConnectWalletResult } from './host'
// The hub re-exports the connection module whole; ./index.ts names what is public.
export * from './connection'
export { WALLET_CONNECT_CODES } from './codes'
export type { WalletPhase, WalletErrorText } from './errors'
export {
  MAX_WALLET_RETRIES,
  WALLET_REQUEST_TIMEOUT_MS,
  PROVIDER_DETECTION_TIMEOUT_MS,
  ACCOUNT_POLL_ATTEMPTS,
  ACCOUNT_POLL_INTERVAL_MS,
  CONNECTOR_INIT_GRACE_MS,
  APP_STORE_FALLBACK_MS,
} from './limits'
export type { WalletTexts } from './strings'
