/**
 * The wire format of the `/api/v1` contract: plain types only, shared by the client
 * (kernel, plugins) and the reference server (examples/server). JSON bodies, snake_case
 * field names where the spec shows them, timestamps in seconds since the epoch.
 *
 * Nothing in this file may produce runtime code: the server imports it with `import type`.
 */

/** Every error response: HTTP status >= 400 with this JSON body. */
export interface WireError {
  /** One of the spec's error codes (part 1 section 8, part 2 section 8). */
  code: string
  /** Human-readable message, shown as-is where the spec says "server message". */
  error: string
  /** Field-level details for `invalid_data`; transfer data for `account_transfer_required`. */
  data?: Record<string, unknown>
}

/** `data` of an `account_transfer_required` error (part 1 section 3, "Account transfer data"). */
export interface WireAccountTransferData {
  nonce: string
  account: string
  account_type: string
  display_name: string
  link_method: string
  embedded_wallet_address?: string | null
}

export type WireSessionUpdateAction = 'set' | 'clear' | 'ignore'

/** A successful login, link, refresh or recover response. */
export interface WireAuthResponse {
  user: WireUser
  /** Access token for the customer (host app): an ES256 JWT, one hour. */
  token: string | null
  /** Access token for the provider. */
  privy_access_token: string | null
  /** Opaque refresh token, rotated on every use. */
  refresh_token: string | null
  identity_token: string | null
  session_update_action: WireSessionUpdateAction
  is_new_user?: boolean
  oauth_tokens?: WireOAuthTokens | null
}

export interface WireOAuthTokens {
  provider: string
  access_token: string
  access_token_expires_in_seconds?: number
  refresh_token?: string
  refresh_token_expires_in_seconds?: number
  scopes?: string[]
}

/** POST /sessions/fork */
export interface WireForkResponse {
  refresh_token: string
  token: string
  new_session_refresh_token: string
}

export interface WireUser {
  id: string
  /** seconds */
  created_at: number
  linked_accounts: WireLinkedAccount[]
  mfa_methods: WireMfaMethod[]
  has_accepted_terms: boolean
  is_guest: boolean
  custom_metadata?: Record<string, unknown>
}

export interface WireMfaMethod {
  type: 'totp' | 'sms' | 'passkey'
  /** seconds */
  verified_at: number
}

/** Common to every linked account. Timestamps in seconds. */
export interface WireLinkedAccountBase {
  type: string
  verified_at: number
  first_verified_at: number | null
  latest_verified_at: number | null
  [field: string]: unknown
}

export interface WireEmailAccount extends WireLinkedAccountBase {
  type: 'email'
  address: string
}
export interface WirePhoneAccount extends WireLinkedAccountBase {
  type: 'phone'
  number: string
}
export interface WireWalletAccount extends WireLinkedAccountBase {
  type: 'wallet'
  address: string
  chain_type: 'ethereum' | 'solana'
  /** CAIP-2 style, e.g. 'eip155:1'; absent for Solana */
  chain_id?: string | null
  wallet_client_type?: string | null
  connector_type?: string | null
  imported?: boolean
  delegated?: boolean
  recovery_method?: string | null
  wallet_index?: number | null
}
export interface WireCustomAuthAccount extends WireLinkedAccountBase {
  type: 'custom_auth'
  custom_user_id: string
}
export type WireLinkedAccount =
  | WireEmailAccount
  | WirePhoneAccount
  | WireWalletAccount
  | WireCustomAuthAccount
  | WireLinkedAccountBase

/** GET /apps/{appId}: what the client needs and nothing secret. */
export interface WireAppConfig {
  id: string
  name: string
  logo_url?: string | null
  accent_color?: string | null
  /** 'light' | 'dark' */
  theme?: 'light' | 'dark' | null
  /** Enabled login methods in their order, e.g. ['email', 'sms', 'wallet', 'guest']. */
  login_methods: string[]
  /** Optional explicit layout of the landing (single list with overflow). */
  login_methods_and_order?: { primary: string[]; overflow?: string[] } | null
  landing_header?: string | null
  login_message?: string | null
  login_group_priority?: 'web2-first' | 'web3-first' | null
  wallet_chain_type?: 'ethereum-only' | 'solana-only' | 'ethereum-and-solana' | null
  allowlist_config?: {
    error_title?: string | null
    error_detail?: string | null
    error_cta_text?: string | null
    error_cta_link?: string | null
  } | null
  legal?: {
    terms_and_conditions_url?: string | null
    privacy_policy_url?: string | null
    require_users_accept_terms?: boolean
  } | null
  disable_plus_emails?: boolean
  captcha_enabled?: boolean
  captcha_site_key?: string | null
  /** The app is in development mode: new users are refused once its development cap is reached. */
  development_mode?: boolean
  passkeys_for_signup_enabled?: boolean
  telegram_bot_name?: string | null
  custom_api_url?: string | null
  embedded_wallet_config?: {
    create_on_login?: 'off' | 'users-without-wallets' | 'all-users'
    [key: string]: unknown
  } | null
}

/** POST /siwe/init, /siws/init */
export interface WireNonceResponse {
  nonce: string
  /** seconds */
  expires_at?: number
}

/** POST /passwordless/init, /passwordless_sms/init */
export interface WireInitResponse {
  success: true
}
