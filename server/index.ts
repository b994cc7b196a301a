/**
 * `portico/server`: verify Portico users on the host app's own backend (Node 20+, Deno, Bun,
 * Cloudflare Workers, Vercel's edge runtime: only `fetch` and WebCrypto, through jose).
 *
 * ```ts
 * import { verifyAccessToken, verifyIdentityToken, getUser } from 'portico/server'
 * const { userId } = await verifyAccessToken(bearer, { appId, apiUrl: 'https://auth.example.com' })
 * const user = await getUser(userId, { appId, appSecret: process.env.PORTICO_APP_SECRET!, apiUrl })
 * ```
 *
 * Tokens are ES256 JWTs signed by the Portico server; its public keys are at
 * `GET {apiUrl}/api/v1/apps/{appId}/jwks.json`. The key set is fetched once and again only
 * when a token names a key id it does not hold (a key rotation), at most once every 30 s.
 * Nothing here trusts the token's header beyond choosing a key of that set: the algorithm is
 * fixed to ES256 (no `none`, no HMAC with the public key), and issuer, audience (your app
 * id) and expiry are checked.
 */
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { Webhook } from 'standardwebhooks'
import type { WireLinkedAccount, WireUser } from 'portico'

/** The issuer the reference server writes in its tokens. */
export const PORTICO_ISSUER = 'portico'

export interface VerifyOptions {
  /** Your app id (the tokens' audience). */
  appId: string
  /** The Portico server's base URL, e.g. `https://auth.example.com` (the one the client's `apiUrl` names). */
  apiUrl: string
  /** The issuer to expect. Default `'portico'` (the reference server's). */
  issuer?: string
  /** Seconds of clock difference tolerated on `exp`/`iat`. Default 0. */
  clockToleranceS?: number
  /** The key set to verify with, instead of the server's JWKS (tests, or keys you pin). */
  keys?: JWTVerifyGetKey
  /** `fetch` for the JWKS and `getUser` (default: the global one). */
  fetch?: typeof fetch
}

/** Why a token or a call was refused. `code` is stable; `message` is for logs. */
export type PorticoServerErrorCode =
  | 'invalid_token' // not a JWT, a claim missing or of the wrong type
  | 'token_expired'
  | 'invalid_signature' // not signed by a key of the server's key set, or not ES256
  | 'invalid_issuer'
  | 'invalid_audience' // a token of another app
  | 'jwks_unavailable' // the key set could not be fetched
  | 'invalid_credentials' // getUser: app id and secret refused
  | 'user_not_found'
  | 'server_error' // getUser: the server answered something else
  | 'invalid_webhook' // verifyWebhook: headers missing, signature wrong, timestamp over 5 minutes off, not an event

export class PorticoServerError extends Error {
  override readonly name = 'PorticoServerError'
  constructor(
    readonly code: PorticoServerErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.status = options?.status
  }
  /** The HTTP status of `getUser`'s answer, when it failed on one. */
  readonly status?: number
}

/** The verified access token. Timestamps in seconds, as on the wire. */
export interface VerifiedAccessToken {
  userId: string
  appId: string
  sessionId: string
  issuer: string
  issuedAt: number
  expiresAt: number
}

/** The identity token's user: id, linked accounts (without their verification times), guest flag. */
export interface VerifiedIdentityToken {
  userId: string
  appId: string
  /** seconds */
  createdAt: number
  isGuest: boolean
  linkedAccounts: Omit<WireLinkedAccount, 'verified_at' | 'first_verified_at'>[]
  issuedAt: number
  expiresAt: number
}

/** Key sets by fetch function, then by JWKS URL: one per app and server in this process. */
const keySets = new WeakMap<typeof fetch, Map<string, JWTVerifyGetKey>>()

/** The server's key set for one app, shared by every call in this process (jose caches the keys). */
function keySet(o: VerifyOptions): JWTVerifyGetKey {
  if (o.keys) return o.keys
  const url = `${o.apiUrl.replace(/\/+$/, '')}/api/v1/apps/${encodeURIComponent(o.appId)}/jwks.json`
  const f = o.fetch ?? globalThis.fetch
  let byUrl = keySets.get(f)
  if (!byUrl) keySets.set(f, (byUrl = new Map()))
  let set = byUrl.get(url)
  if (!set) {
    set = createRemoteJWKSet(new URL(url), {
      // Keys are kept until a token names one the set lacks (a rotation); then refetched, at
      // most once every 30 s so a flood of forged key ids cannot make us hammer the server.
      cacheMaxAge: Infinity,
      cooldownDuration: 30_000,
      timeoutDuration: 5_000,
      headers: { 'privy-app-id': o.appId },
      [customFetch]: (input, init) => f(input, init),
    })
    byUrl.set(url, set)
  }
  return set
}

async function verify(token: string, o: VerifyOptions): Promise<JWTPayload> {
  if (typeof token !== 'string' || token.split('.').length !== 3) throw new PorticoServerError('invalid_token', 'Not a JWT')
  const issuer = o.issuer ?? PORTICO_ISSUER
  try {
    const { payload } = await jwtVerify(token, keySet(o), {
      algorithms: ['ES256'],
      issuer,
      audience: o.appId,
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: o.clockToleranceS ?? 0,
    })
    if (typeof payload.sub !== 'string' || !payload.sub) throw new PorticoServerError('invalid_token', 'The token has no subject')
    return payload
  } catch (err) {
    throw toServerError(err, { issuer, appId: o.appId })
  }
}

function toServerError(err: unknown, want: { issuer: string; appId: string }): PorticoServerError {
  if (err instanceof PorticoServerError) return err
  if (err instanceof joseErrors.JWTExpired) return new PorticoServerError('token_expired', 'The token has expired', { cause: err })
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return new PorticoServerError('invalid_issuer', `The token was not issued by '${want.issuer}'`, { cause: err })
    if (err.claim === 'aud') return new PorticoServerError('invalid_audience', `The token is not for app ${want.appId}`, { cause: err })
    return new PorticoServerError('invalid_token', `Claim '${err.claim}': ${err.message}`, { cause: err })
  }
  if (
    err instanceof joseErrors.JWSSignatureVerificationFailed ||
    err instanceof joseErrors.JOSEAlgNotAllowed ||
    err instanceof joseErrors.JWKSNoMatchingKey ||
    err instanceof joseErrors.JWKSMultipleMatchingKeys
  ) {
    return new PorticoServerError('invalid_signature', 'The token is not signed by a key of the Portico server', { cause: err })
  }
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid || (err instanceof Error && /fetch|network|ECONNREFUSED|Expected 200/i.test(err.message))) {
    return new PorticoServerError('jwks_unavailable', "The Portico server's key set could not be fetched", { cause: err })
  }
  if (err instanceof joseErrors.JOSEError) return new PorticoServerError('invalid_token', err.message, { cause: err })
  return new PorticoServerError('jwks_unavailable', "The Portico server's key set could not be fetched", { cause: err })
}

/**
 * Verifies a Portico access token (the `Authorization: Bearer …` your client sends, from
 * `portico.session.getAccessToken()`): ES256 signature by the server's key set, issuer,
 * audience (your app id), expiry. Throws a `PorticoServerError` with a stable `code`.
 */
export async function verifyAccessToken(token: string, options: VerifyOptions): Promise<VerifiedAccessToken> {
  const p = await verify(token, options)
  if (typeof p.sid !== 'string') throw new PorticoServerError('invalid_token', 'Not an access token (no session id)')
  return { userId: p.sub!, appId: options.appId, sessionId: p.sid, issuer: p.iss!, issuedAt: p.iat!, expiresAt: p.exp! }
}

/**
 * Verifies a Portico identity token (`portico.session.getIdentityToken()`, or the
 * `privy-id-token` cookie) and returns the user it describes: linked accounts, guest flag,
 * creation time. Same checks as `verifyAccessToken`.
 */
export async function verifyIdentityToken(token: string, options: VerifyOptions): Promise<VerifiedIdentityToken> {
  const p = await verify(token, options)
  if (!Array.isArray(p.linked_accounts)) throw new PorticoServerError('invalid_token', 'Not an identity token (no linked accounts)')
  return {
    userId: p.sub!,
    appId: options.appId,
    createdAt: typeof p.cr === 'number' ? p.cr : 0,
    isGuest: p.is_guest === true,
    linkedAccounts: p.linked_accounts as VerifiedIdentityToken['linkedAccounts'],
    issuedAt: p.iat!,
    expiresAt: p.exp!,
  }
}

export interface GetUserOptions {
  appId: string
  /** The app secret (server-side only: never ship it to a browser). */
  appSecret: string
  apiUrl: string
  fetch?: typeof fetch
}

/**
 * The user record (`GET /api/v1/users/{id}`, authenticated with your app id and app secret):
 * linked accounts with their verification times, MFA methods, terms acceptance. Throws
 * `user_not_found` for an id that is not a user of this app.
 */
export async function getUser(userId: string, options: GetUserOptions): Promise<WireUser> {
  const f = options.fetch ?? fetch
  const url = `${options.apiUrl.replace(/\/+$/, '')}/api/v1/users/${encodeURIComponent(userId)}`
  const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${options.appId}:${options.appSecret}`)))
  let res: Response
  try {
    res = await f(url, { headers: { authorization: `Basic ${basic}`, 'privy-app-id': options.appId, accept: 'application/json' } })
  } catch (err) {
    throw new PorticoServerError('server_error', 'The Portico server could not be reached', { cause: err })
  }
  if (res.status === 404) throw new PorticoServerError('user_not_found', `No user ${userId} in app ${options.appId}`, { status: 404 })
  if (res.status === 401 || res.status === 403) {
    throw new PorticoServerError('invalid_credentials', 'The Portico server refused the app id and secret', { status: res.status })
  }
  if (!res.ok) throw new PorticoServerError('server_error', `The Portico server answered ${res.status}`, { status: res.status })
  const body = (await res.json()) as { user?: WireUser }
  if (!body.user || typeof body.user.id !== 'string') throw new PorticoServerError('server_error', 'The Portico server answered without a user')
  return body.user
}

// ------------------------------------------------------------------ webhooks

export {
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  type WebhookAccount,
  type WebhookEventData,
  type WebhookEvent,
} from './webhook-events'
import type { WebhookEvent, WebhookEventType } from './webhook-events'
import { WEBHOOK_EVENT_TYPES } from './webhook-events'

/** The request's headers: a fetch `Headers`, or a plain object (Node's `req.headers`). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

/**
 * Verifies a webhook from a Portico server (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, with the `standardwebhooks` library) and returns
 * its event. `payload` is the request body exactly as received (the raw text or bytes, not
 * re-serialised JSON); `secret` the endpoint's `whsec_…` secret. Refuses a wrong signature, a
 * timestamp more than 5 minutes off and a body that is not an event, with
 * `PorticoServerError` `invalid_webhook`. Deliveries are at least once: deduplicate on
 * `webhook-id` (the same on every retry of one delivery).
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const flat: Record<string, string> = {}
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((v, k) => (flat[k.toLowerCase()] = v))
  } else {
    for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
      if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(' ') : v
    }
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload)
  let event: unknown
  try {
    event = new Webhook(secret).verify(body, flat)
  } catch (err) {
    throw new PorticoServerError('invalid_webhook', `The webhook did not verify: ${(err as Error)?.message ?? err}`, { cause: err })
  }
  const e = event as { type?: unknown; timestamp?: unknown; data?: unknown } | null
  if (!e || typeof e.type !== 'string' || typeof e.timestamp !== 'number' || !e.data || typeof e.data !== 'object') {
    throw new PorticoServerError('invalid_webhook', 'The webhook is signed but is not a Portico event ({ type, timestamp, data })')
  }
  return e as WebhookEvent
}
