/**
 * The hook set, declared once and frozen. Plugins tap with their id as the tap name; only
 * the kernel (and the UI it drives) calls them. tapable itself loads with start-up
 * (./deferred-hooks.ts).
 */
import type { ResolvedConfig } from './config'
import type { ErrorContext, ErrorView, PorticoError } from './errors'
import type { AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncBailHook, SyncWaterfallHook } from './tapable'
import {
  deferAsyncSeriesHook as createAsyncSeriesHook,
  deferAsyncSeriesWaterfallHook as createAsyncSeriesWaterfallHook,
  deferSyncBailHook as createSyncBailHook,
  deferSyncWaterfallHook as createSyncWaterfallHook,
} from './deferred-hooks'
import type { AuthResult, Session } from './session'
import type { Intent, Navigator } from './screens'
import type { ApiRequest } from './transport'
import type { User } from './user'

/** A landing entry a login plugin adds through `loginMethods`. */
export interface LoginMethod {
  /** The method id as config lists it. */
  id: string
  /** Display name (part 1 section 2, 'Login method display names'). */
  label: string
  group: 'web2' | 'web3'
  /** An icon: a URL string or a component the UI renders. */
  icon?: unknown
  /** The screen to open when the row is chosen. */
  screen?: string
  params?: Record<string, unknown>
  /** Or an action to run instead of opening a screen. */
  start?: () => void | Promise<void>
  /** A component drawn inline on the landing (the e-mail or phone input). */
  input?: unknown
  /**
   * Loads ahead what `input` needs (its lazy chunk): the UI runs it at idle with the landing,
   * so the first open draws the input at once.
   */
  preload?: () => Promise<unknown>
  /**
   * Other login-method ids this entry stands for, so the 'Recent' chip finds it (a wallet
   * entry covering the signature methods behind it).
   */
  covers?: string[]
}

/** Whether `recent` (a remembered method id) is this landing entry. */
export function isRecentEntry(entry: Pick<LoginMethod, 'id' | 'covers'>, recent: string | null): boolean {
  return recent !== null && (entry.id === recent || (entry.covers ?? []).includes(recent))
}

export interface LoginMethodsContext {
  config: ResolvedConfig
  /** The recent login method, if any. */
  recent: string | null
}

export interface AuthContext extends AuthResult {
  method?: string
  intent: Intent
  session: Session
  screens: Navigator
  config: ResolvedConfig
}

/** A signing, export or sending action MFA plugins may gate. */
export interface ActionContext {
  action: 'sign_message' | 'sign_typed_data' | 'sign_transaction' | 'send_transaction' | 'export_wallet' | (string & {})
  user: User | null
  details?: Record<string, unknown>
}

/** What the kernel offers at start-up: the page address (part of contract v2's return path). */
export interface ReturnPathContext {
  url: URL
  config: ResolvedConfig
}

/**
 * A plugin's claim on the page address: the query (and hash) parameters it owns, removed from
 * the address by the kernel before `finish` runs, so a reload never replays them.
 */
export interface ReturnClaim {
  /** Search parameter names to strip (`['code', 'state']`). */
  params: string[]
  /** Hash parameter names to strip (`#tgWebAppData=...`). */
  hashParams?: string[]
  /** Finish the flow (exchange the code, log in ...). Runs after `ready()`; errors reach the 'error' event. */
  finish(): void | Promise<unknown>
}

export interface WalletConnectorEntry {
  id: string
  name: string
  chainType: 'ethereum' | 'solana'
  icon?: unknown
  [key: string]: unknown
}

export interface FundingMethodEntry {
  id: string
  label: string
  [key: string]: unknown
}

export interface PorticoHooks {
  configure: SyncWaterfallHook<[ResolvedConfig]>
  request: AsyncSeriesWaterfallHook<[ApiRequest]>
  loginMethods: SyncWaterfallHook<[LoginMethod[], LoginMethodsContext]>
  returnPath: SyncBailHook<[ReturnPathContext], ReturnClaim | undefined>
  authenticated: AsyncSeriesHook<[AuthContext]>
  sensitiveAction: AsyncSeriesHook<[ActionContext]>
  errorView: SyncBailHook<[PorticoError, ErrorContext], ErrorView | undefined>
  walletConnectors: SyncWaterfallHook<[WalletConnectorEntry[]]>
  fundingMethods: SyncWaterfallHook<[FundingMethodEntry[]]>
  logout: AsyncSeriesHook<[]>
}

type TapMethods = 'tap' | 'tapAsync' | 'tapPromise' | 'intercept' | 'isUsed' | 'name'
/** What a plugin gets: the hooks, minus the call methods. */
export type TapOnlyHooks = { readonly [K in keyof PorticoHooks]: Pick<PorticoHooks[K], Extract<keyof PorticoHooks[K], TapMethods>> }

export function createHooks(): Readonly<PorticoHooks> {
  return Object.freeze({
    configure: createSyncWaterfallHook<[ResolvedConfig]>(['config'], 'configure'),
    request: createAsyncSeriesWaterfallHook<[ApiRequest]>(['request'], 'request'),
    loginMethods: createSyncWaterfallHook<[LoginMethod[], LoginMethodsContext]>(['methods', 'context'], 'loginMethods'),
    returnPath: createSyncBailHook<[ReturnPathContext], ReturnClaim | undefined>(['context'], 'returnPath'),
    authenticated: createAsyncSeriesHook<[AuthContext]>(['context'], 'authenticated'),
    sensitiveAction: createAsyncSeriesHook<[ActionContext]>(['context'], 'sensitiveAction'),
    errorView: createSyncBailHook<[PorticoError, ErrorContext], ErrorView | undefined>(['error', 'context'], 'errorView'),
    walletConnectors: createSyncWaterfallHook<[WalletConnectorEntry[]]>(['connectors'], 'walletConnectors'),
    fundingMethods: createSyncWaterfallHook<[FundingMethodEntry[]]>(['methods'], 'fundingMethods'),
    logout: createAsyncSeriesHook<[]>([], 'logout'),
  }) as Readonly<PorticoHooks>
}
