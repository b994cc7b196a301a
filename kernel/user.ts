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
  pfp: string | null
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

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
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

/** The kernel's normalisers for every linked-account type of part 1 section 3. */
export function normaliseBuiltin(raw: WireLinkedAccountBase): LinkedAccount {
  const r = raw as Record<string, any>
  const b = base(raw)
  switch (raw.type) {
    case 'email':
      return { ...b, type: 'email', address: String(r.address ?? '') }
    case 'phone':
      return { ...b, type: 'phone', number: String(r.number ?? r.phone_number ?? '') }
    case 'wallet':
      return {
        ...b,
        type: 'wallet',
        address: String(r.address ?? ''),
        chainType: r.chain_type === 'solana' ? 'solana' : 'ethereum',
        chainId: str(r.chain_id),
        walletClientType: str(r.wallet_client_type),
        connectorType: str(r.connector_type),
        imported: r.imported === true,
        delegated: r.delegated === true,
        recoveryMethod: str(r.recovery_method),
        walletIndex: typeof r.wallet_index === 'number' ? r.wallet_index : null,
      }
    case 'smart_wallet':
      return { ...b, type: 'smart_wallet', address: str(r.address), smartWalletType: str(r.smart_wallet_type) }
    case 'cross_app':
      return {
        ...b,
        type: 'cross_app',
        subject: String(r.subject ?? ''),
        providerApp: { id: String(r.provider_app_id ?? r.provider_app?.id ?? '') },
        embeddedWallets: Array.isArray(r.embedded_wallets) ? r.embedded_wallets : [],
        smartWallets: Array.isArray(r.smart_wallets) ? r.smart_wallets : [],
      }
    case 'custom_auth':
      return { ...b, type: 'custom_auth', customUserId: String(r.custom_user_id ?? '') }
    case 'farcaster':
      return {
        ...b,
        type: 'farcaster',
        fid: Number(r.fid),
        ownerAddress: String(r.owner_address ?? ''),
        username: str(r.username),
        displayName: str(r.display_name),
        bio: str(r.bio),
        pfp: str(r.profile_picture_url ?? r.pfp),
        signerPublicKey: str(r.signer_public_key),
      }
    case 'passkey':
      return {
        ...b,
        type: 'passkey',
        credentialId: String(r.credential_id ?? ''),
        authenticatorName: str(r.authenticator_name),
        createdWithBrowser: str(r.created_with_browser),
        createdWithOs: str(r.created_with_os),
        enrolledInMfa: r.enrolled_in_mfa === true,
      }
    case 'telegram':
      return {
        ...b,
        type: 'telegram',
        telegramUserId: String(r.telegram_user_id ?? ''),
        firstName: str(r.first_name),
        lastName: str(r.last_name),
        username: str(r.username),
        photoUrl: str(r.photo_url),
      }
  }
  const provider = raw.type.endsWith('_oauth') ? raw.type.slice(0, -'_oauth'.length) : null
  if (provider && (OAUTH_PROVIDERS as readonly string[]).includes(provider)) {
    return {
      ...b,
      type: raw.type as OAuthAccount['type'],
      subject: String(r.subject ?? ''),
      email: str(r.email),
      name: str(r.name),
      username: str(r.username),
    }
  }
  return normaliseGeneric(raw)
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
