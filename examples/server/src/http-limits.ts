/**
 * Limits for slow or greedy clients, instead of Node's defaults (under which a socket that
 * trickles its headers is held about 69 s: a 60 s headers time-out checked every 30 s).
 *
 * | variable | default | what |
 * |---|---|---|
 * | PORTICO_HEADERS_TIMEOUT_MS | 10000 | time to receive the complete request headers |
 * | PORTICO_REQUEST_TIMEOUT_MS | 30000 | time to receive the whole request (headers and body) |
 * | PORTICO_KEEP_ALIVE_TIMEOUT_MS | 5000 | how long an idle keep-alive connection stays open |
 * | PORTICO_MAX_CONNECTIONS | 1000 | open connections per listener; further ones are closed at once |
 *
 * The time-outs are checked every second (or more often when a limit is shorter), so a slow
 * client is closed within a second of its limit. Both listeners (API and wallet frame) use them.
 */
import type { Server, ServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'

export interface HttpLimits {
  headersTimeoutMs: number
  requestTimeoutMs: number
  keepAliveTimeoutMs: number
  maxConnections: number
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 1000 }

/** Options for `http.createServer` (through @hono/node-server's `serverOptions`). */
export function httpServerOptions(l: HttpLimits): ServerOptions {
  // Node requires headersTimeout <= requestTimeout (when the latter is on).
  const requestTimeout = Math.max(l.requestTimeoutMs, l.headersTimeoutMs)
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(l.headersTimeoutMs / 4))),
  }
}

/** What cannot be passed at creation: the connection cap (and the keep-alive time-out again, for servers built elsewhere). */
export function applyHttpLimits<S extends Server>(server: S, l: HttpLimits): S {
  server.maxConnections = l.maxConnections
  server.keepAliveTimeout = l.keepAliveTimeoutMs
  return server
}

/** Listen with the limits: the API and the wallet frame listeners of main.ts. */
export function serveWithLimits(
  opts: { fetch: (req: Request) => Response | Promise<Response>; port: number; hostname: string; limits: HttpLimits },
  onListen?: (info: AddressInfo) => void,
): Server {
  const server = serve({ fetch: opts.fetch, port: opts.port, hostname: opts.hostname, serverOptions: httpServerOptions(opts.limits) }, onListen) as Server
  return applyHttpLimits(server, opts.limits)
}
