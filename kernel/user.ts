/**
 * The user record (part 1 section 3): linked accounts normalised from the wire format
 * (snake_case, seconds) into camelCase with `Date`s, and the derived single accessors.
 * The types below describe the spec's record; the plugin that declares a method normalises
 * its account types (`MethodDescriptor.normalise`), the kernel only camelCases unknown ones.
 */
import type { MethodDescriptor } from './methods'
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
/** An OAuth provider's account (`<provider>_oauth`); the providers are plugins (`portico/kits/oauth`). */
export interface OAuthAccount extends BaseAccount {
  type: `${string}_oauth`
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

/**
 * The user record's single accessors (`user.email`, `user.google` ...), one per login method,
 * added by the plugin that declares the method (its `userField`), by declaration merging:
 *
 * ```ts
 * declare module 'portico' {
 *   interface UserFields { myLogin?: OtherAccount }
 * }
 * ```
 * So `user.google` typechecks where the Google plugin is imported; the kernel names no method.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface UserFields {}

export interface User extends UserFields {
  id: string
  createdAt: Date
  linkedAccounts: LinkedAccount[]
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
 * Normalise a linked account by a field list: wire key, then its kind (s string-or-null,
 * S string, b boolean, n number-or-null, N number, a array); the camelCase name is derived.
 * Methods use it in their descriptor: `normalise: (raw) => normaliseFields(raw, 'address:S')`.
 */
export function normaliseFields<T extends LinkedAccount = LinkedAccount>(raw: WireLinkedAccountBase, fields: string): T {
  const r = raw as Record<string, unknown>
  const out: Record<string, unknown> = { ...base(raw) }
  for (const field of fields.split(' ').filter(Boolean)) {
    const [key, kind] = field.split(':')
    const v = r[key]
    out[camel(key)] =
      kind === 'S' ? (v == null ? '' : String(v))
      : kind === 's' ? (typeof v === 'string' ? v : null)
      : kind === 'b' ? v === true
      : kind === 'n' ? (typeof v === 'number' ? v : null)
      : kind === 'N' ? Number(v)
      : Array.isArray(v) ? v : []
  }
  return out as unknown as T
}

/** What `toUser` needs of the method registry. */
export interface AccountTypes {
  forAccountType(type: string): Pick<MethodDescriptor, 'normalise' | 'userField' | 'accountTypes'> | undefined
  list(): Pick<MethodDescriptor, 'userField' | 'accountTypes' | 'derive'>[]
  /** Told of a linked account whose type no method declared (kept generic in `linkedAccounts`, fills no user field). */
  undeclared?(type: string): void
}

/**
 * Turn a wire user into the user record. Each linked account is normalised by the method that
 * declared its type (generic camelCase otherwise); each method fills its user-record field
 * (`user.email`, `user.google` ...) and may derive more (`user.wallet`).
 */
export function toUser(raw: WireUser, methods: AccountTypes = { forAccountType: () => undefined, list: () => [] }): User {
  const accounts = (Array.isArray(raw.linked_accounts) ? raw.linked_accounts : [])
    .filter((a): a is WireLinkedAccountBase => !!a && typeof a === 'object' && typeof a.type === 'string')
    .map((a) => {
      const m = methods.forAccountType(a.type)
      if (!m) methods.undeclared?.(a.type)
      return m?.normalise?.(a) ?? normaliseGeneric(a)
    })
  const user: User = {
    id: String(raw.id),
    createdAt: secondsToDate(raw.created_at) ?? new Date(0),
    linkedAccounts: accounts,
    delegatedWallets: [],
    mfaMethods: (Array.isArray(raw.mfa_methods) ? raw.mfa_methods : []).map((m: WireMfaMethod) => ({
      type: m.type,
      verifiedAt: secondsToDate(m.verified_at) ?? new Date(0),
    })),
    hasAcceptedTerms: raw.has_accepted_terms === true,
    isGuest: raw.is_guest === true,
    customMetadata: raw.custom_metadata && typeof raw.custom_metadata === 'object' ? raw.custom_metadata : {},
  }
  for (const m of methods.list()) {
    const types = m.accountTypes ?? []
    if (m.userField && !(m.userField in user)) {
      const acc = accounts.find((a) => types.includes(a.type))
      if (acc) (user as unknown as Record<string, unknown>)[m.userField] = acc
    }
  }
  for (const m of methods.list()) m.derive?.(user)
  return user
}
