/**
 * The operators' console (issue 32), served by the server itself:
 *
 *   GET /admin              its HTML (no inline script or style)
 *   GET /admin/console.js   its script (examples/server/console/main.tsx, bundled once by esbuild
 *                           with `portico/ui`, the e-mail plugin and, for the app editor's live
 *                           preview, the login plugins, from the sources)
 *   GET /admin/console.css  portico/ui's stylesheet and the console's own
 *
 * The console is a Portico app (portico-console-app-00001, its allowed origin the server's):
 * operators sign in through the modal, and it calls the admin API with their access token.
 * CSP: own script and stylesheet only, requests to this origin, no framing.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import { sourceAliases } from '../../../source-aliases'
import { BROWSER_BUILD, etagOf } from './frame-page'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const ENTRY = r('../console/main.tsx')
const CSS = [r('../../../ui/styles.css'), r('../console/console.css')]

/** `portico…` to the repository's sources: the aliases vitest and the example apps use (source-aliases.ts). */
function sourceFor(path: string): string | null {
  const a = sourceAliases.find((x) => x.find.test(path))
  return a ? path.replace(a.find, a.replacement) : null
}

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Portico console</title>
<link rel="stylesheet" href="/admin/console.css">
<script type="module" src="/admin/console.js"></script>
</head>
<body>
<div id="root"><p class="c-loading">Loading the console…</p></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registerConsolePage(app: Hono<any>): void {
  let bundle: Promise<{ code: string; etag: string }> | null = null
  const script = () => {
    bundle ??= (async () => {
      const { build } = await import('esbuild')
      const { createHash } = await import('node:crypto')
      const out = await build({
        ...BROWSER_BUILD,
        entryPoints: [ENTRY],
        minify: true,
        jsx: 'automatic',
        loader: { '.css': 'empty' },
        plugins: [
          {
            name: 'portico-sources',
            setup(b) {
              b.onResolve({ filter: /^portico(\/|$)/ }, (a) => {
                const p = sourceFor(a.path)
                return p ? { path: p } : undefined
              })
            },
          },
        ],
      })
      const code = out.outputFiles[0].text
      return { code, etag: etagOf(createHash, code) }
    })()
    bundle.catch(() => {
      bundle = null
    })
    return bundle
  }
  const headers = { 'content-security-policy': CONSOLE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' }
  app.get('/admin', (c) => c.html(HTML, 200, { ...headers, 'x-frame-options': 'DENY' }))
  app.get('/admin/', (c) => c.redirect('/admin'))
  app.get('/admin/console.js', async (c) => {
    const b = await script()
    return c.body(b.code, 200, { ...headers, 'content-type': 'text/javascript; charset=utf-8', etag: b.etag, 'cache-control': 'no-cache' })
  })
  let css: string | null = null
  app.get('/admin/console.css', (c) => {
    css ??= CSS.map((f) => readFileSync(f, 'utf8')).join('\n')
    return c.body(css, 200, { ...headers, 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' })
  })
}
