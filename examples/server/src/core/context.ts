import { isIP } from 'node:net'
import type { Context, Hono } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Logger } from 'pino'
import type { AppSettings, AppsRegistry } from '../config'
import type { Limits } from '../codes'
import type { Delivery } from '../delivery'
import type { OpenApi } from './openapi'
import type { Deps } from './identity'
import { verifyAccessToken } from './identity/tokens'

/** Everything a route group needs. */
export interface ServerCtx extends Deps {
  apps: AppsRegistry
  limits: Limits
  dev: boolean
  delivery: Delivery
  /** Reverse proxies in front of the server (0: X-Forwarded-For is ignored). */
  trustProxy: number
  log: Logger
  /** The OpenAPI document the routes declare themselves into (core/router.ts). */
  openapi: OpenApi
  /** JSON-RPC URL per EVM chain id (smart-contract SIWE signatures). */
  rpcUrls: Record<number, string>
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
