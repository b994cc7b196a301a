/**
 * The scale-out path: two server processes on one PostgreSQL behind a round-robin proxy on
 * loopback. Logins alternate between them; the resend cooldown, code attempts and refresh
 * reuse detection hold across both; one process killed (-9) mid-burst loses no
 * acknowledged write. And graceful shutdown: SIGTERM lets an in-flight request finish.
 */
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { request as httpRequest, createServer as httpServer, Agent, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import { DEMO, startPostgres, startServerProcess, uniqueEmail, type ServerProcess, type TempPostgres } from './helpers'

const db: TempPostgres | null = await startPostgres()
// Under CI=true a missing server throws there (helpers.ts): a failure, not a skip.

const SECRET = 'scale-test-secret-0123456789abcdef0123456789'
let a: ServerProcess
let b: ServerProcess
let proxy: { url: string; hits: number[]; close(): Promise<void> }

/** Round-robin reverse proxy: appends the client's address to X-Forwarded-For, tags answers with x-upstream. */
async function roundRobin(backends: string[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 })
  const hits = backends.map(() => 0)
  let next = 0
  const server: Server = httpServer((req, res) => {
    const i = next++ % backends.length
    const target = new URL(req.url!, backends[i])
    const xff = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ')
    const up = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host, 'x-forwarded-for': xff }, agent }, (r) => {
      hits[i]++
      res.writeHead(r.statusCode!, { ...r.headers, 'x-upstream': String(i) })
      r.pipe(res)
    })
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json', 'x-upstream': String(i) })
      res.end('{"code":"bad_gateway","error":"upstream unavailable"}')
    })
    req.pipe(up)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
        agent.destroy()
      }),
  }
}

async function call(base: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'privy-app-id': DEMO,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let json: any = text
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: res.status, body: json, upstream: res.headers.get('x-upstream') }
}

async function login(base: string, email: string) {
  const init = await call(base, '/api/v1/passwordless/init', { email })
  if (init.status !== 200) return { ...init, steps: [init.upstream] }
  const outbox = await call(base, `/dev/outbox?to=${encodeURIComponent(email)}`)
  if (outbox.status !== 200 || !outbox.body.length) return { ...outbox, status: outbox.status === 200 ? 599 : outbox.status, steps: [] }
  const auth = await call(base, '/api/v1/passwordless/authenticate', { email, code: outbox.body[0].code })
  return { ...auth, steps: [init.upstream, outbox.upstream, auth.upstream] }
}

const env = () => ({
  DATABASE_URL: db!.url,
  PORTICO_DEV: '1',
  PORTICO_SECRET: SECRET,
  TRUST_PROXY: '1',
  PORTICO_RESEND_COOLDOWN_S: '30',
  PORTICO_RATE_PER_IP: '1000000',
  PORTICO_RATE_PER_IDENTIFIER: '100',
  PORTICO_CODE_MAX_ATTEMPTS: '5',
  // Fixed windows a year long: no window boundary falls inside a test.
  PORTICO_RATE_WINDOW_S: '31536000',
  PORTICO_CODE_TTL_S: '31536000',
  PORTICO_REFRESH_REUSE_INTERVAL_S: '10',
})

describe.skipIf(!db)('two server processes on one PostgreSQL', () => {
  beforeAll(async () => {
    // Migrations serialise on an advisory lock: both may start at once.
    ;[a, b] = await Promise.all([startServerProcess(env()), startServerProcess(env())])
    proxy = await roundRobin([a.base, b.base])
  }, 180_000)
  afterAll(async () => {
    await proxy?.close()
    for (const p of [a, b]) if (p && p.proc.exitCode === null) p.proc.kill('SIGKILL')
    await db?.stop()
  })

  it('logins alternate between the processes and work end to end', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await login(proxy.url, uniqueEmail('rr'))
      expect(r.status).toBe(200)
      // init, outbox and authenticate went to alternating processes.
      expect(r.steps[0]).not.toBe(r.steps[1])
      expect(r.steps[1]).not.toBe(r.steps[2])
      // The access token of one process is good on the other.
      const me = await Promise.all([a.base, b.base].map((base) => call(base, '/api/v1/users/me', undefined, r.body.token)))
      expect(me.map((m) => m.status)).toEqual([200, 200])
    }
  })

  it('the resend cooldown and the code attempts hold across both', async () => {
    const email = uniqueEmail('limits')
    const first = await call(proxy.url, '/api/v1/passwordless/init', { email })
    const second = await call(proxy.url, '/api/v1/passwordless/init', { email })
    expect([first.status, second.status]).toEqual([200, 429])
    expect(first.upstream).not.toBe(second.upstream)
    const code = (await call(proxy.url, `/dev/outbox?to=${encodeURIComponent(email)}`)).body[0].code
    const wrong = code === '000000' ? '111111' : '000000'
    const upstreams = new Set<string | null>()
    for (let i = 0; i < 5; i++) {
      const r = await call(proxy.url, '/api/v1/passwordless/authenticate', { email, code: wrong })
      expect(r.status).toBe(401)
      upstreams.add(r.upstream)
    }
    expect(upstreams.size).toBe(2)
    expect((await call(proxy.url, '/api/v1/passwordless/authenticate', { email, code })).status).toBe(401)
  })

  it('concurrent inits and concurrent authenticates on both: one code sent, one login', async () => {
    const email = uniqueEmail('race')
    const inits = await Promise.all(Array.from({ length: 6 }, (_, i) => call(i % 2 ? a.base : b.base, '/api/v1/passwordless/init', { email })))
    expect(inits.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429, 429])
    const code = (await call(a.base, `/dev/outbox?to=${encodeURIComponent(email)}`)).body[0].code
    const auths = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(i % 2 ? a.base : b.base, '/api/v1/passwordless/authenticate', { email, code })),
    )
    expect(auths.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401])
  })

  it('refresh: concurrent refreshes on both get the same pair; later reuse revokes the family on both', async () => {
    const r = await login(proxy.url, uniqueEmail('refresh'))
    const rt = r.body.refresh_token
    const [x, y] = await Promise.all([a.base, b.base].map((base) => call(base, '/api/v1/sessions', { refresh_token: rt })))
    expect([x.status, y.status]).toEqual([200, 200])
    expect(x.body.refresh_token).toBe(y.body.refresh_token)
    const next = await call(a.base, '/api/v1/sessions', { refresh_token: x.body.refresh_token })
    expect(next.status).toBe(200)
    const reuse = await call(b.base, '/api/v1/sessions', { refresh_token: rt })
    expect(reuse.status).toBe(401)
    expect((await call(a.base, '/api/v1/sessions', { refresh_token: next.body.refresh_token })).status).toBe(401)
    expect((await call(b.base, '/api/v1/users/me', undefined, next.body.token)).status).toBe(401)
  })

  it('one process killed mid-burst loses no acknowledged login', { timeout: 180_000 }, async () => {
    const LOGINS = 40
    const acked: { email: string; userId: string; refresh: string }[] = []
    let failed = 0
    let killed = false
    let n = 0
    const tag = Date.now().toString(36)
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (n < LOGINS) {
          const email = `burst-${tag}-${n++}@example.com`
          const r = await login(proxy.url, email)
          if (r.status === 200) acked.push({ email, userId: r.body.user.id, refresh: r.body.refresh_token })
          else failed++
          if (acked.length >= 8 && !killed) {
            killed = true
            b.proc.kill('SIGKILL')
          }
        }
      }),
    )
    await b.exited
    expect(killed).toBe(true)
    expect(failed).toBeGreaterThan(0) // the kill did land mid-burst
    expect(acked.length).toBeGreaterThan(8)
    const client = new pg.Client({ connectionString: db!.url })
    await client.connect()
    try {
      const rows = await client.query('SELECT identifier, user_id FROM accounts WHERE identifier = ANY($1::text[])', [acked.map((x) => x.email)])
      const byEmail = new Map(rows.rows.map((r) => [r.identifier, r.user_id]))
      for (const x of acked) expect(byEmail.get(x.email)).toBe(x.userId)
    } finally {
      await client.end()
    }
    // And the survivor serves every acknowledged session.
    for (const x of acked.slice(0, 5)) expect((await call(a.base, '/api/v1/sessions', { refresh_token: x.refresh })).status).toBe(200)
  })

  it('the migrate command applies nothing more on a migrated database and exits 0', () => {
    const main = new URL('../src/main.ts', import.meta.url).pathname
    const out = execFileSync(process.execPath, ['--import', 'tsx', main, 'migrate'], {
      env: { ...process.env, ...env(), LOG_LEVEL: 'info' },
      encoding: 'utf8',
    })
    expect(JSON.parse(out.trim().split('\n').pop()!)).toMatchObject({ msg: 'database is up to date', applied: [] })
  })

  it('graceful shutdown: SIGTERM lets the in-flight request finish, then the process exits 0', { timeout: 180_000 }, async () => {
    // A real SMTP server that holds the message until released: the init request is in flight.
    let release!: () => void
    const released = new Promise<void>((r) => (release = r))
    let arrived!: () => void
    const inHandler = new Promise<void>((r) => (arrived = r))
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, done) {
        stream.resume()
        stream.on('end', () => {
          arrived()
          released.then(() => done())
        })
      },
    })
    smtp.listen(0, '127.0.0.1')
    if (!smtp.server.listening) await once(smtp.server, 'listening')
    const smtpPort = (smtp.server.address() as { port: number }).port
    const hook = httpServer((_q, s) => s.writeHead(200).end()).listen(0, '127.0.0.1')
    await once(hook, 'listening')
    const c = await startServerProcess({
      ...env(),
      PORTICO_DEV: '0',
      PORTICO_RECOVERY_KEY: 'scale-test-recovery-key-not-the-secret-0026',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: `http://127.0.0.1:${(hook.address() as { port: number }).port}/sms`,
      LOG_LEVEL: 'info',
    })
    try {
      // The banner is logged in the listen callback: /health/ready can answer before it is read.
      await vi.waitFor(() => expect(c.output()).toContain('portico server listening'))
      expect(c.output()).not.toContain('DEVELOPMENT MODE')
      const pending = call(c.base, '/api/v1/passwordless/init', { email: uniqueEmail('drain') })
      await inHandler
      c.proc.kill('SIGTERM')
      // Wait for the process to log that it is draining before letting the request finish.
      while (!c.output().includes('draining')) await new Promise((r) => setTimeout(r, 20))
      release()
      const r = await pending
      expect(r.status).toBe(200)
      expect(await c.exited).toBe(0)
      // JSON log lines with the request's route, never the address or the code.
      expect(c.output()).toContain('"msg":"stopped"')
      expect(c.output()).not.toMatch(/drain-.*@example\.com/)
    } finally {
      if (c.proc.exitCode === null) c.proc.kill('SIGKILL')
      await new Promise<void>((r) => smtp.close(() => r()))
      hook.close()
    }
  })
})
