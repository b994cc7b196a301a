import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { DEMO, freePort, migratedPgliteDir } from './helpers'

const main = new URL('../src/main.ts', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'portico-restart-'))
/** A migrated data directory (a copy): the test is what survives kill -9, not the first migration. */
const dataDir = join(dir, 'data')
let child: ChildProcess | undefined
/** The output of the server started last, as it arrives. */
let serverLog = () => ''

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

async function start(port: number): Promise<ChildProcess> {
  const p = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PORTICO_DEV: '1', LOG_LEVEL: 'info', DATABASE_URL: '', PORTICO_FRAME_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  p.stdout!.on('data', (d) => (log += d))
  p.stderr!.on('data', (d) => (log += d))
  for (let i = 0; i < 1200; i++) {
    if (p.exitCode !== null) throw new Error(`server exited: ${log}`)
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`)
      if (r.ok) {
        serverLog = () => log
        return p
      }
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server did not start: ${log}`)
}

// Two server starts (tsx + PGlite on disk): 168 s on a 2-core machine at load 20, over half
// the old 300 s deadline. A deadline, not a wait.
it('survives kill -9: users, accounts and sessions persist in the PGlite data dir', { timeout: 600_000 }, async () => {
  await migratedPgliteDir(dataDir)
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const post = (path: string, body: unknown, token?: string) =>
    fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'privy-app-id': DEMO, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }))
  const code = async (to: string) => (await (await fetch(`${base}/dev/outbox?to=${encodeURIComponent(to)}`)).json())[0].code

  child = await start(port)
  // Development mode is explicit and says so at start-up.
  // The banner is logged in the listen callback: /health can answer before it reaches the pipe.
  await vi.waitFor(() => expect(serverLog()).toContain('DEVELOPMENT MODE'))
  await post('/api/v1/passwordless/init', { email: 'persist@example.com' })
  const login = await post('/api/v1/passwordless/authenticate', { email: 'persist@example.com', code: await code('persist@example.com') })
  expect(login.status).toBe(200)
  await post('/api/v1/passwordless_sms/init', { phoneNumber: '+14155550199' })
  const link = await post('/api/v1/passwordless_sms/link', { phoneNumber: '+14155550199', code: await code('+14155550199') }, login.body.token)
  expect(link.status).toBe(200)

  child.kill('SIGKILL')
  await new Promise((r) => child!.once('exit', r))

  child = await start(port)
  const me = await fetch(`${base}/api/v1/users/me`, { headers: { 'privy-app-id': DEMO, authorization: `Bearer ${login.body.token}` } })
  expect(me.status).toBe(200) // same signing key, same session
  const user = (await me.json()).user
  expect(user.id).toBe(login.body.user.id)
  expect(user.linked_accounts.map((a: { type: string }) => a.type).sort()).toEqual(['email', 'phone'])
  const refreshed = await post('/api/v1/sessions', { refresh_token: login.body.refresh_token })
  expect(refreshed.status).toBe(200)
  expect(refreshed.body.user.id).toBe(login.body.user.id)
  child.kill('SIGTERM')
  await new Promise((r) => child!.once('exit', r))
})
