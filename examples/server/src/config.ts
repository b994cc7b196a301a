import { readFileSync } from 'node:fs'
import type { JWK } from 'jose'
import type { WireAppConfig } from '../../../kernel/wire'

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
  captcha?: { enabled: boolean; siteKey?: string | null } | null
  embeddedWallets?: { createOnLogin?: 'off' | 'users-without-wallets' | 'all-users'; [k: string]: unknown } | null
  passkeysForSignupEnabled?: boolean
  telegramBotName?: string | null
  allowedOrigins: string[]
  /** Custom-auth (host-issued JWT) verification: a JWKS URL or one public JWK. */
  customAuth?: { jwksUrl?: string; publicJwk?: JWK; issuer?: string; audience?: string } | null
}

export interface AppsRegistry {
  get(id: string): AppSettings | undefined
  all(): AppSettings[]
  /** Union of every app's allowed origins (for CORS preflight, which carries no app id). */
  allOrigins(): Set<string>
}

export function loadApps(file: string): AppsRegistry {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { apps: AppSettings[] }
  return appsFrom(raw.apps)
}

export function appsFrom(list: AppSettings[]): AppsRegistry {
  const map = new Map<string, AppSettings>()
  for (const app of list) {
    if (typeof app.id !== 'string' || app.id.length !== 25) {
      throw new Error(`apps: app id ${JSON.stringify(app.id)} must be a string of exactly 25 characters`)
    }
    if (!Array.isArray(app.loginMethods) || app.loginMethods.length === 0) {
      throw new Error(`apps: ${app.id}: You must enable at least one login method`)
    }
    map.set(app.id, { ...app, allowedOrigins: app.allowedOrigins ?? [] })
  }
  const origins = new Set(list.flatMap((a) => a.allowedOrigins ?? []))
  return { get: (id) => map.get(id), all: () => [...map.values()], allOrigins: () => origins }
}

/** What GET /apps/{appId} returns: nothing secret (no allowlist entries, no keys). */
export function toWireApp(a: AppSettings): WireAppConfig {
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
    embedded_wallet_config: { create_on_login: a.embeddedWallets?.createOnLogin ?? 'off' },
  }
}

/** Is the login method (as used by a route group) enabled for the app? */
export function methodEnabled(a: AppSettings, method: 'email' | 'sms' | 'siwe' | 'siws' | 'guest' | 'custom_auth'): boolean {
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
