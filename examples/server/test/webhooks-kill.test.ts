/**
 * Webhooks survive kill -9 (issue 32): a real server process on a PGlite data directory, a
 * receiver in this file that deduplicates on `webhook-id` as the README tells receivers to.
 *
 * 1. The event is committed and the process dies before it sends: a first process runs with
 *    its worker off (PORTICO_WEBHOOKS_WORKER=0, so nothing can be sent), a login commits,
 *    kill -9; the restarted process delivers it, once.
 * 2. The process dies while it sends: the receiver holds the request open, kill -9; after the
 *    lease (3 × PORTICO_WEBHOOK_TIMEOUT_MS) the next process sends the same message again, and
 *    the receiver, which saw that id, processes it once.
 */
import { createServer as httpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { verifyWebhook } from '../../../server/index'
import { DEMO, APPS_FILE, migratedPgliteDir, startServerProcess, type ServerProcess, until as waitUntil } from './helpers'
import { readFileSync } from 'node:fs'

const dir = mkdtempSync(join(tmpdir(), 'portico-webhooks-kill-'))
const dataDir = join(dir, 'data')
const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
let proc: ServerProcess | undefined
const held: ServerResponse[] = []

/** Every request; `processed`: each message id once (the receiver's deduplication). */
const requests: { id: string; body: string }[] = []
const processed = new Map<string, string>()
let hold = false
const rx = httpServer((req: IncomingMessage, res) => {
  let body = ''
  req.on('data', (d) => (body += d))
  req.on('end', () => {
    const id = String(req.headers['webhook-id'])
    requests.push({ id, body })
    const event = verifyWebhook(body, req.headers, secret)
    if (!processed.has(id)) processed.set(id, event.type === 'user.created' ? event.data.user_id : '')
    if (hold) return void held.push(res)
    res.statusCode = 200
    res.end()
  })
})

afterAll(async () => {
  if (proc && proc.proc.exitCode === null) proc.proc.kill('SIGKILL')
  for (const r of held) r.destroy()
  await new Promise<void>((r) => rx.close(() => r()))
  rmSync(dir, { recursive: true, force: true })
})

const until = <T>(check: () => T | Promise<T>, ms = 60_000) => waitUntil(check, ms, 50)

async function kill(p: ServerProcess) {
  p.proc.kill('SIGKILL')
  expect(await p.exited).toBe('SIGKILL')
}

it('a committed event is delivered once after kill -9, before or during its send', { timeout: 600_000 }, async () => {
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()))
  const url = `http://127.0.0.1:${(rx.address() as { port: number }).port}/hook`
  const apps = JSON.parse(readFileSync(APPS_FILE, 'utf8'))
  apps.apps.find((a: { id: string }) => a.id === DEMO).webhooks = [{ url, events: ['user.created'], secret }]
  const appsFile = join(dir, 'apps.json')
  writeFileSync(appsFile, JSON.stringify(apps))
  await migratedPgliteDir(dataDir)
  const env = { DATA_DIR: dataDir, APPS_FILE: appsFile, PORTICO_DEV: '1', PORTICO_WEBHOOK_TIMEOUT_MS: '1000', PORTICO_WEBHOOK_POLL_MS: '200' }

  const login = async (base: string, email: string) => {
    const call = (path: string, body: unknown) =>
      fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', 'privy-app-id': DEMO }, body: JSON.stringify(body) })
    expect((await call('/api/v1/passwordless/init', { email })).status).toBe(200)
    const code = (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(email)}`)).json())[0].code
    const r = await call('/api/v1/passwordless/authenticate', { email, code })
    expect(r.status).toBe(200)
    return ((await r.json()) as { user: { id: string } }).user.id
  }

  // 1. Committed, never sent (no worker in this process), kill -9.
  proc = await startServerProcess({ ...env, PORTICO_WEBHOOKS_WORKER: '0' })
  const first = await login(proc.base, `kill-a-${process.pid}@example.com`)
  await kill(proc)
  expect(requests).toEqual([])

  // The restarted process sends it.
  proc = await startServerProcess(env)
  await until(() => [...processed.values()].includes(first))
  expect(requests.filter((r) => processed.get(r.id) === first).length).toBe(1)

  // 2. Sent, unanswered (the receiver holds it), kill -9 mid-send.
  hold = true
  const second = await login(proc.base, `kill-b-${process.pid}@example.com`)
  await until(() => [...processed.values()].includes(second))
  await kill(proc)
  hold = false
  const secondId = [...processed].find(([, u]) => u === second)![0]

  // The next process sends it again after the lease; the receiver has it already.
  proc = await startServerProcess(env)
  await until(() => requests.filter((r) => r.id === secondId).length === 2)
  expect([...processed.values()].sort()).toEqual([first, second].sort())
  expect(requests.map((r) => r.id).filter((id) => id !== secondId).length).toBe(1)
  await kill(proc)
  proc = undefined
})
