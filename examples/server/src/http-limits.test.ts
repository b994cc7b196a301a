import { connect, type Socket } from 'node:net'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_HTTP_LIMITS, serveWithLimits, type HttpLimits } from './http-limits'
import { loadEnv } from './settings'

const servers: Server[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

async function start(limits: Partial<HttpLimits>, fetch: (r: Request) => Response | Promise<Response> = () => new Response('ok')): Promise<number> {
  const server = await new Promise<Server>((resolve) => {
    const s = serveWithLimits({ fetch, port: 0, hostname: '127.0.0.1', limits: { ...DEFAULT_HTTP_LIMITS, ...limits } }, () => resolve(s))
  })
  servers.push(server)
  return (server.address() as AddressInfo).port
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s))
    s.once('error', reject)
    sockets.push(s)
  })
}

/** Resolves with the ms from now to the socket's end (closed by the server) and what it received. */
function closed(s: Socket): Promise<{ ms: number; data: string }> {
  const t0 = Date.now()
  let data = ''
  s.on('data', (d) => (data += d))
  return new Promise((resolve) => s.once('close', () => resolve({ ms: Date.now() - t0, data })))
}

describe('slow clients', () => {
  it('closes a socket that trickles its headers once the headers time-out passes', async () => {
    const port = await start({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 })
    const s = await open(port)
    const end = closed(s)
    s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    // One header byte every 200 ms: never a complete request.
    const drip = setInterval(() => !s.destroyed && s.write('X'), 200)
    try {
      const { ms, data } = await end
      // Node answers 408 and closes; within the limit and its one-second check (plus a busy machine's slack).
      expect(ms).toBeLessThan(1000 + 1000 + 3000)
      expect(ms).toBeGreaterThanOrEqual(900)
      expect(data).toMatch(/^HTTP\/1\.1 408/)
    } finally {
      clearInterval(drip)
    }
  })

  it('closes a socket that trickles its body once the request time-out passes', async () => {
    const port = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1500 }, async (r) => new Response(`read ${(await r.text()).length}`))
    const s = await open(port)
    const end = closed(s)
    s.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n')
    const drip = setInterval(() => !s.destroyed && s.write('x'), 100)
    try {
      const { ms, data } = await end
      expect(ms).toBeGreaterThanOrEqual(1300)
      expect(ms).toBeLessThan(1500 + 1000 + 3000)
      // Never answered as if the body had arrived.
      expect(data).not.toContain('read ')
    } finally {
      clearInterval(drip)
    }
  })

  it('closes an idle keep-alive connection after the keep-alive time-out', async () => {
    const port = await start({ keepAliveTimeoutMs: 300 })
    const s = await open(port)
    const end = closed(s)
    s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const { ms, data } = await end
    expect(data).toMatch(/^HTTP\/1\.1 200/)
    expect(ms).toBeLessThan(300 + 3000)
  })

  it('refuses connections over the cap and serves again below it', async () => {
    const port = await start({ maxConnections: 2 })
    const a = await open(port)
    const b = await open(port)
    const c = await open(port)
    // The third connection is closed by the server without an answer.
    const third = await closed(c)
    expect(third.data).toBe('')
    // The first two still work.
    const ok = closed(a)
    a.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    expect((await ok).data).toMatch(/^HTTP\/1\.1 200/)
    b.destroy()
    // Once below the cap, new connections are served.
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/`).then((r) => r.status, () => 0)), { timeout: 5000 }).toBe(200)
  })
})

describe('limits from the environment', () => {
  it('has explicit defaults, not Node’s', () => {
    const env = loadEnv({}, true)
    expect([env.PORTICO_HEADERS_TIMEOUT_MS, env.PORTICO_REQUEST_TIMEOUT_MS, env.PORTICO_KEEP_ALIVE_TIMEOUT_MS, env.PORTICO_MAX_CONNECTIONS]).toEqual([10_000, 30_000, 5_000, 1000])
  })
  it('reads each limit from its variable', () => {
    const env = loadEnv({ PORTICO_HEADERS_TIMEOUT_MS: '2000', PORTICO_REQUEST_TIMEOUT_MS: '4000', PORTICO_KEEP_ALIVE_TIMEOUT_MS: '1000', PORTICO_MAX_CONNECTIONS: '50' }, true)
    expect([env.PORTICO_HEADERS_TIMEOUT_MS, env.PORTICO_REQUEST_TIMEOUT_MS, env.PORTICO_KEEP_ALIVE_TIMEOUT_MS, env.PORTICO_MAX_CONNECTIONS]).toEqual([2000, 4000, 1000, 50])
  })
})
