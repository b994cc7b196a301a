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
import { PorticoError, definePlugin, type PorticoPlugin } from 'portico'
import { APPROVALS_TEXTS, type ApprovalsTexts } from './strings'
import { APPROVALS_ERRORS, ProviderRpcError, userRejected, USER_REJECTED } from './errors'
import { getSplTokenInfo, getTokenPrice } from './calls'
import type { ApprovalRequest, ApprovalSession, ApprovalSigner } from './session'
import type { EngineEnv } from './engine'

export const SIGN_SCREEN = 'approvals-sign'
export const TRANSACTION_SCREEN = 'approvals-transaction'
export const SOLANA_TRANSACTION_SCREEN = 'approvals-solana-transaction'

/** Sign request readiness (part 2 section 9): the wallet service must be ready within 30 s. */
export const SIGN_READY_TIMEOUT_MS = 30_000
/** Success auto-close (part 2 section 9). */
export const SUCCESS_CLOSE_MS = 1400

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
      ctx.declareErrors(APPROVALS_ERRORS)
      ctx.screens.register({ id: SIGN_SCREEN, load: () => import('./screens/sign'), compact: true })
      ctx.screens.register({ id: TRANSACTION_SCREEN, load: () => import('./screens/transaction') })
      ctx.screens.register({ id: SOLANA_TRANSACTION_SCREEN, load: () => import('./screens/solana-transaction') })

      const texts = (): ApprovalsTexts => ctx.texts(APPROVALS_TEXTS)

      const env = (): EngineEnv => ({
        texts: texts(),
        chains: () => {
          // The app's chains, and the embedded wallet's own (its provider's chains and RPC URLs).
          const ew = ctx.plugin('embedded-wallet')?.settings
          const extra = ((ew?.chains ?? []) as Array<{ id: number; name: string }>).map((c) => ({
            ...c,
            ...(ew?.rpcUrls?.[c.id] ? { rpcUrl: ew.rpcUrls[c.id] } : {}),
          }))
          const seen = new Set(extra.map((c) => c.id))
          return [...extra, ...ctx.config.supportedChains.filter((c) => !seen.has(c.id))]
        },
        defaultChainId: () => ctx.config.defaultChain.id,
        fetch: ctx.fetch,
        price: (chainId, symbol) => getTokenPrice(ctx.api, chainId, symbol),
        priceDisplay: () => {
          const p = (ctx.config.embeddedWallets as { priceDisplay?: { primary?: string } }).priceDisplay?.primary
          return p === 'fiat-currency' || p === 'native-token' ? p : (options.priceDisplay ?? 'native-token')
        },
        ready: (signer) => waitReady(signer),
        invalid: (message, code = 'invalid_transaction_request') => new PorticoError(code, message, { kind: 'client_error' }),
        solana: {
          clusters: { ...(options.solanaClusters ?? {}) },
          defaultCluster: options.defaultCluster ?? 'mainnet-beta',
        },
        splTokenInfo: (mint, cluster) => getSplTokenInfo(ctx.api, mint, cluster),
      })

      const waitReady = async (signer: ApprovalSigner) => {
        if (!signer.ready) return
        let timer: ReturnType<typeof setTimeout> | undefined
        try {
          await Promise.race([
            signer.ready(),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new PorticoError('client_request_timeout', texts().walletNotReady, { kind: 'client_error' })),
                SIGN_READY_TIMEOUT_MS,
              )
            }),
          ])
        } finally {
          clearTimeout(timer)
        }
      }

      const headless = async (session: ApprovalSession) => {
        await session.ready()
        if (session.kind === 'sign') return session.sign()
        await session.prepare()
        try {
          return (await session.submit()).result
        } catch (e) {
          const f = e as { code?: string | null; message?: string; hash?: string | null }
          throw new ProviderRpcError(-32603, f.message ?? String(e), { data: { code: f.code, hash: f.hash } })
        }
      }

      ctx.provide<ApprovalsApi>({
        async handle(request, signer) {
          const { createSession } = await import('./engine')
          const e = env()
          const session = await createSession(e, request, signer)
          if (request.uiOptions?.showWalletUIs === false) return headless(session)
          const screen = session.kind === 'sign' ? SIGN_SCREEN : session.kind === 'evm' ? TRANSACTION_SCREEN : SOLANA_TRANSACTION_SCREEN
          const result = await ctx.screens.open(screen, { session }, { intent: 'update' })
          if (result.ok) return result.value
          throw userRejected()
        },
      })
    },
  })
}

export { APPROVALS_TEXTS, ProviderRpcError, USER_REJECTED }
export type { ApprovalsTexts }
export type { ApprovalRequest, ApprovalSigner, ApprovalWallet, UiOptions, SignUiOptions, TransactionUiOptions } from './session'
export { formatTokenAmount, formatUsd, formatSol, formatUsdc, parseDecimal } from './format'
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
