/**
 * portico/plugins/approvals — the approval screens (spec part 2: 'Approval', sections 3–5, 7–9):
 * sign requests (personal_sign, eth_signTypedData_v4, solana_signMessage), Ethereum
 * transactions (prepare, decoded details, fee, total, balance, receipt, error and retry,
 * 'Add funds') and Solana transactions (instructions, fee, receipt).
 *
 * The embedded wallet's EIP-1193 provider and Solana wallet hand requests to
 * `kernel.plugin('approvals').handle({ wallet, method, params, uiOptions }, signer)` unless
 * the caller asked for headless signing (`uiOptions.showWalletUIs === false`). The entry is
 * small: the engine (viem, @solana/web3.js) and the screens load on the first request.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { SIGN_SCREEN, SOLANA_TRANSACTION_SCREEN, TRANSACTION_SCREEN } from './ids'
import { ProviderRpcError, USER_REJECTED } from './rpc-error'
import type { ApprovalRequest, ApprovalSigner } from './request'
import type { ApprovalsTexts } from './strings'

// The entry holds the factory, the screen ids and the EIP-1193 error class; `handle()` loads
// its environment with the engine (./handle.ts), the error views and APPROVALS_TEXTS load lazily.
export { SIGN_SCREEN, TRANSACTION_SCREEN, SOLANA_TRANSACTION_SCREEN, SIGN_READY_TIMEOUT_MS, SUCCESS_CLOSE_MS } from './ids'

export interface ApprovalsOptions {
  /** Solana clusters by name → JSON-RPC URL (added to mainnet-beta, devnet, testnet). */
  solanaClusters?: Record<string, string>
  /** The cluster a Solana request uses when it names none (default 'mainnet-beta'). */
  defaultCluster?: string
  /** How amounts are shown first: 'native-token' (default) or 'fiat-currency' (app config embeddedWallets.priceDisplay.primary wins when set). */
  priceDisplay?: 'fiat-currency' | 'native-token'
}

export interface ApprovalsApi {
  /**
   * Shows the approval screen for one wallet request, signs through `signer`, (for sends)
   * submits and waits for the receipt. Resolves with what the RPC method returns; rejects with
   * an EIP-1193 error code 4001 when the user closes the screen.
   */
  handle(request: ApprovalRequest, signer: ApprovalSigner): Promise<unknown>
}

declare module 'portico' {
  interface PluginApis {
    approvals: ApprovalsApi
  }
}

export function approvals(options: ApprovalsOptions = {}): PorticoPlugin<'approvals'> {
  return definePlugin({
    id: 'approvals',
    kind: 'feature',
    setup(ctx) {
      ctx.declareErrors(() => import('./errors').then((m) => m.APPROVALS_ERRORS))
      ctx.screens.register({ id: SIGN_SCREEN, load: () => import('./screens/sign'), compact: true })
      ctx.screens.register({ id: TRANSACTION_SCREEN, load: () => import('./screens/transaction') })
      ctx.screens.register({ id: SOLANA_TRANSACTION_SCREEN, load: () => import('./screens/solana-transaction') })
      ctx.provide<ApprovalsApi>({
        handle: async (request, signer) => (await import('./handle')).handleRequest(ctx, options, request, signer),
      })
    },
  })
}

export { ProviderRpcError, USER_REJECTED }
/** The approval screens' texts (./strings.ts, `APPROVALS_TEXTS`): the screens load them; apps override them under `texts: { approvals: {...} }`. */
export type { ApprovalsTexts }
export type { ApprovalRequest, ApprovalSigner, ApprovalWallet, UiOptions, SignUiOptions, TransactionUiOptions } from './request'
export { formatTokenAmount, formatUsd, formatSol, formatUsdc, parseDecimal, plainUnits } from './format'
export { evmExplorerUrl, solanaExplorerUrl } from './explorer'
export {
  useSignMessage,
  useSignTypedData,
  useSignTransaction,
  useSendTransaction,
  useSolanaSignMessage,
  useSolanaSignTransaction,
  useSendSolanaTransaction,
  type HookOptions,
} from './react'
