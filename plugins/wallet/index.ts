/**
 * What `siwe` and `siws` share to put one wallet list on the landing: the 'wallet' landing
 * entry, the 'wallet-list' and 'wallet-connect' screens and the wallet error view. Whichever
 * of the two plugins sets up first registers them; the other sees them and only adds its
 * connectors through the `walletConnectors` hook. The screens are loaded lazily.
 */
import type { PluginContext } from 'portico'
import { icons } from 'portico/ui'
import { walletErrorView } from './errors'
import { WALLET_STRINGS } from './strings'

export const WALLET_METHOD = 'wallet'
export const WALLET_LIST_SCREEN = 'wallet-list'
export const WALLET_CONNECT_SCREEN = 'wallet-connect'
/** Event plugins emit when their connectors change (a wallet announced itself). */
export const CONNECTORS_CHANGED = 'wallet-connectors:changed'

/** The chains the app shows wallets for (appearance.walletChainType). */
export function walletChains(walletChainType: string | undefined): Set<'ethereum' | 'solana'> {
  switch (walletChainType) {
    case 'solana-only':
      return new Set(['solana'])
    case 'ethereum-and-solana':
      return new Set(['ethereum', 'solana'])
    default:
      return new Set(['ethereum'])
  }
}

/** The wallet's landing entry, screens and error view; returns the teardown. */
export function setupWalletShell(ctx: PluginContext): () => void {
  const undo: (() => void)[] = []
  if (!ctx.screens.has(WALLET_LIST_SCREEN)) {
    undo.push(
      ctx.screens.register({ id: WALLET_LIST_SCREEN, load: () => import('./screens/wallet-list') }),
      ctx.screens.register({ id: WALLET_CONNECT_SCREEN, load: () => import('./screens/wallet-connect') }),
    )
  }
  ctx.hooks.loginMethods.tap(ctx.id, (methods) => {
    if (methods.some((m) => m.id === WALLET_METHOD)) return methods
    return [
      ...methods,
      { id: WALLET_METHOD, label: WALLET_STRINGS.methodLabel, group: 'web3' as const, screen: WALLET_LIST_SCREEN, icon: icons.WalletIcon, covers: ['siwe', 'siws'] },
    ]
  })
  ctx.hooks.errorView.tap(ctx.id, (error) => walletErrorView(error))
  return () => {
    for (const u of undo.reverse()) u()
  }
}
