/**
 * The key export page, on the wallet frame's origin (registered by src/frame-server.ts):
 *
 *   GET /apps/:appId/embedded-wallets/export?client_id&primaryAddress&address&walletIndex
 *       &width&caid&phrase_export&theme&accent_color&background_color&foreground_color
 *   GET /embedded-wallets/export/page.js    its script (examples/server/frame/export/main.ts, esbuild)
 *   GET /embedded-wallets/export/page.css   its stylesheet
 *
 * Its CSP: nothing but its own script and stylesheet, requests to the API only, embeddable only
 * by the app's allowed origins. The URL carries no secret (the access token comes by
 * postMessage); every query value is checked here and the page refuses anything else.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import type { AppsRegistry } from './config'

export interface ExportPageOptions {
  apps: AppsRegistry
  /** The reference API's origin. */
  apiUrl: string
  minify?: boolean
}

const ENTRY = fileURLToPath(new URL('../frame/export/main.ts', import.meta.url))
const CSS = fileURLToPath(new URL('../frame/export/export.css', import.meta.url))

/**
 * A page of the frame's origin bundles its script once (esbuild, on first request); a failed build
 * is tried again on the next request. Shared by the export page and the consent page.
 */
export function pageBundler(entry: string): (minify?: boolean) => Promise<{ code: string; etag: string }> {
  let bundle: Promise<{ code: string; etag: string }> | null = null
  return (minify = true) => {
    bundle ??= (async () => {
      const { build } = await import('esbuild')
      const { createHash } = await import('node:crypto')
      const out = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        minify,
        legalComments: 'none',
        define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
        logLevel: 'silent',
      })
      const code = out.outputFiles[0].text
      return { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 16)}"` }
    })()
    bundle.catch(() => {
      bundle = null
    })
    return bundle
  }
}

const exportBundle = pageBundler(ENTRY)

export const escapeJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
const originOf = (u: string) => new URL(u).origin

export function exportCsp(apiUrl: string, allowedOrigins: string[]): string {
  const ancestors = allowedOrigins.length ? allowedOrigins.map((o) => o.replace(/[;,\s]/g, '')).join(' ') : "'none'"
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${originOf(apiUrl)}`,
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}

const ADDRESS = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/
const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The page's settings from its query, or the name of the first bad parameter. */
export function exportQuery(q: (k: string) => string | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; param: string } {
  const bad = (param: string) => ({ ok: false as const, param })
  const primaryAddress = q('primaryAddress') ?? ''
  const address = q('address') ?? ''
  if (!ADDRESS.test(primaryAddress)) return bad('primaryAddress')
  if (!ADDRESS.test(address)) return bad('address')
  const idx = q('walletIndex') ?? '0'
  if (!/^\d{1,10}$/.test(idx) || Number(idx) >= 2 ** 31) return bad('walletIndex')
  const width = q('width')
  if (width !== undefined && width !== '' && !/^\d{2,4}$/.test(width)) return bad('width')
  const phrase = q('phrase_export') ?? 'false'
  if (phrase !== 'true' && phrase !== 'false') return bad('phrase_export')
  const theme = q('theme') ?? 'light'
  if (theme !== 'light' && theme !== 'dark') return bad('theme')
  const colors: Record<string, string> = {}
  for (const [param, key] of [['accent_color', 'accent'], ['background_color', 'background'], ['foreground_color', 'foreground']] as const) {
    const v = q(param)
    if (v === undefined || v === '') continue
    if (!COLOR.test(v)) return bad(param)
    colors[key] = v
  }
  for (const param of ['client_id', 'caid']) {
    const v = q(param)
    if (v !== undefined && v !== '' && !ID.test(v)) return bad(param)
  }
  return {
    ok: true,
    value: {
      clientId: q('client_id') || null,
      caid: q('caid') || null,
      primaryAddress,
      address,
      walletIndex: Number(idx),
      width: width ? Number(width) : null,
      phraseExport: phrase === 'true',
      theme,
      colors,
    },
  }
}

export function registerExportPage(app: Hono, opts: ExportPageOptions): void {
  app.get('/apps/:appId/embedded-wallets/export', (c) => {
    const appId = c.req.param('appId')
    const settings = appId.length === 25 ? opts.apps.get(appId) : undefined
    if (!settings) return c.text('Unknown app id', 404)
    const q = exportQuery((k) => c.req.query(k))
    if (!q.ok) return c.text(`Invalid ${q.param}`, 400)
    const config = { appId, apiUrl: originOf(opts.apiUrl), allowedOrigins: settings.allowedOrigins, ...q.value }
    c.header('content-security-policy', exportCsp(opts.apiUrl, settings.allowedOrigins))
    c.header('cache-control', 'no-store')
    c.header('x-content-type-options', 'nosniff')
    c.header('referrer-policy', 'no-referrer')
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>Portico wallet export</title><link rel="stylesheet" href="/embedded-wallets/export/page.css">` +
        `<script type="application/json" id="portico-export-config">${escapeJson(config)}</script>` +
        `<script type="module" src="/embedded-wallets/export/page.js"></script></head>` +
        `<body><main id="export" aria-live="polite"><p class="x-loading">Loading…</p></main></body></html>`,
    )
  })
  app.get('/embedded-wallets/export/page.js', async (c) => {
    const b = await exportBundle(opts.minify !== false)
    if (c.req.header('if-none-match') === b.etag) return c.body(null, 304)
    c.header('content-type', 'text/javascript; charset=utf-8')
    c.header('etag', b.etag)
    c.header('cache-control', 'no-cache')
    return c.body(b.code)
  })
  app.get('/embedded-wallets/export/page.css', (c) => {
    c.header('content-type', 'text/css; charset=utf-8')
    c.header('cache-control', 'no-cache')
    return c.body(readFileSync(CSS, 'utf8'))
  })
}
