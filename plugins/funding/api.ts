/**
 * The funding base's state and host API, as the entry holds them: the store, the app's funding
 * config, the amount, on-ramp starts. `fund(request)` and the SOL price load their flow
 * (./flow.ts: the request's defaults, the refusal texts, the price call) on first use.
 */
import type { PluginContext, Store } from 'portico'
import type { FundingChain, FundingRequest, ResolvedFundingRequest, SolanaCluster, WireFundingConfig } from 'portico/kits/funding'

export interface FundingData {
  provider: string
  method: string
  address: string
  amount: string
  /** Set for on-ramps (spec: 'stored with an alternate-funding flag'). */
  alternateFunding: boolean
  startedAt: number
  /** The partner user id (Coinbase) or external transaction id (MoonPay), stored after its delay. */
  providerId?: string
}

export interface FundingState {
  request: ResolvedFundingRequest | null
  /** The latest on-ramp start. */
  funding: FundingData | null
}

export const INITIAL_FUNDING_STATE: FundingState = { request: null, funding: null }

export interface FundingResult {
  status: 'completed' | 'exited'
  /** The method that completed. */
  method?: string
}

export interface FundingApi {
  state: Store<FundingState>
  /** fetch for chain RPCs and providers (the host's `fetch` option). */
  fetch: typeof fetch
  /**
   * The USD value of `amount` SOL (GET /token_price). Rejects when the price cannot be fetched:
   * the Solana funding screens then show 'Unable to fetch SOL price'.
   */
  solUsdValue(amount: string): Promise<number>
  /** Whether the app (or the host's option) turned funding on. */
  enabled(): boolean
  config(): WireFundingConfig | null
  /** Open the funding flow for a wallet. Rejects with `funding_not_enabled` when funding is off. */
  fund(request: FundingRequest): Promise<FundingResult>
  /** Change the amount of the current request (the 'Confirm or edit amount' screen). */
  setAmount(amount: string): void
  /** An on-ramp started: analytics event, funding data stored (the id later, after `idDelayMs`). */
  recordStart(data: Omit<FundingData, 'startedAt' | 'alternateFunding' | 'providerId'>, providerId: string, idDelayMs: number): () => void
  /**
   * For the embedded wallet: call after a wallet was created. Opens the funding flow when the
   * app asks for it (funding config 'prompt on wallet creation'), once the modal that is open
   * now (the login's) has closed; otherwise resolves at once with null.
   */
  promptAfterWalletCreation(wallet: { address: string; chainType: 'ethereum' | 'solana' }, request?: Partial<FundingRequest>): Promise<FundingResult | null>
}

export interface FundingOptions {
  /** Turn funding on without a server config (default: the app's `funding_config`). */
  enabled?: boolean
  /** The chain `fund()` uses when the request names none (default Ethereum mainnet). */
  defaultChain?: FundingChain
  /** The Solana cluster `fund()` uses when a Solana request names none (default mainnet-beta), e.g. `{ name: 'localnet', rpcUrl }`. */
  solanaCluster?: SolanaCluster
  /** Overrides of the app's funding config (tests, apps without a server config). */
  config?: WireFundingConfig
}

export function wireFundingConfig(ctx: Pick<PluginContext, 'config'>, options: FundingOptions): WireFundingConfig | null {
  const server = (ctx.config.server as { funding_config?: WireFundingConfig | null } | null)?.funding_config ?? null
  if (!server && !options.enabled && !options.config) return null
  return { ...server, ...options.config }
}

/** The flow behind `fund()` and the SOL price, loaded on first use. */
const loadFlow = () => import('./flow')

export function createFundingApi(ctx: PluginContext, options: FundingOptions): FundingApi {
  const state = ctx.store<FundingState>(INITIAL_FUNDING_STATE)
  const config = () => wireFundingConfig(ctx, options)
  const api: FundingApi = {
    state,
    fetch: (input, init) => ctx.fetch(input, init),
    config,
    solUsdValue: async (amount) => (await loadFlow()).solUsdValue(ctx, amount),
    enabled: () => config() !== null,
    async fund(input) {
      const cfg = config()
      // The method selection's chunk loads alongside the flow's, not after it.
      if (cfg) void import('./screens/methods').catch(() => {})
      return (await loadFlow()).fund(ctx, state, cfg, options, input)
    },
    setAmount(amount) {
      const r = state.get().request
      if (r) state.set({ request: { ...r, amount } })
    },
    recordStart(data, providerId, idDelayMs) {
      ctx.analytics('funding_flow_started', { provider: data.provider, method: data.method })
      state.set({ funding: { ...data, alternateFunding: true, startedAt: Date.now() } })
      ctx.storage.set('funding', JSON.stringify({ ...data, alternateFunding: true }))
      const t = setTimeout(() => {
        const f = state.get().funding
        if (f && f.provider === data.provider) state.set({ funding: { ...f, providerId } })
        ctx.storage.set('funding', JSON.stringify({ ...data, alternateFunding: true, providerId }))
      }, idDelayMs)
      return () => clearTimeout(t)
    },
    async promptAfterWalletCreation(wallet, request) {
      const cfg = config()
      // Nothing to load when the app does not ask for it (every wallet creation calls this).
      return cfg?.prompt_funding_on_wallet_creation ? (await loadFlow()).promptAfterWalletCreation(ctx, api, cfg, wallet, request) : null
    },
  }
  return api
}
