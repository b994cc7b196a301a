/**
 * The three origins of the export/delegation browser test: the reference API, the wallet frame
 * listener (wallet frame and export page) and the host app (host.tsx bundled with esbuild,
 * served under a strict CSP), all on ephemeral loopback ports.
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build, type Plugin } from 'esbuild'
import { serve } from '@hono/node-server'
import { createServer } from '../../../examples/server/src/app'
import { createFrameServer } from '../../../examples/server/src/frame-server'
import { appsFrom } from '../../../examples/server/src/config'
import { openTestStore } from '../../../examples/server/test/helpers'
import type { Store } from '../../../examples/server/src/store'
import { sourceAliases } from '../../../source-aliases'
import { ROOT } from '../harness'

export const XPD_APP = 'portico-test-xpd-e2e00001'
export const XPD_SECRET = 'xpd-e2e-app-secret-not-for-production-00000'

const listen = (s: Server) =>
  new Promise<number>((resolve, reject) => {
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port))
  })

/** `portico`, `portico/ui`, `portico/plugins/*` → the sources (the same aliases as vitest and Vite). */
const aliases: Plugin = {
  name: 'portico-sources',
  setup(b) {
    b.onResolve({ filter: /^portico(\/.*)?$/ }, (args) => {
      for (const a of sourceAliases) if (a.find.test(args.path)) return { path: args.path.replace(a.find, a.replacement) }
      return undefined
    })
  },
}

export interface XpdServers {
  apiUrl: string
  frameUrl: string
  hostUrl: string
  store: Store
  /** The host page's address with its settings. */
  page(query?: Record<string, string>): string
  close(): Promise<void>
}

export async function startXpdServers(): Promise<XpdServers> {
  const host = createHttpServer()
  const hostUrl = `http://127.0.0.1:${await listen(host)}`
  const apps = [
    {
      id: XPD_APP,
      name: 'Acme Wallet Demo',
      loginMethods: ['email'],
      allowedOrigins: [hostUrl],
      embeddedWallets: { createOnLogin: 'all-users' },
      appSecret: XPD_SECRET,
      mfa: { methods: ['totp'] },
    },
  ]
  let frameOrigin = ''
  const store = await openTestStore()
  const api = await createServer({ store, apps: apps as never, dev: true, logCodes: false, logLevel: 'silent', limits: { resendCooldownS: 0 }, wallets: { frameOrigin: () => frameOrigin } })
  const apiServer = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server
  await new Promise<void>((r) => (apiServer.listening ? r() : apiServer.once('listening', () => r())))
  const apiUrl = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`
  const frame = serve({ fetch: createFrameServer({ apps: appsFrom(apps as never), apiUrl }).fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server
  await new Promise<void>((r) => (frame.listening ? r() : frame.once('listening', () => r())))
  frameOrigin = `http://127.0.0.1:${(frame.address() as AddressInfo).port}`

  const out = await build({
    entryPoints: [`${ROOT}/test/e2e/wallet-export-delegation/host.tsx`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    splitting: false,
    minify: true,
    outdir: '/out',
    loader: { '.css': 'css' },
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    plugins: [aliases],
    logLevel: 'silent',
  })
  const js = out.outputFiles.find((f) => f.path.endsWith('.js'))!.text
  const css = (await build({ entryPoints: [`${ROOT}/ui/styles.css`], bundle: true, write: false, logLevel: 'silent' })).outputFiles[0].text
  // The host page's CSP: nothing inline, frames only from the wallet service, API calls only to the API.
  const csp = `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src ${frameOrigin}; connect-src 'self' ${apiUrl}`
  host.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/host.js') return void res.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': csp }).end(js)
    if (path === '/host.css') return void res.writeHead(200, { 'content-type': 'text/css', 'content-security-policy': csp }).end(css)
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp })
      .end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme host</title><link rel="stylesheet" href="/host.css"><script type="module" src="/host.js"></script></head><body><div id="root"></div></body></html>')
  })
  return {
    apiUrl,
    frameUrl: frameOrigin,
    hostUrl,
    store,
    page: (query = {}) => `${hostUrl}/?${new URLSearchParams({ app: XPD_APP, api: apiUrl, frame: frameOrigin, ...query })}`,
    async close() {
      for (const s of [host, apiServer, frame]) {
        s.closeAllConnections?.()
        await new Promise<void>((r) => s.close(() => r()))
      }
      await store.close()
    },
  }
}
