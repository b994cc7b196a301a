/**
 * The funding flow behind the entry's API (./api.ts), loaded on first use: `fund(request)`
 * resolves the request (defaults from the app's funding config), refuses with 'Wallet funding
 * is not enabled' when funding is off, and opens the method selection (or the default method
 * straight away, when it needs no popup); the SOL price for the Solana screens.
 */
import type { PluginContext, Store } from 'portico'
import type { FundingApi, FundingOptions, FundingResult, FundingState } from './api'
import { getTokenPrice } from './calls'
import { completeChain, resolveRequest, type FundingRequest, type WireFundingConfig } from 'portico/kits/funding'
import { notEnabledError } from './errors'
import { FUNDING_METHODS_SCREEN } from './ids'
import { FUNDING_TEXTS } from './strings'

export type { FundingApi, FundingData, FundingOptions, FundingResult, FundingState } from './api'

/** The chain id the price call names for Solana (the server prices by symbol; Solana mainnet's id in token lists). */
export const SOLANA_PRICE_CHAIN_ID = 101

/** The USD value of `amount` SOL (GET /token_price). */
export async function solUsdValue(ctx: Pick<PluginContext, 'api'>, amount: string): Promise<number> {
  const usd = await getTokenPrice(ctx.api, SOLANA_PRICE_CHAIN_ID, 'SOL')
  return Number(amount) * usd
}

/** Open the funding flow for a wallet (`FundingApi.fund`). */
export async function fund(
  ctx: Pick<PluginContext, 'texts' | 'analytics' | 'screens'> & Partial<Pick<PluginContext, 'config'>>,
  state: Store<FundingState>,
  cfg: WireFundingConfig | null,
  options: FundingOptions,
  input: FundingRequest,
): Promise<FundingResult> {
  if (!cfg) throw notEnabledError(ctx.texts(FUNDING_TEXTS))
  const chain = completeChain(input.chain, ctx.config?.supportedChains)
  const request = resolveRequest(chain ? { ...input, chain } : input, cfg, options.defaultChain, options.solanaCluster)
  state.set({ request, funding: null })
  ctx.analytics('funding_flow_opened', { chain_type: request.chainType, network: request.network })
  // The method selection forwards to the default method when it needs no popup (popups need the user's click).
  // Opened from another flow's screen (a transaction's 'Add funds'), funding is a flow of its own inside it:
  // when it completes, the user is back on that screen, and that flow's result stays its own.
  const r = await ctx.screens.open(FUNDING_METHODS_SCREEN, { forward: true }, { intent: 'update', nested: true })
  if (r.ok) return { status: 'completed', method: (r.value as { method?: string } | undefined)?.method }
  if (r.error.code === 'exited_update_flow') return { status: 'exited' }
  throw r.error
}

/** `FundingApi.promptAfterWalletCreation`: the funding flow once the login's modal has closed, when the app asks for it. */
export async function promptAfterWalletCreation(
  ctx: Pick<PluginContext, 'screens'>,
  api: Pick<FundingApi, 'fund'>,
  cfg: WireFundingConfig | null,
  wallet: { address: string; chainType: 'ethereum' | 'solana' },
  request: Partial<FundingRequest> = {},
): Promise<FundingResult | null> {
  if (!cfg?.prompt_funding_on_wallet_creation) return null
  // Called from the login flow (after the created screen): the funding flow opens once that modal has closed.
  await new Promise<void>((resolve) => {
    if (!ctx.screens.getState().open) return resolve()
    const off = ctx.screens.subscribe((s) => {
      if (s.open) return
      off()
      resolve()
    })
  })
  return api.fund({ ...request, address: wallet.address, chainType: wallet.chainType })
}
