/**
 * The funding-method registry: each method is an entry of the kernel's `fundingMethods` hook,
 * contributed by the plugin that implements it (manual transfer and transfer from a wallet by
 * this base; `moonpay`, `coinbase-onramp`, `bridge` by their plugins; third parties the same
 * way), so an app pays only for the methods it enables.
 */
import type { FundingMethodEntry, Portico } from 'portico'
import type { FundingMethodKind, ResolvedFundingRequest, WireFundingConfig } from './request'
import { optionAllowed } from './request'

export interface FundingMethod extends FundingMethodEntry {
  /** Unique: the contributing plugin's id, or '<plugin>-<variant>'. */
  id: string
  label: string
  description?: string
  /** Which app-config method enables it (bridge counts as 'wallet'). */
  kind: FundingMethodKind
  /** For card methods: 'moonpay' | 'coinbase' (supportedOptions, preferredCardProvider). */
  provider?: string
  icon?: unknown
  /** Lower comes first (default 50). */
  order?: number
  /** Hidden when false (the method makes no sense for this request). */
  available?(request: ResolvedFundingRequest, config: WireFundingConfig | null): boolean
  /** Shown but disabled with this reason (e.g. 'Coinbase is not available on Hardhat.'). */
  unsupported?(request: ResolvedFundingRequest): string | undefined
  /** Opens a popup inside the click (on-ramps): the method selection opens it before `start`. */
  popup?: boolean
  /** The screen to open, with its params. */
  screen: string
  params?: Record<string, unknown>
}

export function isFundingMethod(e: FundingMethodEntry): e is FundingMethod {
  return typeof (e as Partial<FundingMethod>).screen === 'string' && typeof (e as Partial<FundingMethod>).kind === 'string'
}

export interface ListedMethod {
  method: FundingMethod
  /** Why it cannot be used for this request, if so. */
  unsupported?: string
}

/** The methods to offer for a request, in order: the app's methods, the request's options, each method's own rules. */
export function listFundingMethods(kernel: Pick<Portico, 'hooks'>, request: ResolvedFundingRequest, config: WireFundingConfig | null): ListedMethod[] {
  const enabled = config?.methods
  return kernel.hooks.fundingMethods
    .call([])
    .filter(isFundingMethod)
    .filter((m) => !enabled || enabled.includes(m.kind))
    .filter((m) => optionAllowed(request, m.kind === 'wallet' ? 'wallets' : m.kind, m.provider))
    .filter((m) => m.available?.(request, config) ?? true)
    .sort((a, b) => (a.order ?? 50) - (b.order ?? 50) || preferred(request, a) - preferred(request, b))
    .map((method) => ({ method, unsupported: method.unsupported?.(request) }))
}

function preferred(r: ResolvedFundingRequest, m: FundingMethod): number {
  return r.preferredCardProvider && m.provider === r.preferredCardProvider ? -1 : 0
}
