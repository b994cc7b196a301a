import { readFileSync } from 'node:fs'
import type { JWK } from 'jose'
import { z } from 'zod'
import { ConfigError } from './settings'
import type { WireAppConfig } from './wire'
import { fundingSchema, fundingWire } from './funding-config'
import { webhooksSchema, type WebhookConfig } from './webhooks-config'

/** The OAuth providers the server is a client of (issue 12; each one's descriptor: features/oauth/providers.ts). */
export const OAUTH_PROVIDERS = [
  'google',
  'apple',
  'discord',
  'github',
  'instagram',
  'spotify',
  'tiktok',
  'twitter',
  'linkedin',
] as const
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]

export const isOAuthProvider = (p: unknown): p is OAuthProvider =>
  typeof p === 'string' && (OAUTH_PROVIDERS as readonly string[]).includes(p)

/** Per-app provider settings (apps.json `oauth.providers.<id>`). */
export interface OAuthProviderSettings {
  clientId?: string
  clientSecret?: string
  /** Rebase every endpoint of this provider (see `rebase`). */
  baseUrl?: string
  authorizationUrl?: string
  tokenUrl?: string
  profileUrl?: string
  issuer?: string
  scopes?: string[]
}
export interface OAuthAppSettings {
  /** Rebase every provider's endpoints onto one host (the local stand-in). */
  baseUrl?: string
  /**
   * A link conflict offers an account transfer (default true, spec part 1 section 5); false:
   * 400 linked_to_another_user instead.
   */
  allowTransfer?: boolean
  providers?: Partial<Record<OAuthProvider, OAuthProviderSettings>>
}

/** One app as written in apps.json (camelCase, may hold secrets-free server-only settings). */
export interface AppSettings {
  id: string
  name: string
  logoUrl?: string | null
  accentColor?: string | null
  theme?: 'light' | 'dark' | null
  /** Enabled login methods in order: 'email' | 'sms' | 'wallet' | 'guest' | 'custom_auth' | ... */
  loginMethods: string[]
  loginMethodsAndOrder?: { primary: string[]; overflow?: string[] } | null
  landingHeader?: string | null
  loginMessage?: string | null
  loginGroupPriority?: 'web2-first' | 'web3-first' | null
  walletChainType?: 'ethereum-only' | 'solana-only' | 'ethereum-and-solana' | null
  legal?: { termsAndConditionsUrl?: string | null; privacyPolicyUrl?: string | null; requireUsersAcceptTerms?: boolean } | null
  /** When set (even empty), only listed e-mails, phone numbers (E.164) and wallet addresses may log in. */
  allowlist?: {
    entries: string[]
    errorTitle?: string | null
    errorDetail?: string | null
    errorCtaText?: string | null
    errorCtaLink?: string | null
  } | null
  /** Maximum number of users; new sign-ups beyond it get 403 max_accounts_reached. */
  userLimit?: number | null
  developmentMode?: boolean
  /** New users refused once this many exist while in development mode (default 150). */
  developmentUserCap?: number
  disablePlusEmails?: boolean
  /**
   * Captcha on init calls: the provider (default 'turnstile'), the public site key, the secret
   * (inline, or `secretEnv`: the environment variable holding it; never sent to clients) and an
   * optional siteverify URL (a local stand-in).
   */
  captcha?: {
    enabled: boolean
    siteKey?: string | null
    provider?: 'turnstile' | 'hcaptcha'
    secret?: string | null
    secretEnv?: string | null
    verifyUrl?: string | null
  } | null
  /** `allowRawSign`: the wallet frame signs raw hashes (secp256k1_sign); off by default (issue 26). */
  embeddedWallets?: { createOnLogin?: 'off' | 'users-without-wallets' | 'all-users'; allowRawSign?: boolean; [k: string]: unknown } | null
  passkeysForSignupEnabled?: boolean
  /**
   * Passkeys (WebAuthn): relying party ids the client may name (default: the host names of
   * allowedOrigins) and the origins a response may come from (default: allowedOrigins whose
   * host is the relying party id or under it).
   */
  passkeys?: { rpIds?: string[]; origins?: string[] } | null
  telegramBotName?: string | null
  /** The Telegram bot token (inline) or `telegramBotTokenEnv`, the environment variable holding it. Server only. */
  telegramBotToken?: string | null
  telegramBotTokenEnv?: string | null
  /** Oldest accepted Telegram `auth_date`, in seconds (default 86400). */
  telegramAuthMaxAgeS?: number | null
  /**
   * Farcaster signers (issue 30): the app's own FID and its custody key, which signs the
   * EIP-712 SignedKeyRequest. The key inline (`custodyKey`, 0x + 64 hex) or `custodyKeyEnv`, the
   * environment variable holding it; server only, never sent to clients. `deadlineS`: how long
   * the user has to approve (default 86400).
   */
  farcasterSigner?: { appFid: number; custodyKey?: string | null; custodyKeyEnv?: string | null; deadlineS?: number | null } | null
  allowedOrigins: string[]
  /** EVM chain ids a SIWE message may name (default: the smart-wallet chains of spec part 1, section 3). */
  supportedChains?: number[]
  /**
   * Cross-app login. Requester side: `connections` (provider apps on this server whose users
   * may log in here; `transactUrl` is the provider's /oauth/transact page, default its first
   * allowed origin + '/oauth/transact'). Provider side: `allowedRequesters` (app ids).
   */
  crossApp?: {
    connections?: { providerAppId: string; readOnly?: boolean; transactUrl?: string }[]
    allowedRequesters?: string[]
  } | null
  /** Custom-auth (host-issued JWT) verification: a JWKS URL or one public JWK. */
  customAuth?: { jwksUrl?: string; publicJwk?: JWK; issuer?: string; audience?: string } | null
  /**
   * OAuth providers (issue 12): client ids (secrets preferably from the environment,
   * OAUTH_<PROVIDER>_CLIENT_SECRET) and endpoint overrides. Never sent to the browser.
   */
  oauth?: OAuthAppSettings | null
  /** Funding (spec part 2): methods, options, providers' keys (secrets by env var name) and URLs. See funding-config.ts. */
  funding?: unknown
  /** Smart wallets (issue 29): validated by features/smart-wallets/config.ts when the server starts. */
  smartWallets?: unknown
  /** Webhook endpoints (issue 32; webhooks-config.ts), seeded into the database at start-up. Never sent to clients. */
  webhooks?: WebhookConfig[] | null
}

export interface AppsRegistry {
  get(id: string): AppSettings | undefined
  all(): AppSettings[]
  /** Union of every app's allowed origins (for CORS preflight, which carries no app id). */
  allOrigins(): Set<string>
}

/** Default SIWE chains: spec part 1, section 3 (smart wallet supported chain ids). */
export const DEFAULT_CHAINS = [1, 11155111, 137, 10, 8453, 84532, 42161, 7777777, 43114, 56]

const str = z.string().nullish()
const url = z.string().max(2048).nullish()
const oauthProviderSchema = z.object({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  authorizationUrl: z.url().optional(),
  tokenUrl: z.url().optional(),
  profileUrl: z.url().optional(),
  issuer: z.string().min(1).optional(),
  scopes: z.array(z.string().min(1)).optional(),
})
const oauthSchema = z
  .object({
    baseUrl: z.url().optional(),
    allowTransfer: z.boolean().optional(),
    providers: z.partialRecord(z.enum(OAUTH_PROVIDERS), oauthProviderSchema).optional(),
  })
  .nullish()
export const appSchema = z.looseObject({
  id: z.string({ message: 'must be a string of exactly 25 characters' }).length(25, 'must be a string of exactly 25 characters'),
  name: z.string().min(1),
  logoUrl: url,
  accentColor: str,
  theme: z.enum(['light', 'dark']).nullish(),
  loginMethods: z.array(z.string().min(1)).min(1, 'You must enable at least one login method'),
  loginMethodsAndOrder: z.object({ primary: z.array(z.string()), overflow: z.array(z.string()).optional() }).nullish(),
  landingHeader: str,
  // Spec part 1, section 5: the login message is cut to 100 characters.
  loginMessage: str.transform((v) => (typeof v === 'string' ? v.slice(0, 100) : v)),
  loginGroupPriority: z.enum(['web2-first', 'web3-first']).nullish(),
  walletChainType: z.enum(['ethereum-only', 'solana-only', 'ethereum-and-solana']).nullish(),
  legal: z
    .object({ termsAndConditionsUrl: url, privacyPolicyUrl: url, requireUsersAcceptTerms: z.boolean().optional() })
    .nullish(),
  allowlist: z
    .object({
      entries: z.array(z.string()),
      errorTitle: str,
      errorDetail: str,
      errorCtaText: str,
      errorCtaLink: url,
    })
    .nullish(),
  userLimit: z.number().int().min(0).nullish(),
  developmentMode: z.boolean().optional(),
  developmentUserCap: z.number().int().min(0).optional(),
  disablePlusEmails: z.boolean().optional(),
  captcha: z
    .object({
      enabled: z.boolean(),
      siteKey: str,
      provider: z.enum(['turnstile', 'hcaptcha']).optional(),
      secret: str,
      secretEnv: str,
      verifyUrl: z.url().nullish(),
    })
    .nullish(),
  embeddedWallets: z.looseObject({ createOnLogin: z.enum(['off', 'users-without-wallets', 'all-users']).optional(), allowRawSign: z.boolean().optional() }).nullish(),
  passkeysForSignupEnabled: z.boolean().optional(),
  passkeys: z.object({ rpIds: z.array(z.string().min(1)).optional(), origins: z.array(z.url()).optional() }).nullish(),
  telegramBotName: str,
  telegramBotToken: z.string().regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'must look like 123456:ABC... (the token BotFather gave)').nullish(),
  telegramBotTokenEnv: str,
  telegramAuthMaxAgeS: z.number().int().positive().nullish(),
  farcasterSigner: z
    .object({
      appFid: z.number().int().positive().max(2 ** 48),
      custodyKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits').nullish(),
      custodyKeyEnv: str,
      deadlineS: z.number().int().min(60).max(7 * 86400).nullish(),
    })
    .nullish(),
  allowedOrigins: z.array(z.url()).default([]),
  // Spec part 1, section 5: not empty, and includes the default chain (Ethereum mainnet).
  supportedChains: z
    .array(z.number().int().positive())
    .min(1, 'supportedChains must not be empty')
    .refine((c) => c.includes(1), 'supportedChains must include the default chain (Ethereum mainnet)')
    .optional(),
  customAuth: z
    .object({
      jwksUrl: z.url().optional(),
      publicJwk: z.looseObject({ kty: z.string() }).optional(),
      issuer: z.string().optional(),
      audience: z.string().optional(),
    })
    .nullish(),
  oauth: oauthSchema,
  funding: fundingSchema,
  webhooks: webhooksSchema,
})
const appsFileSchema = z.object({ apps: z.array(appSchema) })

/** Reads and validates apps.json; ConfigError names every problem with its path. */
export function loadApps(file: string): AppsRegistry {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new ConfigError([`APPS_FILE ${file}: ${(err as Error).message}`])
  }
  const r = appsFileSchema.safeParse(raw)
  if (!r.success) throw new ConfigError(r.error.issues.map((i) => `${file}: ${i.path.join('.')}: ${i.message}`))
  return appsFrom(r.data.apps as AppSettings[])
}

export function appsFrom(list: AppSettings[]): AppsRegistry {
  const parsed = z.array(appSchema).safeParse(list)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const app = list[Number(i.path[0])]?.id
      return `apps: ${typeof app === 'string' ? app : JSON.stringify(app)}: ${i.path.slice(1).join('.')}: ${i.message}`
    })
    throw new ConfigError(problems)
  }
  const map = new Map<string, AppSettings>()
  // A later entry with the same id replaces an earlier one (tests layer their apps over apps.json).
  for (const app of parsed.data as AppSettings[]) map.set(app.id, app)
  const origins = new Set([...map.values()].flatMap((a) => a.allowedOrigins))
  return { get: (id) => map.get(id), all: () => [...map.values()], allOrigins: () => origins }
}

/** What GET /apps/{appId} returns: nothing secret (no allowlist entries, no keys). */
export function toWireApp(a: AppSettings): WireAppConfig {
  // The bot's numeric id (public: Telegram.Login.auth needs it) is the token's part before ':'.
  const botToken = a.telegramBotToken ?? (a.telegramBotTokenEnv ? process.env[a.telegramBotTokenEnv] : undefined)
  const botId = a.telegramBotName && botToken && /^\d+:/.test(botToken) ? Number(botToken.split(':')[0]) : null
  return Object.assign(wireApp(a), { telegram_bot_id: botId, funding_config: fundingWire(a) })
}

function wireApp(a: AppSettings): WireAppConfig {
  return {
    id: a.id,
    name: a.name,
    logo_url: a.logoUrl ?? null,
    accent_color: a.accentColor ?? null,
    theme: a.theme ?? null,
    login_methods: a.loginMethods,
    login_methods_and_order: a.loginMethodsAndOrder ?? null,
    landing_header: a.landingHeader ?? null,
    login_message: a.loginMessage ?? null,
    login_group_priority: a.loginGroupPriority ?? null,
    wallet_chain_type: a.walletChainType ?? null,
    allowlist_config: a.allowlist
      ? {
          error_title: a.allowlist.errorTitle ?? null,
          error_detail: a.allowlist.errorDetail ?? null,
          error_cta_text: a.allowlist.errorCtaText ?? null,
          error_cta_link: a.allowlist.errorCtaLink ?? null,
        }
      : null,
    legal: a.legal
      ? {
          terms_and_conditions_url: a.legal.termsAndConditionsUrl ?? null,
          privacy_policy_url: a.legal.privacyPolicyUrl ?? null,
          require_users_accept_terms: !!a.legal.requireUsersAcceptTerms,
        }
      : null,
    disable_plus_emails: !!a.disablePlusEmails,
    captcha_enabled: !!a.captcha?.enabled,
    captcha_site_key: a.captcha?.siteKey ?? null,
    development_mode: !!a.developmentMode,
    passkeys_for_signup_enabled: !!a.passkeysForSignupEnabled,
    telegram_bot_name: a.telegramBotName ?? null,
    custom_api_url: null,
    embedded_wallet_config: {
      create_on_login: a.embeddedWallets?.createOnLogin ?? 'off',
      // Recovery (issue 14): the wallet is created with a user-owned method the user picks.
      ...(a.embeddedWallets?.requireUserOwnedRecoveryOnCreate === true ? { require_user_owned_recovery_on_create: true } : {}),
      ...(Array.isArray(a.embeddedWallets?.userOwnedRecoveryOptions) ? { user_owned_recovery_options: a.embeddedWallets.userOwnedRecoveryOptions } : {}),
    },
  }
}

/** Is the login method (as used by a route group) enabled for the app? */
export function methodEnabled(a: AppSettings, method: 'email' | 'sms' | 'siwe' | 'siws' | 'guest' | 'custom_auth' | 'passkey' | 'telegram' | 'farcaster'): boolean {
  const m = a.loginMethods
  if (method === 'siwe' || method === 'siws') {
    if (m.includes(method)) return true
    if (!m.includes('wallet')) return false
    const t = a.walletChainType ?? 'ethereum-and-solana'
    return method === 'siwe' ? t !== 'solana-only' : t !== 'ethereum-only'
  }
  if (method === 'custom_auth') return m.includes('custom_auth') || !!(a.customAuth?.jwksUrl || a.customAuth?.publicJwk)
  return m.includes(method)
}
