/**
 * Configuration: the host's config merged over the server's app config
 * (`GET /apps/{appId}`), then validated by the rules of part 1 section 5.
 * Errors throw a `PorticoError('invalid_config')`; soft problems become warnings.
 */
import { PorticoError } from './errors'
import type { TextOverrides } from './texts'
import type { WireAppConfig } from './wire'

export const APP_ID_LENGTH = 25
export const LOGIN_MESSAGE_MAX = 100
export const RECOMMENDED_PRIMARY_METHODS = 4
export const CLIENT_VERSION = '1.99.1'

export interface Chain {
  id: number
  name: string
  rpcUrl?: string
  [key: string]: unknown
}
export const MAINNET: Chain = { id: 1, name: 'Ethereum' }

export type Logo = string | { tagName: string }

export interface Appearance {
  /** A URL string, or an `<img>` / `<svg>` element. Anything else: nothing shows. */
  logo?: Logo
  landingHeader?: string
  loginMessage?: string
  /** 'system' follows the OS (prefers-color-scheme) and its changes. */
  theme?: 'light' | 'dark' | 'system'
  accentColor?: string
  walletList?: string[]
  walletChainType?: 'ethereum-only' | 'solana-only' | 'ethereum-and-solana'
  loginGroupPriority?: 'web2-first' | 'web3-first'
  hideDirectWeb2Inputs?: boolean
}

export interface LegalConfig {
  termsAndConditionsUrl?: string | null
  privacyPolicyUrl?: string | null
  requireUsersAcceptTerms?: boolean
  /** Show the footer line even when users must accept terms explicitly. */
  alwaysShowFooter?: boolean
}

export interface AllowlistConfig {
  errorTitle?: string | null
  errorDetail?: string | null
  errorCtaText?: string | null
  errorCtaLink?: string | null
}

/** A storage the session keeps its tokens in. Defaults to localStorage, else memory. */
export interface TokenStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** What the host passes to `createPortico`. Everything but `appId` is optional. */
export interface PorticoConfig {
  appId: string
  clientId?: string
  /** Base URL of the API server; `/api/v1` is appended. Default: the page's origin. */
  apiUrl?: string
  /** Enabled login methods, in order. Overrides the server's list. */
  loginMethods?: string[]
  /** Single-list landing: primary rows and the 'More options' overflow. `null`: grouped landing even when the server sets an order. */
  loginMethodsAndOrder?: { primary: string[]; overflow?: string[] } | null
  appearance?: Appearance
  legal?: LegalConfig
  allowlistConfig?: AllowlistConfig
  intl?: { defaultCountry?: string }
  supportedChains?: Chain[]
  defaultChain?: Chain
  disablePlusEmails?: boolean
  captchaEnabled?: boolean
  plugins?: import('./plugin').PorticoPlugin[]
  /** Skip `GET /apps/{appId}` (tests, fully host-configured apps). Default false. */
  skipServerConfig?: boolean
  /** Options for plugins, keyed by plugin id. */
  [pluginOption: string]: unknown
  storage?: TokenStorage
  /** `fetch` for every request (the API and plugins' calls to other hosts). */
  fetch?: typeof fetch
  /** Text overrides keyed by plugin id (`'ui'` the generic screens, `'kernel'` the error views). */
  texts?: TextOverrides
  /** Send login-flow analytics events (`POST /analytics_events`). Default true. */
  analytics?: boolean
}

export interface ResolvedConfig {
  appId: string
  clientId: string | null
  apiUrl: string
  name: string
  loginMethods: string[]
  loginMethodsAndOrder: { primary: string[]; overflow: string[] } | null
  appearance: Required<Pick<Appearance, 'landingHeader' | 'theme' | 'loginGroupPriority' | 'hideDirectWeb2Inputs' | 'walletChainType'>> &
    Omit<Appearance, 'landingHeader' | 'theme' | 'loginGroupPriority' | 'hideDirectWeb2Inputs' | 'walletChainType'>
  legal: Required<LegalConfig>
  allowlistConfig: Required<{ [K in keyof AllowlistConfig]: string | null }>
  intl: { defaultCountry: string }
  supportedChains: Chain[]
  defaultChain: Chain
  disablePlusEmails: boolean
  captchaEnabled: boolean
  captchaSiteKey: string | null
  developmentMode: boolean
  passkeysForSignupEnabled: boolean
  telegramBotName: string | null
  embeddedWallets: { createOnLogin: 'off' | 'users-without-wallets' | 'all-users'; [k: string]: unknown }
  /** The server's app config as received, for plugins that need more. */
  server: WireAppConfig | null
  texts: TextOverrides
  analytics: boolean
  /** Plugin options and anything else the host passed. */
  extra: Record<string, unknown>
}

const KNOWN_KEYS = new Set([
  'appId', 'clientId', 'apiUrl', 'loginMethods', 'loginMethodsAndOrder', 'appearance', 'legal', 'allowlistConfig',
  'intl', 'supportedChains', 'defaultChain', 'disablePlusEmails', 'captchaEnabled', 'plugins', 'skipServerConfig',
  'storage', 'fetch', 'texts', 'analytics',
])

/** The config errors (thrown in every build). */
const CONFIG_ERRORS = {
  appId: 'The app ID must be a string of exactly 25 characters.',
  noLoginMethod: 'You must enable at least one login method',
  emptyChains: 'supportedChains must not be empty.',
  missingDefaultChain: 'supportedChains must include the default chain (Ethereum mainnet unless defaultChain says otherwise).',
} as const

/**
 * The config warnings: development builds only (see `devWarn`); what they warn about is fixed
 * in every build (duplicates dropped, the login message cut, a bad logo not shown).
 */
const CONFIG_WARNINGS = {
  tooManyPrimary: (n: number) =>
    `${n} primary login methods were configured; at most ${RECOMMENDED_PRIMARY_METHODS} are recommended.`,
  duplicate: (m: string) => `Login method '${m}' is listed more than once; the duplicate is ignored.`,
  // LOGIN_MESSAGE_MAX written out: a computed text would keep this object in production builds.
  loginMessageCut: 'The login message is longer than 100 characters and was cut.',
  badLogo: 'The logo must be a string or an img or svg element; no logo will be shown.',
} as const

/** Every config text (errors and warnings), for tests and `portico/internal`. */
export const CONFIG_TEXTS: typeof CONFIG_ERRORS & typeof CONFIG_WARNINGS = /* @__PURE__ */ Object.assign({}, CONFIG_ERRORS, CONFIG_WARNINGS)

/**
 * Warn the host developer, in development builds only: a bundler that defines
 * process.env.NODE_ENV as 'production' drops the call and its texts; without `process` it is skipped.
 */
function devWarn(warn: (message: string) => void, text: (t: typeof CONFIG_WARNINGS) => string): void {
  let message: string | undefined
  try {
    if (process.env.NODE_ENV !== 'production') message = text(CONFIG_WARNINGS)
  } catch {
    /* no `process` (no bundler): not development */
  }
  if (message) warn(message)
}

const invalid = (message: string, data?: Record<string, unknown>) =>
  new PorticoError('invalid_config', message, { kind: 'client_error', data })

/** Part 1 section 5: the app id is a string of exactly 25 characters. */
export function validateAppId(appId: unknown): string {
  if (typeof appId !== 'string' || appId.length !== APP_ID_LENGTH) {
    throw invalid(CONFIG_ERRORS.appId, { received: typeof appId === 'string' ? appId.length : typeof appId })
  }
  return appId
}

function dedupe(list: string[], warn: (m: string) => void): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const m of list) {
    if (seen.has(m)) devWarn(warn, (t) => t.duplicate(m))
    else {
      seen.add(m)
      out.push(m)
    }
  }
  return out
}

function validLogo(logo: unknown): logo is Logo {
  if (typeof logo === 'string') return true
  const tag = (logo as { tagName?: unknown } | null)?.tagName
  return typeof tag === 'string' && ['img', 'svg'].includes(tag.toLowerCase())
}

/**
 * For each key of `defaults`: the host's value, else the server's (the key in snake_case, as
 * the wire spells it), else the default. One loop instead of a line per field.
 */
function either<T extends object>(host: object, server: object, defaults: T): T {
  const out = {} as Record<string, unknown>
  for (const [k, d] of Object.entries(defaults)) {
    out[k] = (host as Record<string, unknown>)[k] ?? (server as Record<string, unknown>)[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] ?? d
  }
  return out as T
}

const defaultApiUrl = () =>
  typeof globalThis.location !== 'undefined' && /^https?:$/.test(globalThis.location.protocol) ? globalThis.location.origin : ''

/**
 * Merge host config over the server's app config and validate. Pure: warnings (development
 * builds) are returned through `warn`, errors thrown.
 */
export function resolveConfig(
  host: PorticoConfig,
  server: WireAppConfig | null,
  warn: (message: string) => void = () => {},
  { requireLoginMethod = true }: { requireLoginMethod?: boolean } = {},
): ResolvedConfig {
  const appId = validateAppId(host.appId)
  const s = server ?? ({} as Partial<WireAppConfig>)
  const a = host.appearance ?? {}

  const rawMethods = host.loginMethods ?? s.login_methods ?? []
  const loginMethods = dedupe(rawMethods.filter((m) => typeof m === 'string'), warn)

  const order = host.loginMethodsAndOrder === null ? null : (host.loginMethodsAndOrder ?? s.login_methods_and_order ?? null)
  let loginMethodsAndOrder: ResolvedConfig['loginMethodsAndOrder'] = null
  if (order) {
    const primary = dedupe(order.primary ?? [], warn)
    const overflow = dedupe((order.overflow ?? []).filter((m) => !primary.includes(m)), warn)
    if (primary.length > RECOMMENDED_PRIMARY_METHODS) devWarn(warn, (t) => t.tooManyPrimary(primary.length))
    loginMethodsAndOrder = { primary, overflow }
  }
  const enabled = loginMethodsAndOrder
    ? [...loginMethodsAndOrder.primary, ...loginMethodsAndOrder.overflow]
    : loginMethods
  if (requireLoginMethod && enabled.length === 0) throw invalid(CONFIG_ERRORS.noLoginMethod)

  let loginMessage = a.loginMessage ?? s.login_message ?? undefined
  if (typeof loginMessage === 'string' && loginMessage.length > LOGIN_MESSAGE_MAX) {
    devWarn(warn, (t) => t.loginMessageCut)
    loginMessage = loginMessage.slice(0, LOGIN_MESSAGE_MAX)
  }

  let logo: Logo | undefined = a.logo ?? s.logo_url ?? undefined
  if (logo !== undefined && !validLogo(logo)) {
    devWarn(warn, (t) => t.badLogo)
    logo = undefined
  }

  const supportedChains = host.supportedChains ?? [MAINNET]
  if (!Array.isArray(supportedChains) || supportedChains.length === 0) throw invalid(CONFIG_ERRORS.emptyChains)
  const defaultChain = host.defaultChain ?? MAINNET
  if (!supportedChains.some((c) => c && c.id === defaultChain.id)) throw invalid(CONFIG_ERRORS.missingDefaultChain)

  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(host)) if (!KNOWN_KEYS.has(k)) extra[k] = v

  return {
    appId,
    clientId: host.clientId ?? null,
    apiUrl: (host.apiUrl ?? s.custom_api_url ?? defaultApiUrl()).replace(/\/+$/, ''),
    name: s.name ?? 'this app',
    loginMethods: enabled,
    loginMethodsAndOrder,
    appearance: {
      ...a,
      logo,
      loginMessage,
      ...either(a, s, {
        landingHeader: 'Log in or sign up',
        theme: 'light' as NonNullable<Appearance['theme']>,
        accentColor: undefined as string | undefined,
        loginGroupPriority: 'web2-first' as NonNullable<Appearance['loginGroupPriority']>,
        walletChainType: 'ethereum-only' as NonNullable<Appearance['walletChainType']>,
      }),
      hideDirectWeb2Inputs: a.hideDirectWeb2Inputs ?? false,
    },
    legal: {
      ...either(host.legal ?? {}, s.legal ?? {}, {
        termsAndConditionsUrl: null as string | null,
        privacyPolicyUrl: null as string | null,
        requireUsersAcceptTerms: false,
      }),
      alwaysShowFooter: host.legal?.alwaysShowFooter ?? false,
    },
    allowlistConfig: either(host.allowlistConfig ?? {}, s.allowlist_config ?? {}, {
      errorTitle: null as string | null,
      errorDetail: null as string | null,
      errorCtaText: null as string | null,
      errorCtaLink: null as string | null,
    }),
    intl: { defaultCountry: host.intl?.defaultCountry ?? 'US' },
    supportedChains,
    defaultChain,
    ...either(host, s, { disablePlusEmails: false, captchaEnabled: false }),
    ...either({}, s, {
      captchaSiteKey: null as string | null,
      developmentMode: false,
      passkeysForSignupEnabled: false,
      telegramBotName: null as string | null,
    }),
    embeddedWallets: {
      ...(s.embedded_wallet_config ?? {}),
      createOnLogin: s.embedded_wallet_config?.create_on_login ?? 'off',
    },
    server: server ?? null,
    texts: host.texts && typeof host.texts === 'object' ? host.texts : {},
    analytics: host.analytics !== false,
    extra,
  }
}
