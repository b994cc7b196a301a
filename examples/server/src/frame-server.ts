/**
 * The wallet frame's own origin (a second listener: PORTICO_FRAME_PORT, 8788 in `npm start`),
 * and the same pages on the API's origin (`frameRoutes({ apiUrl: null })`, mounted by
 * createServer in app.ts): the published client of this wire contract loads the frame at
 * `<API origin>/apps/{appId}/embedded-wallets` (issue 31).
 *
 *   GET /apps/:appId/embedded-wallets?caid&client_id   the frame page (spec part 2 section 7)
 *   GET /embedded-wallets/<entry>.js, <chunk>.js       its scripts (examples/server/frame/, bundled with esbuild)
 *
 * Each page runs under a CSP of its own: nothing but its scripts and the API may load or be
 * called, and only the app's allowed origins (custom schemes included) may embed it.
 * Other frame pages (the export frame ...) add one line to FRAME_PAGES.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { fileURLToPath } from 'node:url'
import { registerConsentPage } from './consent-page'
import { registerAuthorizePage } from './authorize-page'
import { registerExportPage } from './export-page'
import { BROWSER_BUILD, apiOriginOf, apiSource, escapeJson, etagOf } from './frame-page'
import type { AppsRegistry } from './config'
import { cloudDriveOrigins } from './features/recovery/service'

export interface FrameServerOptions {
  apps: AppsRegistry
  /**
   * The reference API's origin (the frame calls `${apiUrl}/api/v1`); null: the pages are served
   * by the API server itself (the frame calls `/api/v1` on its own origin).
   */
  apiUrl: string | null
  /** Minify the bundle (default true). */
  minify?: boolean
}

export interface FramePage {
  /** Path on the frame origin (Hono style, with `:appId`). */
  path: string
  /** Script entry: examples/server/frame/<entry>.ts, served as /embedded-wallets/<entry>.js. */
  entry: string
  title: string
}

/** The frame pages. The export family adds `{ path: '/apps/:appId/embedded-wallets/export', entry: 'export-main', title: '…' }`. */
export const FRAME_PAGES: FramePage[] = [{ path: '/apps/:appId/embedded-wallets', entry: 'main', title: 'Portico wallet' }]

const FRAME_DIR = fileURLToPath(new URL('../frame/', import.meta.url))

export interface FrameBundle {
  /** The main frame's entry script (main.js). */
  code: string
  /** Every served file (entries and lazy chunks) by file name. */
  files: Map<string, { code: string; etag: string }>
}

let bundle: Promise<FrameBundle> | null = null

/** Builds the frame scripts once per process (esbuild, in memory; lazy parts in their own chunks). */
export function frameBundle(minify = true): Promise<FrameBundle> {
  bundle ??= (async () => {
    const { build } = await import('esbuild')
    const { createHash } = await import('node:crypto')
    const entries = [...new Set(FRAME_PAGES.map((p) => p.entry))]
    const out = await build({
      ...BROWSER_BUILD,
      entryPoints: Object.fromEntries(entries.map((e) => [e, `${FRAME_DIR}${e}.ts`])),
      splitting: true,
      outdir: '/frame-out',
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      minify,
    })
    const tag = (code: string) => etagOf(createHash, code)
    const files = new Map<string, { code: string; etag: string }>()
    for (const f of out.outputFiles) files.set(f.path.split('/').pop()!, { code: f.text, etag: tag(f.text) })
    return { code: files.get('main.js')!.code, files }
  })()
  bundle.catch(() => {
    bundle = null
  })
  return bundle
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!)
/** CSP source for an allowed origin: web origins as is; custom schemes (tauri://localhost) too. */
const ancestor = (o: string) => o.replace(/[;,\s]/g, '')

export function frameCsp(apiUrl: string | null, allowedOrigins: string[]): string {
  const ancestors = allowedOrigins.length ? allowedOrigins.map(ancestor).join(' ') : "'none'"
  return [
    "default-src 'none'",
    "script-src 'self'",
    `connect-src ${[apiSource(apiUrl), ...cloudDriveOrigins()].join(' ')}`,
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}

/** The frame origin's listener: the frame pages, their scripts and /health. */
export function createFrameServer(opts: FrameServerOptions): Hono {
  const app = new Hono()
  app.route('/', frameRoutes(opts))
  app.get('/health', (c) => c.json({ ok: true }))
  app.notFound((c) => c.text('Not found', 404))
  return app
}

/**
 * The frame pages (the wallet frame, export, delegation consent, EIP-7702 authorisation) and their scripts, under
 * /apps/:appId/embedded-wallets… and /embedded-wallets/…: its headers go on those paths only,
 * so the API server mounts it beside /api/v1 unchanged.
 */
export function frameRoutes(opts: FrameServerOptions): Hono {
  const app = new Hono()
  const headers: MiddlewareHandler = async (c, next) => {
    await next()
    c.header('x-content-type-options', 'nosniff')
    c.header('referrer-policy', 'no-referrer')
    c.header('cross-origin-resource-policy', 'cross-origin')
  }
  app.use('/apps/:appId/embedded-wallets', headers)
  app.use('/apps/:appId/embedded-wallets/*', headers)
  app.use('/embedded-wallets/*', headers)
  for (const page of FRAME_PAGES) {
    app.get(page.path, (c) => {
      const appId = c.req.param('appId') ?? ''
      const settings = appId.length === 25 ? opts.apps.get(appId) : undefined
      if (!settings) return c.text('Unknown app id', 404)
      // Public settings only: the page's query (client id, caid, an export's address ...) stays in the page's own URL.
      const config = {
        appId,
        apiUrl: apiOriginOf(opts.apiUrl),
        allowedOrigins: settings.allowedOrigins,
        clientId: c.req.query('client_id') ?? null,
        caid: c.req.query('caid') ?? null,
        // Raw hash signing (secp256k1_sign) is off unless the app turns it on (embeddedWallets.allowRawSign).
        allowRawSign: settings.embeddedWallets?.allowRawSign === true,
      }
      c.header('content-security-policy', frameCsp(opts.apiUrl, settings.allowedOrigins))
      c.header('cache-control', 'no-store')
      return c.html(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>` +
          `<script type="application/json" id="portico-frame-config">${escapeJson(config)}</script>` +
          `<script type="module" src="/embedded-wallets/${page.entry}.js"></script></head><body></body></html>`,
      )
    })
  }
  app.get('/embedded-wallets/:file', async (c) => {
    const b = await frameBundle(opts.minify !== false)
    const file = c.req.param('file')
    const f = b.files.get(file)
    if (!f) return c.text('Not found', 404)
    if (c.req.header('if-none-match') === f.etag) return c.body(null, 304)
    c.header('content-type', 'text/javascript; charset=utf-8')
    c.header('etag', f.etag)
    // Chunk names carry their content hash; entries are revalidated.
    c.header('cache-control', file.startsWith('chunk-') ? 'public, max-age=31536000, immutable' : 'no-cache')
    return c.body(f.code)
  })
  registerExportPage(app, opts) // key export page (src/export-page.ts)
  registerConsentPage(app, opts) // delegation consent page (src/consent-page.ts)
  registerAuthorizePage(app, opts) // EIP-7702 authorisation page (src/authorize-page.ts)
  return app
}
