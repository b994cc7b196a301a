/**
 * `handle()` behind the entry (./index.ts), loaded on the first wallet request with the engine:
 * the engine's environment (texts, chains, prices, the signer's readiness), the headless path
 * (`uiOptions.showWalletUIs === false`) and the approval screen, with the 4001 rejection when
 * the user closes it before the transaction reached the network (after, its hash).
 */
import { PorticoError, type PluginContext } from 'portico'
import { getSplTokenInfo, getTokenPrice } from './calls'
import { createSession, type EngineEnv } from './engine'
import { ProviderRpcError, userRejected } from './errors'
import type { ApprovalsOptions } from './index'
import { SIGN_READY_TIMEOUT_MS, SIGN_SCREEN, SOLANA_TRANSACTION_SCREEN, TRANSACTION_SCREEN } from './ids'
import type { ApprovalRequest, ApprovalSession, ApprovalSigner } from './request'
import { APPROVALS_TEXTS, type ApprovalsTexts } from './strings'

type Ctx = Pick<PluginContext, 'texts' | 'plugin' | 'config' | 'fetch' | 'api' | 'screens'>

export async function handleRequest(ctx: Ctx, options: ApprovalsOptions, request: ApprovalRequest, signer: ApprovalSigner): Promise<unknown> {
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

  const session = await createSession(env(), request, signer)
  if (request.uiOptions?.showWalletUIs === false) return headless(session)
  const screen = session.kind === 'sign' ? SIGN_SCREEN : session.kind === 'evm' ? TRANSACTION_SCREEN : SOLANA_TRANSACTION_SCREEN
  const result = await ctx.screens.open(screen, { session }, { intent: 'update' })
  if (result.ok) return result.value
  // Closed (×, Escape, 'Not now'): once the transaction reached the network the request
  // resolves with it whatever screen was closed; before that, the user rejected it.
  if (session.kind !== 'sign') {
    const sent = await session.closed()
    if (sent) return sent.result
  }
  throw userRejected()
}
