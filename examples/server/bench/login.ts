/**
 * Load run: 200 complete e-mail logins (init, read the dev outbox, authenticate) from 20
 * concurrent clients against a real server process, on PGlite and on PostgreSQL (a
 * throw-away cluster started here). Loopback only. Prints logins/s and latency; exits 1 on
 * any error.   npm run bench:server   (LOGINS=200 CLIENTS=20 to change the load)
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startPostgres } from '../test/helpers'

const LOGINS = Number(process.env.LOGINS ?? 200)
const CLIENTS = Number(process.env.CLIENTS ?? 20)
const APP = 'portico-demo-app-00000001'
const main = new URL('../src/main.ts', import.meta.url).pathname

async function startServer(env: Record<string, string>): Promise<{ base: string; proc: ChildProcess }> {
  const port = await freePort()
  const proc = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PORTICO_DEV: '1', LOG_LEVEL: 'warn',
      PORTICO_RATE_PER_IP: '1000000',
      PORTICO_RATE_PER_IDENTIFIER: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error('server exited')
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, proc }
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not start')
}

async function run(label: string, base: string) {
  const headers = { 'content-type': 'application/json', 'privy-app-id': APP }
  const post = async (path: string, body: unknown) => {
    const r = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })
    if (!r.ok) throw new Error(`${path} ${r.status} ${await r.text()}`)
    return r.json()
  }
  const tag = Date.now().toString(36)
  const latencies: number[] = []
  const errors: string[] = []
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < LOGINS) {
        const i = next++
        const email = `bench-${tag}-${i}@example.com`
        const t = performance.now()
        try {
          await post('/api/v1/passwordless/init', { email })
          const outbox = await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(email)}`)).json()
          const res = await post('/api/v1/passwordless/authenticate', { email, code: outbox[0].code })
          if (!res.token || !res.refresh_token) throw new Error('no tokens')
          latencies.push(performance.now() - t)
        } catch (err) {
          errors.push(String((err as Error).message))
        }
      }
    }),
  )
  const secs = (performance.now() - t0) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN
  console.log(
    `${label.padEnd(10)} ${latencies.length}/${LOGINS} logins, ${CLIENTS} clients, ${errors.length} errors: ` +
      `${(latencies.length / secs).toFixed(1)} logins/s, p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${pct(100).toFixed(0)} ms`,
  )
  if (errors.length) console.error(errors.slice(0, 5))
  return errors.length
}

let failures = 0
const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-'))
try {
  const lite = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' })
  try {
    failures += await run('pglite', lite.base)
  } finally {
    lite.proc.kill('SIGTERM')
  }
} finally {
  setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 500)
}

const pg = await startPostgres()
if (pg) {
  try {
    const srv = await startServer({ DATABASE_URL: pg.url })
    try {
      failures += await run('postgres', srv.base)
    } finally {
      srv.proc.kill('SIGTERM')
      await new Promise((r) => srv.proc.once('exit', r))
    }
  } finally {
    await pg.stop()
  }
}
process.exit(failures ? 1 : 0)
