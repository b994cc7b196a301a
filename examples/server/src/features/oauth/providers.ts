/**
 * Server-side OAuth provider descriptors (issue 12): each provider's documented endpoints,
 * scopes, client authentication, PKCE support and profile mapping. The server is the OAuth
 * client; client ids and secrets come from the app's settings or the environment and never
 * reach the browser. Every endpoint can be overridden per app (apps.json `oauth`), and a base
 * URL (`oauth.baseUrl` or PORTICO_OAUTH_BASE_URL) rebases all of them onto one host as
 * `<base>/<provider><the real path>` — the layout the local stand-in (examples/server/idp) serves.
 */

// The provider list and the apps.json settings are the app configuration's (config.ts).
export { OAUTH_PROVIDERS, isOAuthProvider, type OAuthAppSettings, type OAuthProvider, type OAuthProviderSettings } from '../../config'
import type { OAuthAppSettings, OAuthProvider } from '../../config'

/** What a linked `<provider>_oauth` account holds (spec part 1, section 3). */
export interface OAuthProfile {
  subject: string
  email: string | null
  name: string | null
  username: string | null
}

export interface ProviderDescriptor {
  id: OAuthProvider
  /** Display name (messages: 'Request limit reached for {label}.'). */
  label: string
  /** OIDC issuer when the token response carries an id_token. */
  issuer?: string
  authorizationUrl: string
  tokenUrl: string
  /** Profile endpoint (absent: the profile comes from the id_token, as for Apple). */
  profileUrl?: string
  scopes: string[]
  /** TikTok separates scopes with commas. */
  scopeSeparator: ' ' | ','
  /** Whether the provider takes code_challenge / code_verifier (the server checks the client's verifier either way). */
  pkce: boolean
  /** How the client id and secret reach the token endpoint. */
  clientAuth: 'post' | 'basic' | 'client_key'
  /** Extra authorization request parameters (Apple: response_mode=form_post). */
  authParams?: Record<string, string>
  /** The token response carries an id_token the profile is read from. */
  profileFromIdToken?: boolean
  /** Maps the profile endpoint's JSON (or the id_token claims) to the account fields. */
  profile(json: any, extra: { appleUser?: any }): OAuthProfile
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : null)
const need = (v: unknown): string => {
  const s = str(v)
  if (!s) throw new Error('profile without a subject')
  return s
}
const verifiedEmail = (email: unknown, verified: unknown) => (verified === false || verified === 'false' ? null : str(email))

export const PROVIDERS: Record<OAuthProvider, ProviderDescriptor> = {
  google: {
    id: 'google',
    label: 'Google',
    issuer: 'https://accounts.google.com',
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    profileUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    scopes: ['openid', 'email', 'profile'],
    scopeSeparator: ' ',
    pkce: true,
    clientAuth: 'post',
    profile: (j) => ({ subject: need(j.sub), email: verifiedEmail(j.email, j.email_verified), name: str(j.name), username: null }),
  },
  apple: {
    id: 'apple',
    label: 'Apple',
    issuer: 'https://appleid.apple.com',
    authorizationUrl: 'https://appleid.apple.com/auth/authorize',
    tokenUrl: 'https://appleid.apple.com/auth/token',
    scopes: ['name', 'email'],
    scopeSeparator: ' ',
    pkce: false,
    clientAuth: 'post',
    // Apple requires form_post when name or email is asked for: it POSTs code, state and (first time) `user`.
    authParams: { response_mode: 'form_post' },
    profileFromIdToken: true,
    profile: (claims, { appleUser }) => {
      const n = appleUser?.name
      const full = [str(n?.firstName), str(n?.lastName)].filter(Boolean).join(' ')
      return { subject: need(claims.sub), email: verifiedEmail(claims.email, claims.email_verified), name: full || null, username: null }
    },
  },
  discord: {
    id: 'discord',
    label: 'Discord',
    authorizationUrl: 'https://discord.com/oauth2/authorize',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    profileUrl: 'https://discord.com/api/users/@me',
    scopes: ['identify', 'email'],
    scopeSeparator: ' ',
    pkce: true,
    clientAuth: 'post',
    profile: (j) => ({ subject: need(j.id), email: verifiedEmail(j.email, j.verified), name: str(j.global_name), username: str(j.username) }),
  },
  github: {
    id: 'github',
    label: 'GitHub',
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    profileUrl: 'https://api.github.com/user',
    scopes: ['read:user', 'user:email'],
    scopeSeparator: ' ',
    pkce: true,
    clientAuth: 'post',
    profile: (j) => ({ subject: need(j.id), email: str(j.email), name: str(j.name), username: str(j.login) }),
  },
  instagram: {
    id: 'instagram',
    label: 'Instagram',
    authorizationUrl: 'https://www.instagram.com/oauth/authorize',
    tokenUrl: 'https://api.instagram.com/oauth/access_token',
    profileUrl: 'https://graph.instagram.com/me?fields=user_id,username',
    scopes: ['instagram_business_basic'],
    scopeSeparator: ' ',
    pkce: false,
    clientAuth: 'post',
    profile: (j) => ({ subject: need(j.user_id ?? j.id), email: null, name: null, username: str(j.username) }),
  },
  spotify: {
    id: 'spotify',
    label: 'Spotify',
    authorizationUrl: 'https://accounts.spotify.com/authorize',
    tokenUrl: 'https://accounts.spotify.com/api/token',
    profileUrl: 'https://api.spotify.com/v1/me',
    scopes: ['user-read-email', 'user-read-private'],
    scopeSeparator: ' ',
    pkce: true,
    clientAuth: 'basic',
    profile: (j) => ({ subject: need(j.id), email: str(j.email), name: str(j.display_name), username: null }),
  },
  tiktok: {
    id: 'tiktok',
    label: 'TikTok',
    authorizationUrl: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
    profileUrl: 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,display_name,username',
    scopes: ['user.info.basic', 'user.info.profile'],
    scopeSeparator: ',',
    pkce: true,
    // TikTok names the client id `client_key` in both the authorize and the token request.
    clientAuth: 'client_key',
    profile: (j) => {
      const u = j?.data?.user ?? {}
      return { subject: need(u.open_id), email: null, name: str(u.display_name), username: str(u.username) }
    },
  },
  twitter: {
    id: 'twitter',
    label: 'Twitter',
    authorizationUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    profileUrl: 'https://api.x.com/2/users/me',
    scopes: ['users.read', 'tweet.read', 'offline.access'],
    scopeSeparator: ' ',
    // OAuth 2.0 with PKCE only (confidential clients add Basic auth).
    pkce: true,
    clientAuth: 'basic',
    profile: (j) => ({ subject: need(j?.data?.id), email: null, name: str(j?.data?.name), username: str(j?.data?.username) }),
  },
  linkedin: {
    id: 'linkedin',
    label: 'LinkedIn',
    issuer: 'https://www.linkedin.com/oauth',
    authorizationUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    profileUrl: 'https://api.linkedin.com/v2/userinfo',
    scopes: ['openid', 'profile', 'email'],
    scopeSeparator: ' ',
    pkce: false,
    clientAuth: 'post',
    profile: (j) => ({ subject: need(j.sub), email: verifiedEmail(j.email, j.email_verified), name: str(j.name), username: null }),
  },
}

/** `https://host/path?q` → `<base>/<provider>/path?q` (the stand-in's layout). */
export function rebase(base: string, provider: OAuthProvider, real: string): string {
  const u = new URL(real)
  const path = u.pathname === '/' ? '' : u.pathname
  return `${base.replace(/\/+$/, '')}/${provider}${path}${u.search}`
}

/** A provider as configured for one app: endpoints resolved, credentials present. */
export interface ResolvedProvider extends ProviderDescriptor {
  clientId: string
  clientSecret: string | null
}

/**
 * The provider's effective configuration for an app, or null when it has no client id
 * (then the method is disabled with a clear error, never a start-up failure).
 * Environment: OAUTH_<PROVIDER>_CLIENT_ID, OAUTH_<PROVIDER>_CLIENT_SECRET, PORTICO_OAUTH_BASE_URL
 * (with a base URL and no credentials, the local stand-in's test client `portico-local-<id>`).
 */
export function resolveProvider(
  id: OAuthProvider,
  app: { oauth?: OAuthAppSettings | null },
  env: Record<string, string | undefined>,
): ResolvedProvider | null {
  const d = PROVIDERS[id]
  const s = app.oauth?.providers?.[id] ?? {}
  const P = id.toUpperCase()
  const base = s.baseUrl ?? app.oauth?.baseUrl ?? env.PORTICO_OAUTH_BASE_URL
  // Pointed at the local stand-in with no credentials of its own: the stand-in's public test client.
  const standIn = !!base && !s.clientId && !env[`OAUTH_${P}_CLIENT_ID`]
  const clientId = s.clientId ?? env[`OAUTH_${P}_CLIENT_ID`] ?? (standIn ? `portico-local-${id}` : undefined)
  if (!clientId) return null
  const clientSecret = s.clientSecret ?? env[`OAUTH_${P}_CLIENT_SECRET`] ?? (standIn ? 'local-stand-in-secret' : null)
  const at = (real: string | undefined, override: string | undefined) =>
    override ?? (real && base ? rebase(base, id, real) : real)
  return {
    ...d,
    clientId,
    clientSecret,
    issuer: at(d.issuer, s.issuer),
    authorizationUrl: at(d.authorizationUrl, s.authorizationUrl)!,
    tokenUrl: at(d.tokenUrl, s.tokenUrl)!,
    profileUrl: at(d.profileUrl, s.profileUrl),
    scopes: s.scopes ?? d.scopes,
  }
}
