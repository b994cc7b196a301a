import type { Context, Hono } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { AppSettings, AppsRegistry } from './config'
import type { Limits } from './codes'
import type { DeliverySettings } from './delivery'
import { errors } from './errors'
import { sessionAlive, type Deps } from './identity'
import { verifyAccessToken } from './tokens'

/** Everything a route group needs. */
export interface ServerCtx extends Deps {
  apps: AppsRegistry
  limits: Limits
  dev: boolean
  delivery: DeliverySettings
  trustProxy: boolean
}

export type Env = { Variables: { app: AppSettings } }
export type Api = Hono<Env>
export type C = Context<Env>

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = c.req.header('x-forwarded-for')
    if (xff) return xff.split(',')[0].trim()
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

export function bearer(c: Context): string | null {
  const h = c.req.header('authorization')
  if (!h) return null
  const m = /^Bearer\s+(.+)$/i.exec(h.trim())
  return m ? m[1].trim() : null
}

export interface Auth {
  userId: string
  sessionId: string
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
  const rows = await ctx.store.query(
    'SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND u.is_guest',
    [claims.sid, claims.sub],
  )
  return rows.length ? claims.sub : null
}
