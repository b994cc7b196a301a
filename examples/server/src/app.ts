import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { appsFrom, loadApps, type AppSettings, type AppsRegistry } from './config'
import { limitsFromEnv, type Limits } from './codes'
import type { Env, ServerCtx } from './context'
import { ApiError, errors } from './errors'
import type { Store } from './store'
import { loadSigner, type Signer } from './tokens'
import { registerApps } from './routes/apps'
import { registerSessions } from './routes/sessions'
import { registerPasswordless } from './routes/passwordless'
import { registerPasswordlessSms } from './routes/passwordless-sms'
import { registerGuest } from './routes/guest'
import { registerCustomAuth } from './routes/custom-auth'
import { registerSiwe } from './routes/siwe'
import { registerSiws } from './routes/siws'
import { registerUsers } from './routes/users'
import { registerDev } from './routes/dev'

export const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'privy-app-id',
  'privy-client-id',
  'privy-ca-id',
  'privy-client',
  'privy-ui',
]

export interface ServerOptions {
  store: Store
  /** Path to apps.json; or `apps` directly. */
  appsFile?: string
  apps?: AppSettings[]
  /** Development mode: console codes, /dev routes, outbox. */
  dev: boolean
  limits?: Partial<Limits>
  smtpUrl?: string
  mailFrom?: string
  /** Print codes to the console in dev mode (default true). */
  logCodes?: boolean
  trustProxy?: boolean
  signer?: Signer
}

/** Builds the Hono app. Route groups follow the client's plugins; new groups (wallets, MFA, funding) register the same way. */
export async function createServer(opts: ServerOptions): Promise<Hono<Env>> {
  const apps: AppsRegistry = opts.apps ? appsFrom(opts.apps) : loadApps(opts.appsFile ?? 'examples/server/apps.json')
  await opts.store.migrate()
  const ctx: ServerCtx = {
    store: opts.store,
    signer: opts.signer ?? (await loadSigner(opts.store)),
    apps,
    limits: { ...limitsFromEnv(), ...opts.limits },
    dev: opts.dev,
    delivery: { dev: opts.dev, smtpUrl: opts.smtpUrl, mailFrom: opts.mailFrom, log: opts.logCodes },
    trustProxy: !!opts.trustProxy,
  }

  const app = new Hono<Env>()

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toWire(), err.status)
    console.error('[portico] unhandled error', err)
    return c.json({ code: 'internal_error', error: 'Something went wrong. We’re on it. Please try again later.' }, 500)
  })
  app.notFound((c) => c.json({ code: 'not_found', error: 'Not found' }, 404))

  // CORS with credentials for the origins each app allows.
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin')
    const appId = c.req.header('privy-app-id')
    const known = appId ? apps.get(appId) : undefined
    const allowed = !!origin && (known ? known.allowedOrigins.includes(origin) : apps.allOrigins().has(origin))
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      const h = new Headers({ vary: 'Origin' })
      if (origin && apps.allOrigins().has(origin)) {
        const requested = (c.req.header('access-control-request-headers') ?? '')
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter((s) => s.startsWith('privy-'))
        h.set('access-control-allow-origin', origin)
        h.set('access-control-allow-credentials', 'true')
        h.set('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
        h.set('access-control-allow-headers', [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '))
        h.set('access-control-max-age', '600')
      }
      return new Response(null, { status: 204, headers: h })
    }
    await next()
    if (allowed) {
      c.res.headers.set('access-control-allow-origin', origin!)
      c.res.headers.set('access-control-allow-credentials', 'true')
      c.res.headers.append('vary', 'Origin')
    }
  })

  app.get('/health', (c) => c.json({ ok: true, store: ctx.store.kind }))
  app.get('/api/v1/health', (c) => c.json({ ok: true, store: ctx.store.kind }))

  const api = new Hono<Env>()
  api.use(
    '*',
    bodyLimit({
      maxSize: 64 * 1024,
      onError: (c) => c.json(errors.invalidData('Request body is larger than 64 KB').toWire(), 413),
    }),
  )
  // App id: header `privy-app-id` on every call (GET /apps/{appId}... may give it in the path instead).
  api.use('*', async (c, next) => {
    const pathApp = /^\/api\/v1\/apps\/([^/]+)/.exec(c.req.path)?.[1]
    const id = c.req.header('privy-app-id') ?? (pathApp ? decodeURIComponent(pathApp) : undefined)
    if (!id) throw errors.invalidAppId(400, 'Missing privy-app-id header')
    if (id.length !== 25) throw errors.invalidAppId(400, 'Invalid app id: it must be 25 characters long')
    const settings = apps.get(id)
    if (!settings) throw errors.invalidAppId(404, `Unknown app id ${id}`)
    c.set('app', settings)
    await next()
  })
  registerApps(api, ctx)
  registerSessions(api, ctx)
  registerUsers(api, ctx)
  registerPasswordless(api, ctx)
  registerPasswordlessSms(api, ctx)
  registerGuest(api, ctx)
  registerCustomAuth(api, ctx)
  registerSiwe(api, ctx)
  registerSiws(api, ctx)
  app.route('/api/v1', api)

  if (ctx.dev) registerDev(app, ctx)
  return app
}
