/**
 * Load run: complete e-mail logins from concurrent clients against real server processes:
 * PGlite, one process on PostgreSQL, two processes on one PostgreSQL (requests alternate
 * between them). Loopback only, bounded. Prints logins/s, p50/p95 per login, CPU per login
 * and each server's resident memory at idle (before the run) and after. Exits 1 on any error.
 *
 * BENCH_MODE=production (the default) runs the servers as a self-hoster does: production
 * mode, codes sent by SMTP (nodemailer) to a sink in this process, which reads each code from
 * the mail; a login is init + authenticate. BENCH_MODE=dev runs them in development mode: the
 * code is read from /dev/outbox (init, outbox, authenticate).
 *
 *   npm run bench:server        (LOGINS=1000 CLIENTS=16 WARMUP=300 to change the load)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { Agent, createServer as httpServer, request } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPostgres, startServerProcess, type ServerProcess } from '../test/helpers'

const LOGINS = Number(process.env.LOGINS ?? 1000)
const CLIENTS = Number(process.env.CLIENTS ?? 16)
/** Enough logins for V8 to optimise the hot paths: the figures are of a warm server. */
const WARMUP = Number(process.env.WARMUP ?? 300)
const MODE = process.env.BENCH_MODE === 'dev' ? 'dev' : 'production'
const ONE_IP = process.env.BENCH_ONE_IP === '1'
const APP = 'portico-demo-app-00000001'
/** Extra node flags for the server processes, e.g. BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)

/**
 * The SMTP sink: every code the servers mail, by recipient. A login waits here for its code
 * (production mode). The SMS webhook only answers 200 (production needs a provider for the
 * demo app's SMS logins; the bench sends none).
 */
const mailed = new Map<string, string>()
const waiting = new Map<string, (code: string) => void>()
/**
 * A minimal SMTP responder (greeting, EHLO, MAIL, RCPT, DATA, RSET, QUIT; every answer
 * written at once): it stands for a relay on the local network. smtp-server took about
 * 100 ms to accept each message here, which capped the run at the pool's 5 connections.
 */
const smtp = createNetServer((socket) => {
  socket.setNoDelay(true)
  let buf = ''
  let data = false
  let rcpt: string[] = []
  socket.write('220 bench-sink ESMTP\r\n')
  socket.on('error', () => {})
  socket.on('data', (d: Buffer) => {
    buf += d.toString('latin1')
    for (;;) {
      if (data) {
        const end = buf.indexOf('\r\n.\r\n')
        if (end < 0) return
        const code = /login code is (\d{6})/.exec(buf.slice(0, end))?.[1]
        buf = buf.slice(end + 5)
        data = false
        for (const to of rcpt) {
          const w = waiting.get(to)
          if (code && w) {
            waiting.delete(to)
            w(code)
          } else if (code) mailed.set(to, code)
        }
        rcpt = []
        socket.write('250 OK\r\n')
        continue
      }
      const i = buf.indexOf('\r\n')
      if (i < 0) return
      const line = buf.slice(0, i)
      buf = buf.slice(i + 2)
      const verb = line.slice(0, 4).toUpperCase()
      if (verb === 'EHLO' || verb === 'HELO') socket.write('250-bench-sink\r\n250 PIPELINING\r\n')
      else if (verb === 'RCPT') {
        rcpt.push((/<([^>]*)>/.exec(line)?.[1] ?? '').toLowerCase())
        socket.write('250 OK\r\n')
      } else if (verb === 'DATA') {
        data = true
        socket.write('354 End data with <CR><LF>.<CR><LF>\r\n')
      } else if (verb === 'QUIT') return void socket.end('221 Bye\r\n')
      else socket.write('250 OK\r\n')
    }
  })
})
const codeMailedTo = (to: string) =>
  new Promise<string>((resolve) => {
    const c = mailed.get(to)
    if (c) {
      mailed.delete(to)
      resolve(c)
    } else waiting.set(to, resolve)
  })
const smsHook = httpServer((_q, s) => s.writeHead(200).end())
if (MODE === 'production') {
  smtp.listen(0, '127.0.0.1')
  smsHook.listen(0, '127.0.0.1')
  await Promise.all([once(smtp, 'listening'), once(smsHook, 'listening')])
}

/**
 * BENCH_WEBHOOKS=1 (issue 32): the bench app gets a webhook endpoint subscribed to
 * user.authenticated, pointing to a receiver in this process (any 2xx; ids counted), so every
 * login is also one signed delivery. Compare with the same run without it.
 */
const WEBHOOKS = process.env.BENCH_WEBHOOKS === '1'
const hookIds = new Set<string>()
const hookRx = httpServer((q, s) => {
  hookIds.add(String(q.headers['webhook-id']))
  q.resume()
  q.on('end', () => s.writeHead(204).end())
})
const hookEnv: Record<string, string> = {}
if (WEBHOOKS) {
  hookRx.listen(0, '127.0.0.1')
  await once(hookRx, 'listening')
  const apps = JSON.parse(readFileSync(new URL('../apps.json', import.meta.url), 'utf8'))
  apps.apps.find((a: { id: string }) => a.id === APP).webhooks = [
    { url: `http://127.0.0.1:${(hookRx.address() as { port: number }).port}/hook`, events: ['user.authenticated'], secret: `whsec_${Buffer.alloc(32, 5).toString('base64')}` },
  ]
  const file = join(mkdtempSync(join(tmpdir(), 'portico-bench-apps-')), 'apps.json')
  writeFileSync(file, JSON.stringify(apps))
  hookEnv.APPS_FILE = file
  // The receiver is on loopback: allowed explicitly (production mode sends to public addresses only).
  hookEnv.PORTICO_WEBHOOKS_ALLOW_PRIVATE = '1'
}

const env = {
  ...hookEnv,
  ...(MODE === 'production'
    ? {
        PORTICO_DEV: '0',
        SMTP_URL: `smtp://127.0.0.1:${(smtp.address() as { port: number } | null)?.port}${process.env.BENCH_SMTP_QUERY ?? ""}`,
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: `http://127.0.0.1:${(smsHook.address() as { port: number } | null)?.port}/sms`,
      }
    : { PORTICO_DEV: '1' }),
  PORTICO_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
  PORTICO_RECOVERY_KEY: 'bench-recovery-key-0123456789abcdef0123456789',
  // Each login comes from its own address (X-Forwarded-For, one trusted proxy hop), as users
  // do; BENCH_ONE_IP=1 sends every login from 127.0.0.1, where all inits queue on that
  // address's counter row (a single NAT doing hundreds of logins a second).
  TRUST_PROXY: ONE_IP ? '0' : '1',
  PORTICO_RATE_PER_IP: '100000000',
  PORTICO_RATE_PER_IDENTIFIER: '1000',
  LOG_LEVEL: 'warn',
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Math.round(Number(m[1]) / 1024) : NaN
}

/** CPU seconds (user + system) a process has used so far. */
const cpuS = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(f[11]) + Number(f[12])) / 100
}

/** CPU seconds of the PostgreSQL cluster on `port`: its postmaster and every child (backends). */
function pgCpuS(port: string): number {
  const stat = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    } catch {
      return null
    }
  }
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  const master = pids.find((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      return cmd[0].endsWith('/postgres') && cmd.includes('-p') && cmd[cmd.indexOf('-p') + 1] === port
    } catch {
      return false
    }
  })
  if (!master) return NaN
  let total = 0
  for (const pid of pids) {
    const f = stat(pid)
    if (!f) continue
    if (pid === master) total += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])
    else if (f[1] === master) total += Number(f[11]) + Number(f[12])
  }
  return total / 100
}

/**
 * The load client: node:http on keep-alive connections (one per client and server). It shares
 * the machine's two cores with the servers and the database, so it must be cheap: fetch
 * (undici) cost about 5 ms of CPU per login here, more than the API server itself.
 */
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
function call(url: string, body?: unknown, from?: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      url,
      {
        agent,
        method: data === undefined ? 'GET' : 'POST',
        headers: { 'privy-app-id': APP, ...(from ? { 'x-forwarded-for': from } : {}), ...(data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          if (res.statusCode !== 200) reject(new Error(`${url} ${res.statusCode} ${text}`))
          else resolve(JSON.parse(text))
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

/** CPU milliseconds (user + system) this bench process has used so far. */
const ownCpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

async function run(label: string, bases: string[], count: number, quiet = false) {
  let rr = 0
  const base = () => bases[rr++ % bases.length]
  const post = (path: string, body: unknown, from?: string) => call(base() + path, body, from)
  const tag = `${label.replace(/\W/g, "")}-${Date.now().toString(36)}-${count}`
  const latencies: number[] = []
  const errors: string[] = []
  let next = 0
  const t0 = performance.now()
  const own0 = ownCpuMs()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        const i = next++
        const email = `bench-${tag}-${i}@example.com`
        const from = ONE_IP ? undefined : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
        const t = performance.now()
        try {
          let code: string
          if (MODE === 'production') {
            const mail = codeMailedTo(email)
            await post('/api/v1/passwordless/init', { email }, from)
            code = await mail
          } else {
            await post('/api/v1/passwordless/init', { email }, from)
            code = (await call(`${base()}/dev/outbox?to=${encodeURIComponent(email)}`))[0].code
          }
          const res = await post('/api/v1/passwordless/authenticate', { email, code }, from)
          if (!res.token || !res.refresh_token) throw new Error('no tokens')
          latencies.push(performance.now() - t)
        } catch (err) {
          errors.push(String((err as Error).message))
        }
      }
    }),
  )
  const secs = (performance.now() - t0) / 1000
  const own = ownCpuMs() - own0
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN
  if (!quiet) {
    console.log(
      `${label.padEnd(14)} ${latencies.length}/${count} logins, ${CLIENTS} clients, ${errors.length} errors: ` +
        `${(latencies.length / secs).toFixed(0)} logins/s, p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${pct(100).toFixed(0)} ms; ` +
        `bench client${MODE === 'production' ? ' and SMTP sink' : ''} CPU ${(own / count).toFixed(1)} ms per login`,
    )
  }
  if (errors.length) console.error(errors.slice(0, 5))
  return errors.length
}

async function measure(label: string, procs: ServerProcess[], pgPort?: string) {
  hookIds.clear()
  const idle = procs.map((p) => rssMb(p.proc.pid!))
  let failures = await run(label, procs.map((p) => p.base), WARMUP, true)
  const cpu0 = procs.reduce((n, p) => n + cpuS(p.proc.pid!), 0)
  const db0 = pgPort ? pgCpuS(pgPort) : 0
  failures += await run(label, procs.map((p) => p.base), LOGINS)
  const cpu = procs.reduce((n, p) => n + cpuS(p.proc.pid!), 0) - cpu0
  const db = pgPort ? pgCpuS(pgPort) - db0 : 0
  const after = procs.map((p) => rssMb(p.proc.pid!))
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0]
  console.log(
    `${''.padEnd(14)} CPU per login: API ${((cpu / LOGINS) * 1000).toFixed(1)} ms` +
      (pgPort ? `, PostgreSQL ${((db / LOGINS) * 1000).toFixed(1)} ms` : '') +
      '; ' +
      `RSS per process: idle ${idle.join(' + ')} MB, after ${after.join(' + ')} MB; load average ${load}`,
  )
  if (WEBHOOKS) {
    // Every login's user.authenticated arrives (the worker runs off the request path, so some land after the last login).
    const want = WARMUP + LOGINS - failures
    const t = performance.now()
    while (hookIds.size < want && performance.now() - t < 30_000) await new Promise((r) => setTimeout(r, 20))
    console.log(`${''.padEnd(14)} webhooks: ${hookIds.size}/${want} user.authenticated deliveries received, the last ${(performance.now() - t).toFixed(0)} ms after the last login`)
    if (hookIds.size < want) failures++
  }
  return failures
}

async function stop(procs: ServerProcess[]) {
  for (const p of procs) p.proc.kill('SIGTERM')
  await Promise.all(procs.map((p) => p.exited))
}

/** BENCH_ONLY=pglite or postgres: run one back end. */
const only = process.env.BENCH_ONLY
console.log(
  (WEBHOOKS ? 'webhooks: on (user.authenticated to a local receiver); ' : '') +
  `mode: ${MODE === 'production' ? 'production (codes by SMTP to a local sink)' : 'development (codes from /dev/outbox)'}; ` +
    `${ONE_IP ? 'every login from 127.0.0.1' : 'each login from its own address (X-Forwarded-For)'}`,
)
let failures = 0
const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-'))
try {
  if (only !== 'postgres') {
  const lite = await startServerProcess({ ...env, DATA_DIR: dataDir }, [], NODE_ARGS)
  try {
    failures += await measure('pglite', [lite])
  } finally {
    await stop([lite])
  }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}

const pg = only === 'pglite' ? null : await startPostgres()
if (pg) {
  try {
    const one = await startServerProcess({ ...env, DATABASE_URL: pg.url }, [], NODE_ARGS)
    try {
      failures += await measure('postgres x1', [one], new URL(pg.url).port)
    } finally {
      await stop([one])
    }
    const two = await Promise.all([0, 1].map(() => startServerProcess({ ...env, DATABASE_URL: pg.url }, [], NODE_ARGS)))
    try {
      failures += await measure('postgres x2', two, new URL(pg.url).port)
    } finally {
      await stop(two)
    }
  } finally {
    await pg.stop()
  }
}
smtp.close()
smsHook.close()
hookRx.close()
process.exit(failures ? 1 : 0)
