/**
 * The browser-test harness, shared by every `test/e2e/*.spec.ts`.
 *
 * - the reference server in-process (examples/server `createServer`, in-memory PGlite, dev
 *   mode: /dev/outbox), its apps from examples/server/apps.json plus `extraApps`, each
 *   allowing the static server's origin;
 * - a PRODUCTION build of examples/app (vite build, cached in .tmp/e2e-app, rebuilt when a
 *   source file changes) served by a small static server that sends
 *   `Content-Security-Policy: default-src 'self'; connect-src 'self' http://127.0.0.1:<apiPort>`;
 * - a Chromium or Chrome installed on the machine through playwright-core (never a downloaded
 *   browser): `chromiumPath()`, found like `npm test`'s set-up step does (scripts/test-env.mjs);
 *   in `npm test`'s browser phase one for the whole run, which `launchBrowser()` connects to;
 * - every page opens with `reducedMotion: 'reduce'` (styles.css then drops the dialog's
 *   transform animation) and the scripts of ./page-scripts.ts: an in-page modal-open timer
 *   and a `__name` no-op for functions serialised from tsx-transpiled code;
 * - `startHarness({ example: 'minimal' })` serves examples/minimal instead (the bench).
 *
 * ```ts
 * const h = await startHarness()
 * const page = await h.openPage({ app: 'portico-test-terms-000001', layout: 'groups' })
 * await h.openModal(page)
 * const code = await h.readOutboxCode('ana@example.com')
 * await h.screenshot(page, 'terms-consent')
 * await h.close()
 * ```
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { DIALOG_SETTLED, LANDING_TITLE, LAST_OPEN, PAGE_INIT_SCRIPT, until } from './page-scripts'
import { browserPath } from '../../scripts/test-env.mjs'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const ARTIFACTS = join(ROOT, 'test', 'artifacts')

/** The example apps the harness can build and serve. */
export type ExampleName = 'app' | 'minimal'
const EXAMPLES: Record<ExampleName, { sources: string[]; login: string; ready: string }> = {
  app: {
    sources: ['examples/app', 'examples/custom-plugin/src'],
    login: '[data-testid=login]',
    ready: `(() => { const s = document.querySelector('[data-testid=status]')?.textContent; return !!s && s !== 'loading' })()`,
  },
  minimal: {
    sources: ['examples/minimal'],
    login: '#root button:text-is("Log in")',
    ready: `!!document.querySelector('#root button')`,
  },
}

/**
 * The browser every spec launches: CHROMIUM_PATH, Debian's chromium, or a Chrome or Chromium on
 * PATH or the usual places of Linux and macOS. Throws `npm test`'s set-up message when none.
 */
export const chromiumPath = (): string => browserPath()

/**
 * Serves a fetch handler (a local stand-in) on an ephemeral loopback port; its close is pushed
 * on `closers`. Resolves with its http://127.0.0.1:<port> once it listens.
 */
export async function listenLocal(fetch: (r: Request) => Response | Promise<Response>, closers: (() => void)[]): Promise<string> {
  const { serve } = await import('@hono/node-server')
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closers.push(() => server.close())
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The browser's switches wherever it runs (tests, the bench, the demo checks). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * The switches of a test browser: CHROMIUM_ARGS and `--disable-site-isolation-trials`, so
 * cross-site frames (the wallet frame, the export and consent pages, OAuth and cross-app
 * popups) share their page's renderer process instead of starting one each: about 9 % off the
 * wall time of the wallet specs on two cores. What the suite checks is the web platform's rules
 * (same-origin policy, postMessage origin and source, CSP, storage partitioning, Storage
 * Access), which a renderer enforces the same in or out of its own process; process isolation
 * itself (a Spectre defence) is the browser's, and no test of ours can observe it. `npm run
 * bench` measures with site isolation on, as users' browsers run (PORTICO_SITE_ISOLATION=1).
 */
export function chromiumArgs(): string[] {
  return process.env.PORTICO_SITE_ISOLATION === '1' ? [...CHROMIUM_ARGS] : [...CHROMIUM_ARGS, '--disable-site-isolation-trials']
}

/**
 * The run's Chromium with chromiumArgs(): under the e2e config (`npm test`, vitest.e2e.config.ts)
 * test/e2e/global-setup.ts launches one browser server for the whole run and this connects to
 * it (a few ms instead of a browser start per spec file); elsewhere (one spec run with the
 * default config, the bench under tsx) it launches a browser of its own. Either way each caller
 * gets its own connection: its `close()` closes the contexts it made and nothing else.
 */
export async function launchBrowser(): Promise<Browser> {
  // A child process of the run (the bench smoke under tsx) is handed the endpoint in its environment.
  let ws: string | null = process.env.PORTICO_E2E_BROWSER_WS || null
  if (!ws) {
    try {
      const { inject } = await import('vitest')
      ws = inject('e2eBrowserWsEndpoint') ?? null
    } catch {
      /* not under vitest, or no shared browser in this run */
    }
  }
  if (ws) {
    try {
      return await chromium.connect(ws)
    } catch {
      /* the shared browser is gone: fall back to one of our own */
    }
  }
  return chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs() })
}

/** App ids in examples/server/apps.json. */
export const APPS = {
  demo: 'portico-demo-app-00000001',
  terms: 'portico-test-terms-000001',
  allowlist: 'portico-test-allow-000001',
  userLimit: 'portico-test-limit-000001',
  devMode: 'portico-test-devmode-0001',
  noPlus: 'portico-test-noplus-00001',
  emailOnly: 'portico-test-emailonly-01',
} as const

export interface HarnessOptions {
  /** More apps (AppSettings of examples/server) for this spec file; a function gets the app's origin (http://127.0.0.1:<port>). */
  extraApps?: Record<string, unknown>[] | ((appOrigin: string) => Record<string, unknown>[])
  /** Server code limits, e.g. `{ resendCooldownMs: 0 }` (see examples/server/src/codes.ts). */
  limits?: Record<string, unknown>
  /** The example app to build and serve. Default 'app' (all plugins); 'minimal' is e-mail only. */
  example?: ExampleName
  /** More options of the reference server's createServer (e.g. `farcaster: { rpcUrl, idRegistry }`). */
  server?: Record<string, unknown>
  /** Start the wallet frame's own listener (embedded wallets; `harness.frameUrl`); the app page may frame it. */
  walletFrame?: boolean
  /**
   * The wallet frame's host name (default 127.0.0.1). 'localhost': the frame is served as
   * http://localhost:<port> and calls the API as http://localhost:<port> too, so a page opened
   * with `{ host: 'localhost' }` (and `api: harness.localApiUrl`) is on one site with both.
   */
  frameHost?: '127.0.0.1' | 'localhost'
  /** More sources for the app page's CSP (e.g. a local chain's RPC in `connectSrc`). */
  csp?: { connectSrc?: string[]; frameSrc?: string[] }
  /** Shorthand for `csp.connectSrc`. */
  connectSrc?: string[]
  /** The API server's port (default: any free one), for app settings that name the API's own URL before it starts. */
  apiPort?: number
}

export interface OpenPageOptions {
  viewport?: { width: number; height: number }
  /** Skip the page's CSP (axe injection). Default false. */
  bypassCSP?: boolean
  /** Wait until the kernel is ready (status is not 'loading'). Default true. */
  waitReady?: boolean
  /** Default 'reduce': no opening animation, so geometry is final at once. */
  reducedMotion?: 'reduce' | 'no-preference'
  /** Open the app at http://localhost:<port> instead of 127.0.0.1 (WebAuthn needs a domain, not an IP). */
  host?: '127.0.0.1' | 'localhost'
}

export interface Harness {
  /** http://127.0.0.1:<port> of the API server (append /api/v1, /dev/outbox). */
  apiUrl: string
  /** http://127.0.0.1:<port> of the wallet frame listener (with `walletFrame: true`; http://localhost:<port> with `frameHost: 'localhost'`). */
  frameUrl?: string
  /** The API as http://localhost:<port> (the same server as `apiUrl`). */
  localApiUrl: string
  /** http://127.0.0.1:<port> of the static server with the built demo app. */
  appUrl: string
  browser: Browser
  /** The API server's database (e.g. for a webhook worker beside it, as main.ts runs one). */
  store: import('../../examples/server/src/core/store').Store
  /** The CSP header the static server sends. */
  csp: string
  /** Open the demo app with URL settings (see examples/app/src/settings.ts); `api` is added. */
  openPage(query?: Record<string, string> | string, options?: OpenPageOptions): Promise<Page>
  /** Console errors, page errors and CSP violations seen on a page opened by `openPage`. */
  consoleErrors(page: Page): string[]
  /**
   * Click 'Log in', wait for the landing and for the dialog to settle (no running animation,
   * box unchanged between two frames). Returns ms from the click to the landing heading in the
   * DOM, measured in the page (./page-scripts.ts OPEN_TIMER).
   */
  openModal(page: Page): Promise<number>
  /** The same, with both in-page figures: click to heading in the DOM, and to the next frame. */
  openModalTimed(page: Page): Promise<{ dom: number; frame: number }>
  /** Wait until the example app's kernel is ready (what openPage does unless waitReady is false). */
  waitReady(page: Page): Promise<void>
  /** Wait until the dialog has no running (finite) animation and a stable box. */
  waitForDialogSettled(page: Page): Promise<void>
  /** A browser context with the harness's settings and page scripts (for pages not opened by openPage). */
  newContext(options?: Pick<OpenPageOptions, 'viewport' | 'bypassCSP' | 'reducedMotion'>): Promise<BrowserContext>
  /** The newest code sent to an address or phone number, after `since` (ms epoch). Polls up to 10 s. */
  readOutboxCode(to: string, since?: number): Promise<string>
  /**
   * Log in through the modal by e-mail: open it, submit the address, wait for the code boxes
   * and type the newest code from the dev outbox. Returns once the code is typed; what follows
   * (wallet creation, the dialog closing) is for the test to wait for.
   */
  enterEmailCode(page: Page, email: string): Promise<void>
  /** Create a user through the API (e-mail code flow), e.g. to fill an app's user limit. */
  loginViaApi(appId: string, email: string): Promise<{ status: number; body: any }>
  /** Save test/artifacts/<name>.png (git-ignored). */
  screenshot(page: Page, name: string): Promise<string>
  /** Run axe-core on the page; returns serious and critical violations. */
  axe(page: Page, context?: string): Promise<AxeViolation[]>
  close(): Promise<void>
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: string[]
}

// ---------------------------------------------------------------------------------------------
// Build (once, cached)

/** Part of the stamp: change it when the build's settings change, so no older build is reused. */
const BUILD_SETTINGS = 'vite build, NODE_ENV=production'

function sourceStamp(example: ExampleName): string {
  const h = createHash('sha1')
  const walk = (dir: string) => {
    if (!existsSync(dir)) return
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
      const p = join(dir, name)
      const st = statSync(p)
      if (st.isDirectory()) walk(p)
      else if (/\.(tsx?|css|html|json|svg|png)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name)) h.update(`${p}:${st.size}:${st.mtimeMs}`)
    }
  }
  h.update(BUILD_SETTINGS)
  for (const d of ['kernel', 'ui', 'kits', 'plugins', ...EXAMPLES[example].sources]) walk(join(ROOT, d))
  return h.digest('hex')
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Build examples/app for production (see buildExample). */
/**
 * Click what closes its own page (a popup's last button) and wait until the page has closed.
 * The listener is set before the click: the page may close before the click returns, and a
 * 'close' listener added after that would wait forever.
 */
export async function clickThenClosed(page: Page, target: Locator): Promise<void> {
  const closed = page.isClosed() ? Promise.resolve() : page.waitForEvent('close').then(() => undefined)
  await target.click().catch((e: unknown) => {
    if (!page.isClosed()) throw e
  })
  await closed
}

export function buildDemoApp(): Promise<string> {
  return buildExample('app')
}

/**
 * Build examples/<name> for production into .tmp/e2e-<name>/<source stamp>/ unless that build
 * exists. Each stamp gets its own folder, so a rebuild (someone edited a source meanwhile)
 * never empties a folder another test file is serving; folders older than an hour go.
 */
export async function buildExample(example: ExampleName): Promise<string> {
  const BUILD_DIR = join(ROOT, '.tmp', `e2e-${example}`)
  const LOCK_DIR = join(ROOT, '.tmp', `e2e-${example}.lock`)
  const stamp = sourceStamp(example).slice(0, 16)
  const out = join(BUILD_DIR, stamp)
  const doneFile = join(out, '.done')
  if (existsSync(doneFile)) return out
  mkdirSync(BUILD_DIR, { recursive: true })
  const lock = `${LOCK_DIR}-${stamp}`
  // One builder per stamp across test workers; the others wait for its marker.
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (existsSync(doneFile)) return out
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true })
      } catch {
        /* gone meanwhile */
      }
      if (i > 600) throw new Error(`Timed out waiting for another worker to build examples/${example}`)
      await sleep(250)
    }
  }
  try {
    if (existsSync(doneFile)) return out
    const { build } = await import('vite')
    // Vite keeps a NODE_ENV it finds set, and vitest sets it to 'test': React's development
    // build (and jsxDEV) would be bundled, and the bench would time it. Production, always.
    const env = process.env.NODE_ENV
    process.env.NODE_ENV = 'production'
    try {
      await build({
        configFile: join(ROOT, `examples/${example}/vite.config.ts`),
        mode: 'production',
        logLevel: 'warn',
        build: { outDir: out, emptyOutDir: true, sourcemap: false },
      })
    } finally {
      if (env === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = env
    }
    const dev = readdirSync(join(out, 'assets')).filter((f) => f.endsWith('.js') && readFileSync(join(out, 'assets', f), 'utf8').includes('jsxDEV'))
    if (dev.length) throw new Error(`examples/${example} was built with React's development runtime (${dev[0]} has jsxDEV); the harness serves production builds only.`)
    writeFileSync(doneFile, new Date().toISOString())
    for (const name of readdirSync(BUILD_DIR)) {
      const p = join(BUILD_DIR, name)
      if (name !== stamp && Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { recursive: true, force: true })
    }
    return out
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------------------------------------
// Servers

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

function staticServer(dir: string, csp: () => string): Server {
  return createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    let file = normalize(join(dir, decodeURIComponent(url.pathname)))
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end()
      return
    }
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html')
    if (!existsSync(file)) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp(),
      'cache-control': 'no-store',
    })
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res)
  })
}

async function apiServer(appOrigins: string[], options: HarnessOptions) {
  const { createServer } = await import('../../examples/server/src/app')
  const { openTestStore } = await import('../../examples/server/test/helpers')
  const { serve } = await import('@hono/node-server')
  const file = JSON.parse(readFileSync(join(ROOT, 'examples/server/apps.json'), 'utf8')) as { apps: Record<string, unknown>[] }
  // A spec's extra apps (or a function of the app's origin) replace the apps.json app with the
  // same id (the server refuses duplicates). Every app allows the app's origin and its
  // http://localhost twin (WebAuthn needs a domain; cross-app needs a second origin).
  const extra = typeof options.extraApps === 'function' ? options.extraApps(appOrigins[0]) : (options.extraApps ?? [])
  const apps = [...file.apps.filter((a) => !extra.some((e) => e.id === a.id)), ...extra].map((a) => ({
    ...a,
    allowedOrigins: [...((a.allowedOrigins as string[] | undefined) ?? []), ...appOrigins],
  }))
  const store = await openTestStore()
  let frameOrigin: string | undefined
  const wallets = options.walletFrame ? { wallets: { frameOrigin: () => frameOrigin } } : {}
  const app = await createServer({ ...options.server, ...wallets, store, apps: apps as never, dev: true, logCodes: false, limits: options.limits as never })
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: options.apiPort ?? 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server
  })
  const port = (server.address() as AddressInfo).port
  let frame: Server | undefined
  if (options.walletFrame) {
    // The wallet frame on its own origin (examples/server/src/frame-server.ts), for the same apps.
    const { createFrameServer } = await import('../../examples/server/src/frame-server')
    const { appsFrom } = await import('../../examples/server/src/config')
    const host = options.frameHost ?? '127.0.0.1'
    const frameApp = createFrameServer({ apps: appsFrom(apps as never), apiUrl: `http://${host}:${port}` })
    frame = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: frameApp.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as unknown as Server)) as unknown as Server
    })
    frameOrigin = `http://${host}:${(frame.address() as AddressInfo).port}`
  }
  return { server, port, store, frame, frameOrigin }
}

// ---------------------------------------------------------------------------------------------

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const example = EXAMPLES[options.example ?? 'app']
  const dir = await buildExample(options.example ?? 'app')
  let apiPort = 0
  let frameOrigin: string | undefined
  const extra = (list: (string | undefined)[] = []) => list.filter(Boolean).map((x) => ` ${x}`).join('')
  const csp = () =>
    `default-src 'self'; connect-src 'self' http://127.0.0.1:${apiPort}${options.frameHost === 'localhost' ? ` http://localhost:${apiPort}` : ''}${extra([...(options.csp?.connectSrc ?? []), ...(options.connectSrc ?? [])])}` +
    (frameOrigin || options.csp?.frameSrc?.length ? `; frame-src${extra([frameOrigin, ...(options.csp?.frameSrc ?? [])])}` : '')
  const web = staticServer(dir, csp)
  const webPort = await listen(web)
  const appUrl = `http://127.0.0.1:${webPort}`
  const api = await apiServer([appUrl, `http://localhost:${webPort}`], options)
  apiPort = api.port
  frameOrigin = api.frameOrigin
  const apiUrl = `http://127.0.0.1:${apiPort}`
  const browser = await launchBrowser()
  const contexts = new Set<BrowserContext>()
  const errors = new WeakMap<Page, string[]>()
  mkdirSync(ARTIFACTS, { recursive: true })

  const harness: Harness = {
    apiUrl,
    localApiUrl: `http://localhost:${apiPort}`,
    frameUrl: frameOrigin,
    appUrl,
    browser,
    store: api.store,
    get csp() {
      return csp()
    },
    async newContext(opts = {}) {
      const context = await browser.newContext({
        viewport: opts.viewport ?? { width: 1280, height: 800 },
        bypassCSP: opts.bypassCSP ?? false,
        reducedMotion: opts.reducedMotion ?? 'reduce',
      })
      await context.addInitScript(PAGE_INIT_SCRIPT)
      contexts.add(context)
      context.once('close', () => contexts.delete(context))
      return context
    },
    async openPage(query = {}, opts = {}) {
      const context = await harness.newContext(opts)
      const page = await context.newPage()
      const seen: string[] = []
      errors.set(page, seen)
      page.on('console', (m) => {
        if (m.type() === 'error') seen.push(m.text())
      })
      page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`))
      const q = new URLSearchParams(typeof query === 'string' ? query : query)
      if (!q.has('api')) q.set('api', apiUrl)
      await page.goto(`${opts.host === 'localhost' ? `http://localhost:${webPort}` : appUrl}/?${q}`)
      if (opts.waitReady !== false) {
        await harness.waitReady(page)
      }
      return page
    },
    consoleErrors: (page) => errors.get(page) ?? [],
    async openModal(page) {
      return Math.round((await harness.openModalTimed(page)).dom * 10) / 10
    },
    async openModalTimed(page) {
      // Pages from contexts of their own (not newContext/openPage) get the timer now; it is
      // idempotent where addInitScript installed it already.
      await page.evaluate(PAGE_INIT_SCRIPT)
      const before = ((await page.evaluate(LAST_OPEN)) as { count: number } | null)?.count ?? 0
      await page.click(example.login)
      await page.waitForSelector(LANDING_TITLE, { state: 'visible' })
      const t = (await page.evaluate(
        until(`(function () { var o = ${LAST_OPEN}; return o && o.count > ${before} ? o : null })()`, 30_000, 'the in-page open timer'),
      )) as { dom: number; frame: number }
      await harness.waitForDialogSettled(page)
      return { dom: t.dom, frame: t.frame }
    },
    async waitReady(page) {
      await page.evaluate(until(example.ready, 30_000, 'the app to be ready'))
    },
    async waitForDialogSettled(page) {
      await page.evaluate(until(DIALOG_SETTLED, 30_000, 'the dialog to settle'))
    },
    async readOutboxCode(to, since = 0) {
      const deadline = Date.now() + 10_000
      for (;;) {
        const res = await fetch(`${apiUrl}/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { accept: 'application/json' } })
        const list = (await res.json()) as { to: string; code: string; sent_at: number }[]
        const hit = list.find((e) => e.sent_at * 1000 >= since - 1000)
        if (hit) return hit.code
        if (Date.now() > deadline) throw new Error(`No code for ${to} in the dev outbox`)
        await sleep(150)
      }
    },
    async enterEmailCode(page, email) {
      await harness.openModal(page)
      const since = Date.now()
      await page.fill('input[type=email]', email)
      await page.press('input[type=email]', 'Enter')
      await page.waitForSelector('[role=dialog][data-screen=email-code] .portico-code-box')
      const code = await harness.readOutboxCode(email, since)
      await page.click('.portico-code-box >> nth=0')
      await page.keyboard.type(code, { delay: 20 })
    },
    async loginViaApi(appId, email) {
      const post = (path: string, body: unknown) =>
        fetch(`${apiUrl}/api/v1${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'privy-app-id': appId },
          body: JSON.stringify(body),
        })
      const since = Date.now()
      const init = await post('/passwordless/init', { email })
      if (!init.ok) return { status: init.status, body: await init.json() }
      const code = await harness.readOutboxCode(email, since)
      const res = await post('/passwordless/authenticate', { email, code, mode: 'login-or-sign-up' })
      return { status: res.status, body: await res.json() }
    },
    async screenshot(page, name) {
      const path = join(ARTIFACTS, `${name}.png`)
      await page.screenshot({ path })
      return path
    },
    async axe(page, context = '.portico-root') {
      await page.addScriptTag({ path: join(ROOT, 'node_modules/axe-core/axe.min.js') })
      const violations = await page.evaluate(async (ctx) => {
        const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: any[] }> } }).axe
        const r = await axe.run(document.querySelector(ctx) ? ctx : document, { resultTypes: ['violations'] })
        return r.violations.map((v) => ({
          id: v.id as string,
          impact: v.impact as string | null,
          help: v.help as string,
          nodes: (v.nodes as { target: string[] }[]).map((n) => n.target.join(' ')),
        }))
      }, context)
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {})
      await browser.close().catch(() => {})
      await new Promise((r) => web.close(r))
      await new Promise((r) => api.server.close(r))
      if (api.frame) {
        ;(api.frame as Server & { closeAllConnections?: () => void }).closeAllConnections?.()
        await new Promise((r) => api.frame!.close(r))
      }
      await api.store.close().catch(() => {})
    },
  }
  return harness
}
