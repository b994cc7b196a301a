/**
 * portico/plugins/funding — the funding base (spec part 2: 'Funding screens', 'Funding
 * request', 'Funding', 'Funding rules', section 8 'Funding'): the method selection, the amount
 * ('Confirm or edit amount'), manual transfer ('Receive {amount} {symbol}', QR code, copyable
 * address, balance polled every 2 s), transfer from an external wallet (the wallet base's
 * connectors), the 'Create a Phantom wallet' screen, and `useFundWallet()`.
 *
 * ```ts
 * createPortico({ appId, plugins: [funding(), moonpay(), coinbaseOnramp(), bridge()] })
 * const { fundWallet } = useFundWallet()
 * await fundWallet({ address, chain: base, amount: '0.05' })
 * ```
 *
 * Each provider is its own plugin of kind 'funding' contributing a `FundingMethod` through the
 * kernel's `fundingMethods` hook (this base contributes manual transfer and transfer from a
 * wallet), so an app pays only for the providers it enables. Other plugins call
 * `kernel.plugin('funding')?.fund({ address, chain, amount })` (approvals' 'Add funds'), and
 * the embedded wallet calls `promptAfterWalletCreation(wallet)` after creating one.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { CopyIcon, WalletIcon } from 'portico/ui'
import { createFundingApi, type FundingApi, type FundingOptions } from './api'
import {
  FUNDING_MANUAL_SCREEN,
  FUNDING_METHODS_SCREEN,
  FUNDING_AMOUNT_SCREEN,
  FUNDING_PHANTOM_SCREEN,
  FUNDING_WALLETS_SCREEN,
  FUNDING_WALLET_TRANSFER_SCREEN,
} from './ids'
import type { FundingMethod } from 'portico/kits/funding'
import type { FUNDING_TEXTS } from './strings'

// The entry holds the factory and the API's state; the texts (./strings.ts) load during
// start-up (the manifest's), the flow (./flow.ts), the error views and the screens on use. What the providers share with this plugin
// (the request, the method entry, popup, poll, amounts, chain reads, transfers) is portico/kits/funding.
export type { FundingApi, FundingOptions, FundingState, FundingData, FundingResult } from './api'
export { useFundWallet, useFundingRequest } from './react'
/** What a host passes to `fund()` / `useFundWallet().fundWallet()` (the funding kit's types). */
export type { FundingRequest, FundingChain, SolanaCluster } from 'portico/kits/funding'
/** The funding base's texts (./strings.ts, `FUNDING_TEXTS`, the manifest's): apps override them under `texts: { funding: {...} }`. */
export type FundingTexts = typeof FUNDING_TEXTS

declare module 'portico' {
  interface PluginApis {
    funding: FundingApi
  }
}

export function funding(options: FundingOptions = {}): PorticoPlugin<'funding', FundingTexts> {
  return definePlugin({
    id: 'funding',
    kind: 'funding',
    texts: () => import('./strings').then((m) => m.FUNDING_TEXTS),
    errors: (texts) => import('./errors').then((m) => m.fundingErrors(texts)),
    screens: {
      [FUNDING_METHODS_SCREEN]: () => import('./screens/methods'),
      [FUNDING_AMOUNT_SCREEN]: () => import('./screens/amount'),
      [FUNDING_MANUAL_SCREEN]: () => import('./screens/manual'),
      [FUNDING_WALLETS_SCREEN]: () => import('./screens/wallets'),
      [FUNDING_WALLET_TRANSFER_SCREEN]: () => import('./screens/wallet-transfer'),
      [FUNDING_PHANTOM_SCREEN]: () => import('./screens/phantom'),
    },
    setup(ctx) {
      ctx.provide(createFundingApi(ctx, options))
      ctx.hooks.fundingMethods.tap(ctx.id, (list) => {
        const wallet: FundingMethod = {
          id: 'funding-wallet',
          kind: 'wallet',
          label: ctx.texts().walletLabel,
          description: ctx.texts().walletDescription,
          icon: WalletIcon,
          order: 30,
          screen: FUNDING_WALLETS_SCREEN,
          // A Solana wallet sends SOL only (no SPL transfer yet): USDC on Solana is shown disabled.
          unsupported: (r) => (r.chainType === 'solana' && r.isUSDC ? ctx.texts().unsupported : undefined),
        }
        const manual: FundingMethod = {
          id: 'funding-manual',
          kind: 'manual',
          label: ctx.texts().manualLabel,
          description: ctx.texts().manualDescription,
          icon: CopyIcon,
          order: 90,
          screen: FUNDING_MANUAL_SCREEN,
        }
        return [...list, wallet, manual]
      })
    },
  })
}
