import { createServer as httpServer, type IncomingMessage, type Server } from 'node:http'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createServer as netServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { serve } from '@hono/node-server'
import type { WireAuthResponse } from '../../../kernel/wire'
import { createServer, type ServerOptions } from '../src/app'
import { deriveKeys } from '../src/keys'
import { DEV_SECRET } from '../src/settings'
import type { Store } from '../src/core/store'
import { openPglite } from '../src/core/store/pglite'
import { openStore } from '../src/core/store'
import { MIGRATIONS_DIR, migrationNames } from '../src/core/store/migrate'
import { createHash, randomBytes } from 'node:crypto'
import { inject } from 'vitest'

/**
 * A migrated PGlite database of its own for a test server: a copy of the migrated template
 * (migratedPgliteDir) in a temporary folder, removed on close. 1.2 s of CPU instead of 7 s
 * for a new in-memory database and its migrations; queries run as fast.
 */
export async function openTestPglite(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'portico-pglite-'))
  const store = await openPglite(await migratedPgliteDir(join(dir, 'data')))
  const close = store.close
  store.close = async () => {
    await close()
    rmSync(dir, { recursive: true, force: true })
  }
  return store
}

let templateDir: string | undefined
/** .tmp/pglite-template-<hash of PGlite's version and the migration files>, named once per process. */
function pgliteTemplatePath(): string {
  if (templateDir) return templateDir
  const h = createHash('sha256')
  h.update(JSON.parse(readFileSync(new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')).version)
  for (const f of migrationNames()) h.update(f).update(readFileSync(join(MIGRATIONS_DIR, f)))
  return (templateDir = join(new URL('../../../.tmp/', import.meta.url).pathname, `pglite-template-${h.digest('hex').slice(0, 16)}`))
}

/**
 * A migrated PGlite data directory at `target` (which must not exist yet), for a server process
 * a test starts with DATA_DIR: a copy of one migrated once per state of the migrations and of
 * PGlite (.tmp/pglite-template-<hash>). A new PGlite directory costs about 7 s of initdb and
 * migrations on two cores; a copy, a moment. What a new data directory does at start-up is
 * `npm start`'s to show (test/e2e/demo-start.spec.ts) and migrate.test.ts's.
 */
export async function migratedPgliteDir(target: string): Promise<string> {
  const template = pgliteTemplatePath()
  const base = dirname(template)
  if (!existsSync(template)) {
    // Built beside, then renamed into place: two suites building at once both end with one whole template.
    mkdirSync(base, { recursive: true })
    const building = mkdtempSync(join(base, 'pglite-template-building-'))
    const store = await openStore({ dataDir: join(building, 'data') })
    await store.close()
    try {
      renameSync(join(building, 'data'), template)
    } catch (err) {
      if (!existsSync(template)) throw err
    }
    rmSync(building, { recursive: true, force: true })
  }
  cpSync(template, target, { recursive: true })
  return target
}

/** The migrated template database test/global-setup.ts creates in the run's PostgreSQL. */
export const TEMPLATE_DB = 'portico_template'

let copies = 0
/**
 * A fresh, migrated database for one suite: a copy of the run's migrated PostgreSQL template
 * when test/global-setup.ts made one (PostgreSQL installed; always in CI), else a PGlite.
 */
export async function openTestStore(): Promise<Store> {
  let adminUrl: string | null = null
  try {
    adminUrl = inject('pgTemplateAdminUrl') ?? null
  } catch {}
  if (!adminUrl) return openTestPglite()
  const name = `t_${process.pid}_${copies++}_${randomBytes(3).toString('hex')}`
  const pg = (await import('pg')).default
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`)
  } finally {
    await admin.end()
  }
  return openStore({ databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`), migrate: false })
}
import { findPostgres, isCI, machineProbe } from '../../../scripts/test-env.mjs'

/** The keys a development-mode server derives (no PORTICO_SECRET). */
export const devKeys = deriveKeys(DEV_SECRET)

export const DEMO = 'portico-demo-app-00000001'
export const TERMS = 'portico-test-terms-000001'
export const ALLOW = 'portico-test-allow-000001'
export const LIMIT = 'portico-test-limit-000001'
export const DEVMODE = 'portico-test-devmode-0001'
export const NOPLUS = 'portico-test-noplus-00001'
export const EMAILONLY = 'portico-test-emailonly-01'
export const ORIGIN = 'http://localhost:5173'
export const APPS_FILE = new URL('../apps.json', import.meta.url).pathname

export interface Res<T = any> {
  status: number
  /** The success shape, or a WireError on failure. */
  body: T & { code?: string; error?: string; data?: any }
  headers: Headers
}

export interface TestServer {
  url: string
  call<T = any>(
    path: string,
    opts?: { body?: unknown; raw?: string; token?: string | null; appId?: string | null; method?: string; headers?: Record<string, string> },
  ): Promise<Res<T>>
  code(to: string): Promise<string>
  emailLogin(email: string, opts?: { appId?: string; token?: string; mode?: string }): Promise<Res<WireAuthResponse>>
  smsLogin(phone: string, opts?: { appId?: string; token?: string }): Promise<Res<WireAuthResponse>>
  close(): Promise<void>
}

/** Providers that keep what they were asked to send (the server's real delivery path up to the provider). */
export function memoryProviders() {
  const sent: { channel: 'email' | 'sms'; to: string; text: string }[] = []
  return {
    sent,
    email: { name: 'memory', send: async (m: { to: string; text: string }) => void sent.push({ channel: 'email', to: m.to, text: m.text }) },
    sms: { name: 'memory', send: async (m: { to: string; body: string }) => void sent.push({ channel: 'sms', to: m.to, text: m.body }) },
  }
}

/** A recovery key of its own (production refuses to start without one, or with the secret's). */
export const PROD_RECOVERY_KEY = 'test-production-recovery-key-not-the-secret-26'

/** Production mode options for startTestServer: a secret, a recovery key and delivery providers. */
export function prodOptions(p = memoryProviders()): Partial<ServerOptions> {
  return { dev: false, secret: DEV_SECRET, email: p.email, sms: p.sms, wallets: { recoveryKey: PROD_RECOVERY_KEY } }
}

/** A real server on an ephemeral loopback port, built in-process from `store`. */
export async function startTestServer(store: Store, opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const app = await createServer({
    store,
    appsFile: APPS_FILE,
    dev: true,
    logCodes: false,
    logLevel: 'silent',
    ...opts,
    // Fixed windows a year long: no window boundary falls inside a test.
    limits: { perIp: 100_000, perIdentifier: 1000, resendCooldownS: 0, refreshReuseIntervalS: 0, windowS: 365 * 86400, codeTtlS: 365 * 86400, ...opts.limits },
  })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  const port = (server.address() as { port: number }).port
  const url = `http://127.0.0.1:${port}`
  const call: TestServer['call'] = async (path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.appId !== null) headers['privy-app-id'] = o.appId ?? DEMO
    if (o.token) headers.authorization = `Bearer ${o.token}`
    let body: string | undefined = o.raw
    if (o.body !== undefined) body = JSON.stringify(o.body)
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(url + path, { method: o.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body })
    const text = await res.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers }
  }
  const code = async (to: string) => {
    const r = await call(`/dev/outbox?to=${encodeURIComponent(to)}`, { appId: null })
    if (!r.body.length) throw new Error(`no code for ${to}`)
    return r.body[0].code as string
  }
  return {
    url,
    call,
    code,
    async emailLogin(email, o = {}) {
      const init = await call('/api/v1/passwordless/init', { body: { email }, appId: o.appId, token: o.token })
      if (init.status !== 200) return init
      return call('/api/v1/passwordless/authenticate', {
        body: { email, code: await code(email), ...(o.mode ? { mode: o.mode } : {}) },
        appId: o.appId,
        token: o.token,
      })
    },
    async smsLogin(phoneNumber, o = {}) {
      const init = await call('/api/v1/passwordless_sms/init', { body: { phoneNumber }, appId: o.appId, token: o.token })
      if (init.status !== 200) return init
      return call('/api/v1/passwordless_sms/authenticate', {
        body: { phoneNumber, code: await code(phoneNumber) },
        appId: o.appId,
        token: o.token,
      })
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

let n = 0
export const uniqueEmail = (tag = 'u') => `${tag}-${process.pid}-${Date.now().toString(36)}-${n++}@example.com`

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = netServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
    s.on('error', reject)
  })
}

// ------------------------------------------------------------ real PostgreSQL for tests

export interface TempPostgres {
  url: string
  stop(): Promise<void>
}

/**
 * Starts a throw-away PostgreSQL (initdb + postgres on a free port in a temp dir). initdb and
 * postgres refuse to run as root: as root they run as the `postgres` user through runuser.
 * Returns null (after a warning) only when no postgres binary exists; under CI=true that throws:
 * there the PostgreSQL suites must run (`npm test`'s set-up step says so at the start).
 */
export async function startPostgres(): Promise<TempPostgres | null> {
  const found = findPostgres(machineProbe())
  if (found.bin === null) {
    if (isCI(process.env)) throw new Error(`PostgreSQL suites: required in CI (CI=${process.env.CI}), but ${found.reason}. Install it: apt-get install postgresql`)
    console.warn(`[portico] PostgreSQL suites: skipped: ${found.reason} (apt-get install postgresql)`)
    return null
  }
  const bin = found.bin
  const isRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'portico-pg-'))
  const data = join(dir, 'data')
  const asPg = (cmd: string, args: string[]): [string, string[]] =>
    isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    chownSync(dir, uid, gid)
  }
  const [c1, a1] = asPg(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'])
  execFileSync(c1, a1, { stdio: 'pipe' })
  const port = await freePort()
  const [c2, a2] = asPg(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=400',
  ])
  const proc: ChildProcess = spawn(c2, a2, { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  proc.stderr!.on('data', (d) => (log += d))
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  const pg = (await import('pg')).default
  for (let i = 0; ; i++) {
    try {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.end()
      break
    } catch (err) {
      if (i > 600 || proc.exitCode !== null) throw new Error(`postgres did not start: ${log}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    url,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r))
        // Signal the postmaster itself (runuser does not forward signals): fast shutdown.
        try {
          const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
          process.kill(pid, 'SIGINT')
        } catch {
          proc.kill('SIGINT')
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (proc.exitCode === null) proc.kill('SIGKILL')
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

// ------------------------------------------------------------ server processes (scale, shutdown, bench)

export interface ServerProcess {
  base: string
  proc: ChildProcess
  /** Everything the process printed so far. */
  output(): string
  /** Resolves with the exit code (or signal) once the process has exited and its output is all read. */
  exited: Promise<number | string | null>
}

const MAIN = new URL('../src/main.ts', import.meta.url).pathname

/** Spawns `src/main.ts` on a free loopback port and waits until /health/ready answers 200. */
export async function startServerProcess(env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): Promise<ServerProcess> {
  const port = await freePort()
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', MAIN, ...args], {
    // The wallet frame's listener on a free port unless a test names one: its default (8788) is
    // `npm start`'s, which the browser phase's demo-start spec runs at the same time.
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', PORTICO_FRAME_PORT: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (out += d))
  // 'close', not 'exit': 'exit' can come before the last output has been read from the pipes.
  const exited = new Promise<number | string | null>((r) => proc.once('close', (code, signal) => r(code ?? signal)))
  const base = `http://127.0.0.1:${port}`
  // Bounded by time, not a count: a loaded shared machine may take long to start two processes.
  for (const until = Date.now() + 150_000; Date.now() < until; ) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited: ${out}`)
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return { base, proc, output: () => out, exited }
    } catch {}
    await new Promise((r) => setTimeout(r, 50))
  }
  proc.kill('SIGKILL')
  throw new Error(`server did not become ready: ${out}`)
}

/** Polls `check` every `stepMs` until it returns a truthy value (no fixed sleep); fails after `ms`. */
export async function until<T>(check: () => T | Promise<T>, ms = 15_000, stepMs = 20): Promise<NonNullable<T>> {
  const end = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v) return v as NonNullable<T>
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, stepMs))
  }
}

export interface ReceivedWebhook {
  path: string
  id: string
  headers: IncomingMessage['headers']
  body: string
}

/** A webhook receiver on a loopback port: keeps every request; `answers` decides each status per path (default 204). */
export function webhookReceiver() {
  const got: ReceivedWebhook[] = []
  const answers = new Map<string, (n: number) => number>()
  const server: Server = httpServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const path = req.url ?? '/'
      got.push({ path, id: String(req.headers['webhook-id']), headers: req.headers, body })
      const n = got.filter((g) => g.path === path).length
      res.statusCode = answers.get(path)?.(n) ?? 204
      res.end()
    })
  })
  return {
    got,
    answers,
    at: (path: string) => got.filter((g) => g.path === path),
    listen: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}`))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}
