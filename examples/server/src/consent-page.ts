/**
 * The delegation consent page, on the wallet frame's origin (registered by src/frame-server.ts,
 * like the export page, src/export-page.ts):
 *
 *   GET /apps/:appId/embedded-wallets/delegate?theme&accent_color&background_color&foreground_color
 *   GET /embedded-wallets/delegate/page.js    its script (examples/server/frame/consent/main.ts, esbuild)
 *   GET /embedded-wallets/delegate/page.css   its stylesheet
 *
 * 'Enable offline access' shows it in a visible iframe: the app's name (from this server's app
 * settings, not from the host), the wallet and the policy in plain words, and Allow. Only a
 * trusted click on Allow in this page seals the wallet's key (with the policy) to the server.
 * Its CSP: nothing but its own script and stylesheet, requests to the API only, embeddable only
 * by the app's allowed origins. The URL carries no secret (the access token comes by postMessage).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import type { AppsRegistry } from './config'
import { escapeJson, exportCsp, pageBundler } from './export-page'

export interface ConsentPageOptions {
  apps: AppsRegistry
  /** The reference API's origin. */
  apiUrl: string
  minify?: boolean
}

const ENTRY = fileURLToPath(new URL('../frame/consent/main.ts', import.meta.url))
const CSS = fileURLToPath(new URL('../frame/consent/consent.css', import.meta.url))

const consentBundle = pageBundler(ENTRY)

const originOf = (u: string) => new URL(u).origin
const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** The page's settings from its query, or the name of the first bad parameter. */
export function consentQuery(q: (k: string) => string | undefined): { ok: true; value: { theme: 'light' | 'dark'; colors: Record<string, string> } } | { ok: false; param: string } {
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

export function registerConsentPage(app: Hono, opts: ConsentPageOptions): void {
  app.get('/apps/:appId/embedded-wallets/delegate', (c) => {
    const appId = c.req.param('appId')
    const settings = appId.length === 25 ? opts.apps.get(appId) : undefined
    if (!settings) return c.text('Unknown app id', 404)
    const q = consentQuery((k) => c.req.query(k))
    if (!q.ok) return c.text(`Invalid ${q.param}`, 400)
    const config = { appId, apiUrl: originOf(opts.apiUrl), allowedOrigins: settings.allowedOrigins, appName: settings.name || 'This app', ...q.value }
    c.header('content-security-policy', exportCsp(opts.apiUrl, settings.allowedOrigins))
    c.header('cache-control', 'no-store')
    c.header('x-content-type-options', 'nosniff')
    c.header('referrer-policy', 'no-referrer')
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>Portico offline access</title><link rel="stylesheet" href="/embedded-wallets/delegate/page.css">` +
        `<script type="application/json" id="portico-consent-config">${escapeJson(config)}</script>` +
        `<script type="module" src="/embedded-wallets/delegate/page.js"></script></head>` +
        `<body><main id="consent" aria-live="polite"><p class="c-loading">Loading…</p></main></body></html>`,
    )
  })
  app.get('/embedded-wallets/delegate/page.js', async (c) => {
    const b = await consentBundle(opts.minify !== false)
    if (c.req.header('if-none-match') === b.etag) return c.body(null, 304)
    c.header('content-type', 'text/javascript; charset=utf-8')
    c.header('etag', b.etag)
    c.header('cache-control', 'no-cache')
    return c.body(b.code)
  })
  app.get('/embedded-wallets/delegate/page.css', (c) => {
    c.header('content-type', 'text/css; charset=utf-8')
    c.header('cache-control', 'no-cache')
    return c.body(readFileSync(CSS, 'utf8'))
  })
}
