/**
 * Who is calling: the bearer access token of a user, or the app's backend with its app secret.
 * Routes never call these by hand: a route declares `auth` (core/router.ts) and the router runs
 * the check before the handler, so a route declared authenticated cannot run without it.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import type { AppSettings } from '../config'
import { now } from './identity/tokens'
import { verifyAccessToken } from './identity/tokens'
import { clientIp, type C, type ServerCtx } from './context'
import { ApiError, errors } from './errors'
import { isGuestSession, sessionAlive } from './identity/sessions'
import { countSecretFailure, secretFailures } from './repo'

export interface Auth {
  userId: string
  sessionId: string
}

export function bearer(c: Context): string | null {
  const h = c.req.header('authorization')
  if (!h) return null
  const v = h.trim()
  if (v.length < 8 || v.slice(0, 7).toLowerCase() !== 'bearer ') return null
  const token = v.slice(7).trim()
  return token || null
}

/**
 * The authenticated user from the bearer access token (signature, audience, expiry, live
 * session). No bearer: 401 must_be_authenticated when linking, else missing_or_invalid_token.
 */
export async function requireAuth(c: C, ctx: ServerCtx, opts: { linking?: boolean } = {}): Promise<Auth> {
  const token = bearer(c)
  if (!token) throw opts.linking ? errors.mustBeAuthenticated() : errors.invalidToken()
  const claims = await verifyAccessToken(ctx.signer, token, c.get('app').id)
  if (!claims || !(await sessionAlive(ctx.store, claims.sid, claims.sub))) throw errors.invalidToken()
  return { userId: claims.sub, sessionId: claims.sid }
}

/** The current user's id when a valid bearer belongs to a guest user (a login upgrades it). */
export async function currentGuest(c: C, ctx: ServerCtx): Promise<string | null> {
  const token = bearer(c)
  if (!token) return null
  const claims = await verifyAccessToken(ctx.signer, token, c.get('app').id)
  if (!claims) return null
  return (await isGuestSession(ctx.store, claims.sid, claims.sub)) ? claims.sub : null
}

// ------------------------------------------------------------------ the app's backend

/** Failed app-secret attempts per client IP and rate window (PORTICO_RATE_WINDOW_S) before answering 429. */
export const SECRET_FAILURES_PER_WINDOW = 20
export const APP_SECRET_MIN = 32

export const APP_SECRET_MSG = {
  noSecret: 'This app has no app secret (appSecret or appSecretEnv in its settings): delegated actions are off.',
  badSecret: 'Missing or invalid app secret.',
  fromBrowser: 'The app secret belongs on the app’s backend: requests from a browser are refused.',
} as const

/** The app's secret for backend calls (inline or from the environment), or null when it has none usable. */
export function appSecret(app: AppSettings, env: NodeJS.ProcessEnv = process.env): string | null {
  const a = app as AppSettings & { appSecret?: unknown; appSecretEnv?: unknown }
  const v = typeof a.appSecret === 'string' ? a.appSecret : typeof a.appSecretEnv === 'string' ? env[a.appSecretEnv] : undefined
  return typeof v === 'string' && v.length >= APP_SECRET_MIN ? v : null
}

/**
 * The SHA-256 of the app's secret: stored as `appSecretHash` (hex) for apps kept in the database
 * (the secret itself is never stored), else computed from the inline or environment secret.
 */
export function appSecretDigest(app: AppSettings, env: NodeJS.ProcessEnv = process.env): Buffer | null {
  const h = (app as AppSettings & { appSecretHash?: unknown }).appSecretHash
  if (typeof h === 'string' && /^[0-9a-f]{64}$/.test(h)) return Buffer.from(h, 'hex')
  const secret = appSecret(app, env)
  return secret ? createHash('sha256').update(secret).digest() : null
}

/** The host backend's credentials: Basic base64(appId:appSecret), for the app named by privy-app-id. */
export async function requireAppSecret(c: C, ctx: ServerCtx): Promise<AppSettings> {
  const app = c.get('app')
  if (c.req.header('origin') !== undefined) throw new ApiError(403, 'forbidden', APP_SECRET_MSG.fromBrowser)
  const expected = appSecretDigest(app)
  if (!expected) throw new ApiError(403, 'delegation_not_enabled', APP_SECRET_MSG.noSecret)
  const key = `appsecret:${app.id}:${clientIp(c, ctx.trustProxy)}`
  const t = now()
  const window = t - (t % Math.max(1, ctx.limits.windowS))
  if ((await secretFailures(ctx.store, key, window)) >= SECRET_FAILURES_PER_WINDOW) throw errors.tooMany()
  const h = c.req.header('authorization') ?? ''
  const m = /^basic\s+([A-Za-z0-9+/=]{1,512})\s*$/i.exec(h)
  const given = m ? Buffer.from(m[1], 'base64').toString('utf8') : ''
  const sep = given.indexOf(':')
  const digest = (s: string) => createHash('sha256').update(s).digest()
  const ok = sep > 0 && given.slice(0, sep) === app.id && timingSafeEqual(digest(given.slice(sep + 1)), expected)
  if (!ok) {
    await countSecretFailure(ctx.store, key, window)
    throw new ApiError(401, 'invalid_credentials', APP_SECRET_MSG.badSecret)
  }
  return app
}
