/**
 * The three origins of the wallet tests: the reference API, the wallet frame (its own
 * listener) and a host page, all on ephemeral loopback ports.
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { serve } from '@hono/node-server'
import { createServer } from '../../../examples/server/src/app'
import { createFrameServer } from '../../../examples/server/src/frame-server'
import { appsFrom } from '../../../examples/server/src/config'
import { openTestStore } from '../../../examples/server/test/helpers'
import type { Store } from '../../../examples/server/src/store'
import { ROOT } from '../harness'

export const WALLET_APP = 'portico-test-wlt-00000001'
export const RECOVERY_KEY = 'e2e-recovery-key-outside-the-database-000001'

const listen = (s: Server) =>
  new Promise<number>((resolve, reject) => {
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port))
  })

export interface WalletServers {
  apiUrl: string
  frameUrl: string
  hostUrl: string
  store: Store
  close(): Promise<void>
}

export async function startWalletServers(): Promise<WalletServers> {
  const host = createHttpServer()
  const hostPort = await listen(host)
  const hostUrl = `http://127.0.0.1:${hostPort}`
  const apps = [
    {
      id: WALLET_APP,
      name: 'Wallet test',
      loginMethods: ['email'],
      allowedOrigins: [hostUrl],
      embeddedWallets: { createOnLogin: 'users-without-wallets' },
    },
  ]
  let frameOrigin = ''
  const store = await openTestStore()
  const api = await createServer({ store, apps: apps as never, dev: true, logCodes: false, logLevel: 'silent', wallets: { frameOrigin: () => frameOrigin, recoveryKey: RECOVERY_KEY } })
  const apiServer = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server
  await new Promise<void>((r) => (apiServer.listening ? r() : apiServer.once('listening', () => r())))
  const apiUrl = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`
  const frame = serve({ fetch: createFrameServer({ apps: appsFrom(apps as never), apiUrl }).fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server
  await new Promise<void>((r) => (frame.listening ? r() : frame.once('listening', () => r())))
  frameOrigin = `http://127.0.0.1:${(frame.address() as AddressInfo).port}`

  const bundle = await build({
    entryPoints: [`${ROOT}/test/e2e/wallet-frame/host.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    alias: { portico: `${ROOT}/kernel/index.ts` },
    logLevel: 'silent',
  })
  const js = bundle.outputFiles[0].text
  const csp = `default-src 'self'; script-src 'self'; frame-src ${frameOrigin} ${apiUrl}; connect-src 'self' ${apiUrl}`
  host.on('request', (req, res) => {
    if (req.url === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': csp }).end(js)
      return
    }
    res
      .writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp })
      .end('<!doctype html><html><head><title>host</title><script type="module" src="/host.js"></script></head><body></body></html>')
  })
  return {
    apiUrl,
    frameUrl: frameOrigin,
    hostUrl,
    store,
    async close() {
      for (const s of [host, apiServer, frame]) {
        s.closeAllConnections?.()
        await new Promise<void>((r) => s.close(() => r()))
      }
      await store.close()
    },
  }
}

/** Logs an e-mail user in through the API (dev outbox code). */
export async function emailLogin(apiUrl: string, email: string): Promise<{ token: string; user: any }> {
  const h = { 'content-type': 'application/json', 'privy-app-id': WALLET_APP }
  await fetch(`${apiUrl}/api/v1/passwordless/init`, { method: 'POST', headers: h, body: JSON.stringify({ email }) })
  // Newest first.
  const list = (await (await fetch(`${apiUrl}/dev/outbox?to=${encodeURIComponent(email)}`, { headers: { accept: 'application/json' } })).json()) as { code: string }[]
  const code = list[0]?.code
  const res = await fetch(`${apiUrl}/api/v1/passwordless/authenticate`, { method: 'POST', headers: h, body: JSON.stringify({ email, code, mode: 'login-or-sign-up' }) })
  const body = (await res.json()) as { token: string; user: any }
  if (!body.token) throw new Error(`login failed: ${JSON.stringify(body)}`)
  return body
}
