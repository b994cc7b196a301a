import { isIP } from 'node:net'
import type { Context, Hono } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Logger } from 'pino'
import type { AppSettings, AppsRegistry } from './config'
import type { Limits } from './codes'
import type { Delivery } from './delivery'
import type { Routes } from './openapi'
import type { FarcasterOptions } from './routes/farcaster'
import { errors } from './errors'
import { sessionAlive, type Deps } from './identity'
import { verifyAccessToken } from './tokens'

/** Everything a route group needs. */
export interface ServerCtx extends Deps {
  apps: AppsRegistry
  limits: Limits
  dev: boolean
  delivery: Delivery
  /** Reverse proxies in front of the server (0: X-Forwarded-For is ignored). */
  trustProxy: number
  log: Logger
  routes: Routes
  /** JSON-RPC URL per EVM chain id (smart-contract SIWE signatures). */
  rpcUrls: Record<number, string>
  /** Sign In With Farcaster: Optimism RPC, IdRegistry, relay key, connect URI base. */
  farcaster: FarcasterOptions
}

export type Env = { Variables: { app: AppSettings; requestId: string } }
export type Api = Hono<Env>
export type C = Context<Env>

/**
 * The client's IP. Behind `trustProxy` proxies, each appends the address it saw to
 * X-Forwarded-For, so the client is the entry `trustProxy` places from the right (the
 * left-most entries are whatever the client sent). Anything that is not an IP falls back to
 * the socket's address.
 */
export function clientIp(c: Context, trustProxy: number): string {
  let remote = 'unknown'
  try {
    remote = getConnInfo(c).remote.address ?? 'unknown'
  } catch {}
  if (trustProxy > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    const ip = hops.length >= trustProxy ? hops[hops.length - trustProxy] : undefined
    if (ip && isIP(ip)) return ip
  }
  return remote
}

export function bearer(c: Context): string | null {
  const h = c.req.header('authorization')
  if (!h) return null
  const v = h.trim()
  if (v.length < 8 || v.slice(0, 7).toLowerCase() !== 'bearer ') return null
  const token = v.slice(7).trim()
  return token || null
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
