/**
 * The user record (part 1 section 3): linked accounts normalised from the wire format
 * (snake_case, seconds) into camelCase with `Date`s, and the derived single accessors.
 * Plugins add or override account types through the `linkedAccount` hook; the kernel knows
 * every type the spec lists.
 */
import type { WireLinkedAccountBase, WireMfaMethod, WireUser } from './wire'

export interface BaseAccount {
  type: string
  verifiedAt: Date | null
  firstVerifiedAt: Date | null
  latestVerifiedAt: Date | null
}
export interface EmailAccount extends BaseAccount {
  type: 'email'
  address: string
}
export interface PhoneAccount extends BaseAccount {
  type: 'phone'
  number: string
}
export interface WalletAccount extends BaseAccount {
  type: 'wallet'
  address: string
  chainType: 'ethereum' | 'solana'
  chainId: string | null
  walletClientType: string | null
  connectorType: string | null
  imported: boolean
  delegated: boolean
  recoveryMethod: string | null
  walletIndex: number | null
}
export interface SmartWalletAccount extends BaseAccount {
  type: 'smart_wallet'
  address: string | null
  smartWalletType: string | null
}
export interface CrossAppAccount extends BaseAccount {
  type: 'cross_app'
  subject: string
  providerAppId: string
  providerApp: { id: string }
  embeddedWallets: { address: string }[]
  smartWallets: { address: string }[]
}
export const OAUTH_PROVIDERS = [
  'google',
  'spotify',
  'discord',
  'github',
  'apple',
  'linkedin',
  'twitter',
  'tiktok',
  'instagram',
] as const
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]
export interface OAuthAccount extends BaseAccount {
  type: `${OAuthProvider}_oauth`
  subject: string
  email: string | null
  name: string | null
  username: string | null
}
export interface CustomAuthAccount extends BaseAccount {
  type: 'custom_auth'
  customUserId: string
}
export interface FarcasterAccount extends BaseAccount {
  type: 'farcaster'
  fid: number
  ownerAddress: string
  username: string | null
  displayName: string | null
  bio: string | null
  profilePictureUrl: string | null
  signerPublicKey: string | null
}
export interface PasskeyAccount extends BaseAccount {
  type: 'passkey'
  credentialId: string
  authenticatorName: string | null
  createdWithBrowser: string | null
  createdWithOs: string | null
  enrolledInMfa: boolean
}
export interface TelegramAccount extends BaseAccount {
  type: 'telegram'
  telegramUserId: string
  firstName: string | null
  lastName: string | null
  username: string | null
  photoUrl: string | null
}
/** An account type a plugin brought: normalised fields, camelCase. */
export interface OtherAccount extends BaseAccount {
  [field: string]: unknown
}

export type LinkedAccount =
  | EmailAccount
  | PhoneAccount
  | WalletAccount
  | SmartWalletAccount
  | CrossAppAccount
  | OAuthAccount
  | CustomAuthAccount
  | FarcasterAccount
  | PasskeyAccount
  | TelegramAccount
  | OtherAccount

export interface MfaMethod {
  type: 'totp' | 'sms' | 'passkey'
  verifiedAt: Date
}

export interface User {
  id: string
  createdAt: Date
  linkedAccounts: LinkedAccount[]
  email?: EmailAccount
  phone?: PhoneAccount
  /** The first Ethereum or Solana wallet (external or embedded). */
  wallet?: WalletAccount
  smartWallet?: SmartWalletAccount
  google?: OAuthAccount
  twitter?: OAuthAccount
  discord?: OAuthAccount
  github?: OAuthAccount
  spotify?: OAuthAccount
  instagram?: OAuthAccount
  tiktok?: OAuthAccount
  linkedin?: OAuthAccount
  apple?: OAuthAccount
  farcaster?: FarcasterAccount
  telegram?: TelegramAccount
  customAuth?: CustomAuthAccount
  delegatedWallets: WalletAccount[]
  mfaMethods: MfaMethod[]
  hasAcceptedTerms: boolean
  isGuest: boolean
  customMetadata: Record<string, unknown>
}

/** Seconds since the epoch, as the wire delivers them, to a Date (null stays null). */
export function secondsToDate(s: unknown): Date | null {
  return typeof s === 'number' && Number.isFinite(s) ? new Date(s * 1000) : null
}

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

function base(raw: WireLinkedAccountBase): BaseAccount {
  return {
    type: raw.type,
    verifiedAt: secondsToDate(raw.verified_at),
    firstVerifiedAt: secondsToDate(raw.first_verified_at),
    latestVerifiedAt: secondsToDate(raw.latest_verified_at),
  }
}

/** Generic normalisation: camelCase keys, `*_at` seconds to dates. Used for unknown types. */
export function normaliseGeneric(raw: WireLinkedAccountBase): OtherAccount {
  const out: OtherAccount = { ...base(raw) }
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'type' || k === 'verified_at' || k === 'first_verified_at' || k === 'latest_verified_at') continue
    out[camel(k)] = k.endsWith('_at') ? secondsToDate(v) : v
  }
  return out
}

/**
 * Field lists of every linked-account type of part 1 section 3: wire key, then its kind
 * (s string-or-null, S string, b boolean, n number-or-null, N number, a array). The camelCase
 * name is derived from the wire key.
 */
const SHAPES: Record<string, string> = {
  email: 'address:S',
  phone: 'number:S',
  wallet:
    'address:S chain_type:S chain_id:s wallet_client_type:s connector_type:s imported:b delegated:b recovery_method:s wallet_index:n',
  smart_wallet: 'address:s smart_wallet_type:s',
  cross_app: 'subject:S provider_app_id:S embedded_wallets:a smart_wallets:a',
  custom_auth: 'custom_user_id:S',
  farcaster: 'fid:N owner_address:S username:s display_name:s bio:s profile_picture_url:s signer_public_key:s',
  passkey: 'credential_id:S authenticator_name:s created_with_browser:s created_with_os:s enrolled_in_mfa:b',
  telegram: 'telegram_user_id:S first_name:s last_name:s username:s photo_url:s',
  oauth: 'subject:S email:s name:s username:s',
}

function coerce(v: unknown, kind: string): unknown {
  switch (kind) {
    case 'S':
      return v == null ? '' : String(v)
    case 's':
      return typeof v === 'string' ? v : null
    case 'b':
      return v === true
    case 'n':
      return typeof v === 'number' ? v : null
    case 'N':
      return Number(v)
    default:
      return Array.isArray(v) ? v : []
  }
}

/** The kernel's normaliser for every linked-account type of part 1 section 3. */
export function normaliseBuiltin(raw: WireLinkedAccountBase): LinkedAccount {
  const r = raw as Record<string, unknown>
  const provider = raw.type.endsWith('_oauth') ? raw.type.slice(0, -6) : ''
  const shape = SHAPES[(OAUTH_PROVIDERS as readonly string[]).includes(provider) ? 'oauth' : raw.type]
  if (!shape) return normaliseGeneric(raw)
  const out: Record<string, unknown> = { ...base(raw) }
  for (const field of shape.split(' ')) {
    const [key, kind] = field.split(':')
    out[camel(key)] = coerce(r[key], kind)
  }
  if (raw.type === 'phone' && !out.number && typeof r.phone_number === 'string') out.number = r.phone_number
  if (raw.type === 'wallet') out.chainType = r.chain_type === 'solana' ? 'solana' : 'ethereum'
  if (raw.type === 'cross_app') out.providerApp = { id: out.providerAppId }
  return out as unknown as LinkedAccount
}

/** 'Unknown device' unless the passkey says what made it (part 1 section 3). */
export function passkeyTitle(p: Pick<PasskeyAccount, 'authenticatorName' | 'createdWithBrowser' | 'createdWithOs'>): string {
  if (p.authenticatorName) return p.createdWithBrowser ? `${p.authenticatorName} (${p.createdWithBrowser})` : p.authenticatorName
  if (p.createdWithBrowser && p.createdWithOs) return `${p.createdWithBrowser} on ${p.createdWithOs}`
  if (p.createdWithBrowser) return p.createdWithBrowser
  return 'Unknown device'
}

/**
 * Turn a wire user into the user record. `normalise` is the `linkedAccount` hook's call
 * (plugins first); the kernel's built-in normaliser is the fallback.
 */
export function toUser(
  raw: WireUser,
  normalise: (account: WireLinkedAccountBase) => LinkedAccount | undefined = () => undefined,
): User {
  const accounts = (Array.isArray(raw.linked_accounts) ? raw.linked_accounts : [])
    .filter((a): a is WireLinkedAccountBase => !!a && typeof a === 'object' && typeof a.type === 'string')
    .map((a) => normalise(a) ?? normaliseBuiltin(a))
  const first = <T extends LinkedAccount>(type: string) => accounts.find((a) => a.type === type) as T | undefined
  const wallets = accounts.filter((a): a is WalletAccount => a.type === 'wallet')
  const user: User = {
    id: String(raw.id),
    createdAt: secondsToDate(raw.created_at) ?? new Date(0),
    linkedAccounts: accounts,
    email: first<EmailAccount>('email'),
    phone: first<PhoneAccount>('phone'),
    wallet: wallets[0],
    smartWallet: first<SmartWalletAccount>('smart_wallet'),
    farcaster: first<FarcasterAccount>('farcaster'),
    telegram: first<TelegramAccount>('telegram'),
    customAuth: first<CustomAuthAccount>('custom_auth'),
    delegatedWallets: wallets.filter((w) => w.delegated),
    mfaMethods: (Array.isArray(raw.mfa_methods) ? raw.mfa_methods : []).map((m: WireMfaMethod) => ({
      type: m.type,
      verifiedAt: secondsToDate(m.verified_at) ?? new Date(0),
    })),
    hasAcceptedTerms: raw.has_accepted_terms === true,
    isGuest: raw.is_guest === true,
    customMetadata: raw.custom_metadata && typeof raw.custom_metadata === 'object' ? raw.custom_metadata : {},
  }
  for (const p of OAUTH_PROVIDERS) {
    const acc = first<OAuthAccount>(`${p}_oauth`)
    if (acc) user[p] = acc
  }
  return user
}
