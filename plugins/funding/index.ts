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
import { definePlugin, type PorticoPlugin, type ScreenDefinition } from 'portico'
import { CopyIcon, WalletIcon } from 'portico/ui'
import { createFundingApi, type FundingApi, type FundingOptions } from './api'
import { fundingErrors } from './errors'
import {
  FUNDING_MANUAL_SCREEN,
  FUNDING_METHODS_SCREEN,
  FUNDING_AMOUNT_SCREEN,
  FUNDING_PHANTOM_SCREEN,
  FUNDING_WALLETS_SCREEN,
  FUNDING_WALLET_TRANSFER_SCREEN,
} from './ids'
import { FUNDING_METHOD_LABELS, methodLabel } from './labels'
import type { FundingMethod } from './methods'
import type { FUNDING_TEXTS } from './strings'

// The entry holds the factory, the API's state and small sync helpers; the flow (./flow.ts), the
// chain reads (./chain.ts), the wallet transfer (./transfer.ts) and the texts (./strings.ts)
// load on use, with the screens. The functions below keep their names and signatures.
type Chain = typeof import('./chain')
type Transfer = typeof import('./transfer')
/** `name` of a module loaded on first call: the same signature, the module out of the initial load. */
const later =
  <M, K extends keyof M>(load: () => Promise<M>, name: K) =>
  async (...a: unknown[]) =>
    ((await load())[name] as (...a: unknown[]) => unknown)(...a)
const chain = () => import('./chain')
const transfer = () => import('./transfer')

export { sanitizeAmount, isPositiveAmount, toBaseUnits, fromBaseUnits, formatTokenAmount, erc20TransferData } from './amount'
/** JSON-RPC reads (./chain.ts, loaded on first use). */
export const rpcCall = later(chain, 'rpcCall') as Chain['rpcCall']
export const evmBalance = later(chain, 'evmBalance') as Chain['evmBalance']
export const solanaBalance = later(chain, 'solanaBalance') as Chain['solanaBalance']
export const requestBalance = later(chain, 'requestBalance') as Chain['requestBalance']
export const waitForReceipt = later(chain, 'waitForReceipt') as Chain['waitForReceipt']
export { fundingErrors, isUserRejection, notEnabledError, popupBlockedError, rejectedError, notEnoughFundsError, FUNDING } from './errors'
export { createFundingApi, wireFundingConfig, INITIAL_FUNDING_STATE } from './api'
export type { FundingApi, FundingOptions, FundingState, FundingData, FundingResult } from './api'
export * from './ids'
export { listFundingMethods, isFundingMethod } from './methods'
export type { FundingMethod, ListedMethod } from './methods'
export { openFundingPopup, ONRAMP_POPUP } from './popup'
export type { FundingPopup } from './popup'
export { poll } from './poll'
export type { Poll, PollOptions } from './poll'
export { resolveRequest, clusterRpc, clusterLabel, optionAllowed, MAINNET, CLUSTER_LABELS, DEFAULT_AMOUNT } from './request'
export type {
  FundingRequest,
  ResolvedFundingRequest,
  FundingChain,
  SolanaCluster,
  SolanaClusterName,
  FundingOption,
  FundingMethodKind,
  WireFundingConfig,
} from './request'
export { useFundWallet, useFundingRequest } from './react'
/** Sending from an EVM wallet (./transfer.ts, loaded on first use). */
export const transferFromWallet = later(transfer, 'transferFromWallet') as Transfer['transferFromWallet']
export const switchChain = later(transfer, 'switchChain') as Transfer['switchChain']
export type { SolanaSender } from './transfer-solana'
export type { RelaySolanaStepData, RelaySolanaInstruction } from './solana-tx'
/**
 * Sending from a Solana wallet (`transferFromSolanaWallet`, `sendWithSolanaWallet`,
 * `waitForSignature`, `standardChain`, `rpcSender`, `SOLANA_SIGNATURE_FEE`), loaded on use so
 * the entry stays small.
 */
export const loadSolanaTransfer = () => import('./transfer-solana')
/** The Solana transaction builders (with @solana/web3.js), loaded on use. */
export const loadSolanaTransactions = () => import('./solana-tx')
export type { Eip1193, TransferStatus } from './transfer'
/** The funding base's texts (./strings.ts, `FUNDING_TEXTS`): the screens load them; apps override them under `texts: { funding: {...} }`. */
export type FundingTexts = typeof FUNDING_TEXTS

declare module 'portico' {
  interface PluginApis {
    funding: FundingApi
  }
}

export function funding(options: FundingOptions = {}): PorticoPlugin<'funding'> {
  return definePlugin({
    id: 'funding',
    kind: 'funding',
    setup(ctx) {
      const label = (key: keyof typeof FUNDING_METHOD_LABELS) => methodLabel(ctx.config.texts, ctx.id, FUNDING_METHOD_LABELS, key)
      ctx.provide(createFundingApi(ctx, options))
      // Merged once when the texts load (the first screen's load): a mistyped override key warns then, as the tap did.
      ctx.declareErrors(() =>
        import('./strings').then((m) => {
          ctx.texts(m.FUNDING_TEXTS)
          return fundingErrors(() => ctx.texts(m.FUNDING_TEXTS))
        }),
      )
      const screens: [string, ScreenDefinition['load']][] = [
        [FUNDING_METHODS_SCREEN, () => import('./screens/methods')],
        [FUNDING_AMOUNT_SCREEN, () => import('./screens/amount')],
        [FUNDING_MANUAL_SCREEN, () => import('./screens/manual')],
        [FUNDING_WALLETS_SCREEN, () => import('./screens/wallets')],
        [FUNDING_WALLET_TRANSFER_SCREEN, () => import('./screens/wallet-transfer')],
        [FUNDING_PHANTOM_SCREEN, () => import('./screens/phantom')],
      ]
      for (const [id, load] of screens) ctx.screens.register({ id, load })
      ctx.hooks.fundingMethods.tap(ctx.id, (list) => {
        const wallet: FundingMethod = {
          id: 'funding-wallet',
          kind: 'wallet',
          label: label('walletLabel'),
          description: label('walletDescription'),
          icon: WalletIcon,
          order: 30,
          screen: FUNDING_WALLETS_SCREEN,
          // A Solana wallet sends SOL only (no SPL transfer yet): USDC on Solana is shown disabled.
          unsupported: (r) => (r.chainType === 'solana' && r.isUSDC ? label('unsupported') : undefined),
        }
        const manual: FundingMethod = {
          id: 'funding-manual',
          kind: 'manual',
          label: label('manualLabel'),
          description: label('manualDescription'),
          icon: CopyIcon,
          order: 90,
          screen: FUNDING_MANUAL_SCREEN,
        }
        return [...list, wallet, manual]
      })
    },
  })
}
