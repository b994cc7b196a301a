/**
 * A page of the wallet frame's origin (the export page, the delegation consent page): its HTML
 * (the app's settings and the page's checked query as inline JSON config), its script (bundled
 * once by esbuild) and its stylesheet. Its CSP: nothing but its own script and stylesheet,
 * requests to the API only, embeddable only by the app's allowed origins. The URL carries no
 * secret (the access token comes by postMessage); every query value is checked and the page
 * refuses anything else.
 */
import { readFileSync } from 'node:fs'
import type { Hono } from 'hono'
import type { AppSettings, AppsRegistry } from './config'

/** esbuild's options for the frame origin's scripts (in memory, for the browser). */
export const BROWSER_BUILD = {
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  logLevel: 'silent',
} as const

/** A script's ETag: the first 16 characters of its base64url SHA-256. */
export const etagOf = (createHash: typeof import('node:crypto').createHash, code: string) => `"${createHash('sha256').update(code).digest('base64url').slice(0, 16)}"`

/**
 * A page of the frame's origin bundles its script once (esbuild, on first request); a failed build
 * is tried again on the next request.
 */
export function pageBundler(entry: string): (minify?: boolean) => Promise<{ code: string; etag: string }> {
  let bundle: Promise<{ code: string; etag: string }> | null = null
  return (minify = true) => {
    bundle ??= (async () => {
      const { build } = await import('esbuild')
      const { createHash } = await import('node:crypto')
      const out = await build({ ...BROWSER_BUILD, entryPoints: [entry], minify })
      const code = out.outputFiles[0].text
      return { code, etag: etagOf(createHash, code) }
    })()
    bundle.catch(() => {
      bundle = null
    })
    return bundle
  }
}

export const escapeJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
export const originOf = (u: string) => new URL(u).origin

/** The API's origin a page's config carries: '' when the page is served by the API server itself (relative /api/v1 calls). */
export const apiOriginOf = (apiUrl: string | null) => (apiUrl ? originOf(apiUrl) : '')
/** CSP source for the API: its origin, or 'self' when the page is served by the API server itself. */
export const apiSource = (apiUrl: string | null) => (apiUrl ? originOf(apiUrl) : "'self'")

export function exportCsp(apiUrl: string | null, allowedOrigins: string[]): string {
  const ancestors = allowedOrigins.length ? allowedOrigins.map((o) => o.replace(/[;,\s]/g, '')).join(' ') : "'none'"
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${apiSource(apiUrl)}`,
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}

const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** The theme and colour parameters every frame page takes, or the name of the first bad one. */
export function themeQuery(q: (k: string) => string | undefined): { ok: true; value: { theme: 'light' | 'dark'; colors: Record<string, string> } } | { ok: false; param: string } {
  const theme = q('theme') ?? 'light'
  if (theme !== 'light' && theme !== 'dark') return { ok: false, param: 'theme' }
  const colors: Record<string, string> = {}
  for (const [param, key] of [['accent_color', 'accent'], ['background_color', 'background'], ['foreground_color', 'foreground']] as const) {
    const v = q(param)
    if (v === undefined || v === '') continue
    if (!COLOR.test(v)) return { ok: false, param }
    colors[key] = v
  }
  return { ok: true, value: { theme, colors } }
}

export interface FramePage {
  /** The page's path segment: `/apps/:appId/embedded-wallets/<name>` and `/embedded-wallets/<name>/page.{js,css}`. */
  name: string
  title: string
  /** The config script's id and the main element's id and loading class. */
  configId: string
  mainId: string
  loadingClass: string
  entry: string
  css: string
  /** The page's query, checked: its config fields, or the first bad parameter. */
  params: (q: (k: string) => string | undefined) => { ok: true; value: object } | { ok: false; param: string }
  /** Config fields from the app's settings (e.g. its name). */
  fromApp?: (app: AppSettings) => object
}

/** Where a frame page's settings come from. */
export interface FramePageOptions {
  apps: AppsRegistry
  /** The reference API's origin; null: the page is served by the API server itself (same origin). */
  apiUrl: string | null
  minify?: boolean
}

export function registerFramePage(app: Hono, opts: FramePageOptions, page: FramePage): void {
  const bundle = pageBundler(page.entry)
  const assets = `/embedded-wallets/${page.name}`
  app.get(`/apps/:appId/embedded-wallets/${page.name}`, (c) => {
    const appId = c.req.param('appId')
    const settings = appId.length === 25 ? opts.apps.get(appId) : undefined
    if (!settings) return c.text('Unknown app id', 404)
    const q = page.params((k) => c.req.query(k))
    if (!q.ok) return c.text(`Invalid ${q.param}`, 400)
    const config = { appId, apiUrl: apiOriginOf(opts.apiUrl), allowedOrigins: settings.allowedOrigins, ...page.fromApp?.(settings), ...q.value }
    c.header('content-security-policy', exportCsp(opts.apiUrl, settings.allowedOrigins))
    c.header('cache-control', 'no-store')
    c.header('x-content-type-options', 'nosniff')
    c.header('referrer-policy', 'no-referrer')
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${page.title}</title><link rel="stylesheet" href="${assets}/page.css">` +
        `<script type="application/json" id="${page.configId}">${escapeJson(config)}</script>` +
        `<script type="module" src="${assets}/page.js"></script></head>` +
        `<body><main id="${page.mainId}" aria-live="polite"><p class="${page.loadingClass}">Loading…</p></main></body></html>`,
    )
  })
  app.get(`${assets}/page.js`, async (c) => {
    const b = await bundle(opts.minify !== false)
    if (c.req.header('if-none-match') === b.etag) return c.body(null, 304)
    c.header('content-type', 'text/javascript; charset=utf-8')
    c.header('etag', b.etag)
    c.header('cache-control', 'no-cache')
    return c.body(b.code)
  })
  app.get(`${assets}/page.css`, (c) => {
    c.header('content-type', 'text/css; charset=utf-8')
    c.header('cache-control', 'no-cache')
    return c.body(readFileSync(page.css, 'utf8'))
  })
}
