/**
 * The origins of the recovery browser test, all on ephemeral loopback ports: the reference
 * API, the wallet frame (its own listener), the host page (a React app with the modal) and the
 * cloud-drive stand-in (Google OAuth + Drive v3, CloudKit), which the API and the frame reach
 * through PORTICO_CLOUD_DRIVE_BASE_URL.
 */
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { serve } from '@hono/node-server'
import { createServer } from '../../../examples/server/src/app'
import { createFrameServer } from '../../../examples/server/src/frame-server'
import { appsFrom } from '../../../examples/server/src/config'
import { openTestStore } from '../../../examples/server/test/helpers'
import type { Store } from '../../../examples/server/src/store'
import { createCloudDrive } from '../../../examples/stand-ins/cloud-drive/server'
import { sourceAliases } from '../../../source-aliases'
import { ROOT } from '../harness'

export const RECOVERY_APP = 'portico-test-rcv-00000001'
/** Recovery must be user-owned at creation, Google Drive only: the wallet is created with it. */
export const RECOVERY_CREATE_APP = 'portico-test-rcv-00000002'
export const RECOVERY_KEY = 'e2e-recovery-key-outside-the-database-000021'
/** The admin API key of these servers (pre-generated wallets: the operator's import). */
export const RECOVERY_ADMIN_KEY = 'portico_admin_e2e-recovery-admin-key-not-for-production-0'

const listen = (s: Server) =>
  new Promise<number>((resolve, reject) => {
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port))
  })
const started = async (s: Server) => {
  await new Promise<void>((r) => (s.listening ? r() : s.once('listening', () => r())))
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`
}

export interface RecoveryServers {
  apiUrl: string
  frameUrl: string
  hostUrl: string
  driveUrl: string
  drive: ReturnType<typeof createCloudDrive>
  store: Store
  /** API paths called so far, in order. */
  paths: string[]
  close(): Promise<void>
}

export async function startRecoveryServers(): Promise<RecoveryServers> {
  const host = createHttpServer()
  const hostUrl = `http://127.0.0.1:${await listen(host)}`

  // The drive first: the API and the frame's CSP read its base URL.
  let driveServer: Server
  const drivePort = await new Promise<number>((resolve) => {
    const probe = createHttpServer()
    probe.listen(0, '127.0.0.1', () => {
      const p = (probe.address() as AddressInfo).port
      probe.close(() => resolve(p))
    })
  })
  const driveUrl = `http://127.0.0.1:${drivePort}`
  const drive = createCloudDrive({ origin: driveUrl, cloudkit: { container: 'iCloud.dev.portico.recovery', apiToken: 'local-stand-in-cloudkit-api-token', signInCallback: `${hostUrl}/?portico_recovery_popup=icloud` } })
  driveServer = serve({ fetch: drive.app.fetch, port: drivePort, hostname: '127.0.0.1' }) as unknown as Server
  await started(driveServer)
  process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveUrl

  const apps = [
    {
      id: RECOVERY_APP,
      name: 'Recovery Test',
      loginMethods: ['email'],
      allowedOrigins: [hostUrl],
      embeddedWallets: { createOnLogin: 'users-without-wallets' },
    },
    {
      id: RECOVERY_CREATE_APP,
      name: 'Recovery Create Test',
      loginMethods: ['email'],
      allowedOrigins: [hostUrl],
      embeddedWallets: { createOnLogin: 'users-without-wallets', requireUserOwnedRecoveryOnCreate: true, userOwnedRecoveryOptions: ['google-drive'] },
    },
  ]
  let frameOrigin = ''
  const store = await openTestStore()
  const api = await createServer({ store, apps: apps as never, dev: true, logCodes: false, logLevel: 'silent', limits: { resendCooldownS: 0 }, wallets: { frameOrigin: () => frameOrigin, recoveryKey: RECOVERY_KEY }, admin: { apiKey: RECOVERY_ADMIN_KEY } })
  // The API paths called, in order (tests check which wallet routes a flow used).
  const paths: string[] = []
  const apiServer = serve({ fetch: (req: Request, ...rest: unknown[]) => (paths.push(new URL(req.url).pathname), (api.fetch as (...a: unknown[]) => Response | Promise<Response>)(req, ...rest)), port: 0, hostname: '127.0.0.1' }) as unknown as Server
  const apiUrl = await started(apiServer)
  const frame = serve({ fetch: createFrameServer({ apps: appsFrom(apps as never), apiUrl }).fetch, port: 0, hostname: '127.0.0.1' }) as unknown as Server
  frameOrigin = await started(frame)

  const bundle = await build({
    entryPoints: [`${ROOT}/test/e2e/wallet-recovery/host.tsx`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    splitting: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      {
        // `portico`, `portico/ui`, `portico/plugins/<id>` … resolve to the sources (as source-aliases.ts does for vitest).
        name: 'portico-sources',
        setup(b) {
          b.onResolve({ filter: /^portico(\/.*)?$/ }, (args) => {
            const hit = sourceAliases.find((a) => a.find.test(args.path))
            return hit ? { path: args.path.replace(hit.find, hit.replacement) } : undefined
          })
        },
      },
    ],
    logLevel: 'silent',
  })
  const js = bundle.outputFiles[0].text
  const css = readFileSync(`${ROOT}/ui/styles.css`, 'utf8')
  const csp = `default-src 'self'; script-src 'self'; frame-src ${frameOrigin}; connect-src 'self' ${apiUrl}; img-src 'self' data:`
  host.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const headers = { 'content-security-policy': csp, 'cache-control': 'no-store' }
    if (path === '/host.js') return void res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(js)
    if (path === '/styles.css') return void res.writeHead(200, { ...headers, 'content-type': 'text/css' }).end(css)
    if (path === '/config.json') return void res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ appId: RECOVERY_APP, apiUrl, frameUrl: frameOrigin }))
    res
      .writeHead(200, { ...headers, 'content-type': 'text/html' })
      .end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Recovery host</title><link rel="stylesheet" href="/styles.css"><script type="module" src="/host.js"></script></head><body></body></html>')
  })
  return {
    apiUrl,
    frameUrl: frameOrigin,
    hostUrl,
    driveUrl,
    drive,
    store,
    paths,
    async close() {
      for (const s of [host, apiServer, frame, driveServer]) {
        s.closeAllConnections?.()
        await new Promise<void>((r) => s.close(() => r()))
      }
      await store.close()
    },
  }
}

/** The newest code the dev outbox holds for `email`. */
export async function outboxCode(apiUrl: string, email: string): Promise<string> {
  const list = (await (await fetch(`${apiUrl}/dev/outbox?to=${encodeURIComponent(email)}`, { headers: { accept: 'application/json' } })).json()) as { code: string }[]
  if (!list[0]?.code) throw new Error(`no code for ${email}`)
  return list[0].code
}
