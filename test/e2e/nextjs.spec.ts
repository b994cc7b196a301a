/**
 * Consumer check (issue 27): a Next.js App Router app (examples/nextjs) built from the packed
 * tarball, outside the repository.
 *  - `next build` succeeds and prerenders '/' (server rendering of `<PorticoProvider>` in a
 *    client component touches no `window`);
 *  - `next start` serves the server-rendered HTML (the provider's loading state, the stylesheet);
 *  - in Chromium a user logs in by e-mail against the reference server (harness);
 *  - the route handler app/api/me verifies the access token with `portico/server` (the user
 *    id matches) and refuses a missing or forged token with 401.
 *
 * `next` comes from the repository's node_modules (a devDependency) or, before it is one, from
 * the folder of node_modules named by PORTICO_NEXT_MODULES (an isolated `npm install next`).
 * The tarball is built once per source state (test/consumer/pack.ts, .tmp/pack); `next build`
 * takes about a minute on two cores.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { installModules, packPortico, run } from '../consumer/pack'
import { LANDING_TITLE, until } from './page-scripts'
import { ROOT, startHarness, type Harness } from './harness'

const APP_ID = 'portico-test-nextjs-00001'

/** The node_modules folder holding `next`: the repository's, else PORTICO_NEXT_MODULES. */
function nextModules(): string | undefined {
  if (existsSync(join(ROOT, 'node_modules', 'next', 'package.json'))) return undefined
  const dir = process.env.PORTICO_NEXT_MODULES
  if (dir && existsSync(join(dir, 'next', 'package.json'))) return dir
  const declared = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies?.next
  if (declared) throw new Error(`next ${declared} is a devDependency but not installed: npm install`)
  return 'missing'
}
const extraModules = nextModules()

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

let h: Harness
let app: string
let port: number
let origin: string
let next: ChildProcess | undefined
let nextLog = ''
let build: { status: number | null; out: string }
let context: BrowserContext | undefined

const env = () => ({
  NEXT_TELEMETRY_DISABLED: '1',
  NODE_ENV: 'production',
  NEXT_PUBLIC_PORTICO_APP_ID: APP_ID,
  NEXT_PUBLIC_PORTICO_API_URL: h.apiUrl,
})
const nextBin = () => join(app, 'node_modules', 'next', 'dist', 'bin', 'next')

describe.skipIf(extraModules === 'missing')('examples/nextjs from the packed tarball', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const packed = await packPortico()
    port = await freePort()
    origin = `http://127.0.0.1:${port}`
    h = await startHarness({
      example: 'minimal',
      extraApps: [
        {
          id: APP_ID,
          name: 'Next.js Example',
          logoUrl: null,
          accentColor: '#5b4cdb',
          theme: 'light',
          loginMethods: ['email'],
          legal: { termsAndConditionsUrl: 'https://example.com/terms', privacyPolicyUrl: 'https://example.com/privacy', requireUsersAcceptTerms: false },
          allowedOrigins: [origin],
          embeddedWallets: { createOnLogin: 'off' },
        },
      ],
    })
    app = mkdtempSync(join(tmpdir(), 'portico-nextjs-'))
    cpSync(join(ROOT, 'examples', 'nextjs'), app, {
      recursive: true,
      filter: (src) => !/[/\\](node_modules|\.next|next-env\.d\.ts)$/.test(src),
    })
    // With PORTICO_NEXT_MODULES, its packages win: `next` requires react and react-dom from its
    // own folder, and the server bundles of its pages (/_error) from the app's node_modules;
    // two copies of React there fail the prerender ("reading 'useContext'").
    installModules(app, packed.tarball, [...(extraModules ? [extraModules] : []), join(ROOT, 'node_modules')])
    build = await run(process.execPath, [nextBin(), 'build'], app, env(), 240_000)
    if (build.status !== 0) return
    next = spawn(process.execPath, [nextBin(), 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '', ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    next.stdout!.on('data', (d) => (nextLog += d))
    next.stderr!.on('data', (d) => (nextLog += d))
    // Until it answers (or exits): a deadline, polled.
    const deadline = Date.now() + 60_000
    for (;;) {
      if (next.exitCode !== null) throw new Error(`next start exited (${next.exitCode}):\n${nextLog}`)
      const ok = await fetch(origin, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false)
      if (ok) break
      if (Date.now() > deadline) throw new Error(`next start did not answer in 60 s:\n${nextLog}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }, 600_000)

  afterAll(async () => {
    await context?.close().catch(() => {})
    if (next?.pid && next.exitCode === null) {
      const exited = new Promise((r) => next!.once('exit', r))
      try {
        process.kill(-next.pid, 'SIGTERM')
      } catch {
        /* gone */
      }
      await exited
    }
    await h?.close()
    if (app) rmSync(app, { recursive: true, force: true })
  }, 60_000)

  it('next build succeeds and prerenders the page; server rendering touches no window', () => {
    expect(build.status, build.out).toBe(0)
    expect(build.out).not.toMatch(/window is not defined|document is not defined|Error occurred prerendering|Export encountered errors/i)
    // '/' is static: prerendered at build time, with the provider's loading state.
    const html = readFileSync(join(app, '.next', 'server', 'app', 'index.html'), 'utf8')
    expect(html).toContain('Portico on Next.js')
    expect(html).toContain('Loading…')
    expect(html).not.toContain('portico-dialog')
  })

  it('next start serves the server-rendered page with the Portico stylesheet', async () => {
    const res = await fetch(origin)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<h1>Portico on Next.js</h1>')
    expect(html).toMatch(/<p data-testid="status">Loading…<\/p>/)
    const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+\.css)"/g)].map((m) => m[1])
    expect(css.length).toBeGreaterThan(0)
    const sheets = await Promise.all(css.map((href) => fetch(new URL(href, origin)).then((r) => r.text())))
    expect(sheets.join('\n')).toContain('.portico-')
    expect(nextLog).not.toMatch(/window is not defined|Error:/)
  })

  let page: Page
  const pageErrors: string[] = []
  let userId = ''
  let token = ''

  it('in Chromium a user logs in by e-mail against the reference server', async () => {
    context = await h.newContext()
    page = await context.newPage()
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text())
    })
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`))
    page.on('response', (r) => {
      if (r.status() >= 400) pageErrors.push(`${r.status()} ${r.url()}`)
    })
    await page.goto(origin)
    // Hydrated and ready: the kernel loaded the app's settings from the reference server.
    await page.waitForSelector('button:text-is("Log in")')
    expect(await page.textContent('[data-testid=status]')).toBe('logged out')
    await page.click('button:text-is("Log in")')
    await page.waitForSelector(LANDING_TITLE, { state: 'visible' })
    const email = `next-${Date.now().toString(36)}@example.com`
    const since = Date.now()
    await page.fill('input[type=email]', email)
    await page.press('input[type=email]', 'Enter')
    await page.waitForSelector('[role=dialog][data-screen=email-code] .portico-code-box')
    const code = await h.readOutboxCode(email, since)
    await page.click('.portico-code-box >> nth=0')
    await page.keyboard.type(code, { delay: 20 })
    await page.waitForSelector('[role=dialog]', { state: 'detached' })
    expect(await page.textContent('[data-testid=status]')).toBe('logged in')
    expect(await page.textContent('[data-testid=user]')).toBe(email)
    userId = (await page.textContent('[data-testid=user-id]')) ?? ''
    expect(userId).not.toBe('')
    await h.screenshot(page, 'nextjs-logged-in')
  })

  it('the route handler verifies the access token with portico/server', async () => {
    expect(userId, 'the login test passed').not.toBe('')
    const request = page.waitForRequest((r) => r.url() === `${origin}/api/me`)
    await page.click('button:text-is("Call /api/me")')
    token = ((await request).headers().authorization ?? '').replace(/^Bearer /, '')
    expect(token.split('.')).toHaveLength(3)
    await page.evaluate(until(`document.querySelector('[data-testid=me]').textContent !== ''`, 30_000, 'the /api/me answer'))
    expect(await page.textContent('[data-testid=me]')).toBe(userId)
    expect(pageErrors).toEqual([])
  })

  it('the route handler refuses a missing or forged token with 401', async () => {
    expect(token, 'the previous test passed').not.toBe('')
    const me = (authorization?: string) =>
      fetch(`${origin}/api/me`, { headers: authorization ? { authorization } : {} }).then(async (r) => ({ status: r.status, body: await r.json() }))
    expect(await me(`Bearer ${token}`)).toMatchObject({ status: 200, body: { id: userId } })
    expect(await me()).toEqual({ status: 401, body: { error: 'invalid_token' } })
    // Another user's id in the payload, the original signature.
    const [header, payload, signature] = token.split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: `${claims.sub}x` })).toString('base64url')
    expect(await me(`Bearer ${header}.${forged}.${signature}`)).toEqual({ status: 401, body: { error: 'invalid_signature' } })
    expect(await me('Bearer not-a-token')).toEqual({ status: 401, body: { error: 'invalid_token' } })
  })
})
