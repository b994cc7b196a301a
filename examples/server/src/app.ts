import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { requestId } from 'hono/request-id'
import { pino, type Logger } from 'pino'
import { appsFrom, loadApps, type AppSettings, type AppsRegistry } from './config'
import { limitsFromEnv, type Limits } from './codes'
import type { Env, ServerCtx } from './core/context'
import { ping } from './core/repo'
import { canDeliver, smtpProvider, type EmailProvider, type SmsProvider } from './delivery'
import { DEV_ISSUER_PUBLIC_JWK } from './dev-issuer'
import { ApiError, errors } from './core/errors'
import { deriveKeys } from './keys'
import { OpenApi } from './core/openapi'
import { ConfigError, DEV_SECRET } from './settings'
import type { Store } from './core/store'
import { loadSigner, type Signer } from './core/identity/tokens'
import { appsRoutes } from './features/apps/routes'
import { sessionsRoutes } from './features/sessions/routes'
import { usersRoutes } from './features/users/routes'
import { emailRoutes, smsRoutes } from './features/passwordless/routes'
import { guestRoutes } from './features/guest/routes'
import { customAuthRoutes } from './features/custom-auth/routes'
import { siweRoutes, siwsRoutes } from './features/wallet-login/routes'
import { passkeysRoutes } from './features/passkeys/routes'
import { oauthCallbackRoutes, oauthRoutes, type OAuthOptions } from './features/oauth/routes'
import { telegramRoutes } from './features/telegram/routes'
import { farcasterRoutes } from './features/farcaster/routes'
import { farcasterSignerRoutes } from './features/farcaster-signer/routes'
import { smartWalletsRoutes } from './features/smart-wallets/routes'
import { crossAppRoutes } from './features/cross-app/routes'
import { mfaRoutes } from './features/mfa/routes'
import { chainInfoRoutes } from './features/chain-info/routes'
import { walletsRoutes } from './features/wallets/routes'
import { walletPasswordRoutes } from './features/wallet-password/routes'
import { walletStepUpRoutes } from './features/wallet-step-up/routes'
import { fundingRoutes } from './features/funding/routes'
import { recoveryRoutes } from './features/recovery/routes'
import { delegationRoutes } from './features/delegation/routes'
import { devRoutes } from './features/dev/routes'
import { webhooksRoutes } from './features/webhooks/routes'
import { seedConfigEndpoints } from './features/webhooks/service'
import { captchaSecret } from './captcha'
import { telegramBotToken } from './features/telegram/service'
import { assertRecoveryKey } from './keys-at-rest'
import { derivedRecoveryKey, type WalletOptions } from './features/wallets/keys'
import type { FarcasterOptions } from './features/farcaster/routes'
import { frameRoutes } from './frame-server'
import { adminRoutes } from './features/admin/routes'
import { registerConsolePage } from './console-page'
import { CONSOLE_APP_ID, consoleApp, openLiveApps, type LiveApps } from './features/admin/apps'
import { ensureFirstOwner } from './features/admin/service'

export const VERSION = '0.2.0'

export const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'privy-app-id',
  'privy-client-id',
  'privy-ca-id',
  'privy-client',
  'privy-ui',
  'farcaster-channel-token',
  // The published client of this contract numbers its retries on every request (issue 31).
  'privy-retry-attempt',
  // The wallet frame's device proof (issue 26, wallet-custody.ts).
  'portico-device-proof',
]

export interface ServerOptions {
  store: Store
  /** Path to apps.json; or `apps` directly. */
  appsFile?: string
  apps?: AppSettings[]
  /** Development mode (explicit): console codes, /dev routes and outbox, the demo custom-auth key. */
  dev: boolean
  /**
   * Server secret (PORTICO_SECRET, at least 32 characters): keys the code hashes and seals the
   * signing key and refresh pairs at rest. Required outside development mode.
   */
  secret?: string
  /** Previous server secrets (rotation, PORTICO_SECRET_PREVIOUS): they open what they sealed, never seal. */
  secretPrevious?: string[]
  limits?: Partial<Limits>
  smtpUrl?: string
  mailFrom?: string
  /** An e-mail provider other than SMTP (tests). */
  email?: EmailProvider
  sms?: SmsProvider
  /** Print codes to the log in dev mode (default true). */
  logCodes?: boolean
  /** Reverse proxies in front (number of hops; `true` = 1). */
  trustProxy?: boolean | number
  signer?: Signer
  /** JSON-RPC URL per EVM chain id, for ERC-1271 / ERC-6492 SIWE signatures. */
  rpcUrls?: Record<number, string>
  /** Sign In With Farcaster: Optimism RPC URL (custody lookup), IdRegistry address, relay key, connect URI base. */
  farcaster?: FarcasterOptions
  logger?: Logger
  /** Log level when no `logger` is given (default LOG_LEVEL, else 'info'). */
  logLevel?: string
  /** Apply pending migrations (default true). */
  migrate?: boolean
  /** Set by main.ts while shutting down: /health/ready answers 503 and responses close their connection. */
  draining?: () => boolean
  /** OAuth (issue 12): provider time-out, public URL for the redirect URI, environment. */
  oauth?: OAuthOptions
  /**
   * Embedded wallets (issue 14): the wallet frame's origin and the recovery key (required
   * outside development mode, distinct from the secret; derived from the secret in development).
   */
  wallets?: WalletOptions
  /**
   * Keep the apps in the database (issue 32): apps.json (or `apps`) seeds the app_settings table,
   * the admin API changes it, every process follows it. Default: on when the apps come from a
   * file, off when the caller hands `apps` over (they are then the server's, in memory).
   */
  appsInDatabase?: boolean
  /** The admin API: the first owner's e-mail, a bootstrap API key, the console app's origins. */
  admin?: { ownerEmail?: string; apiKey?: string; consoleOrigins?: string[] }
}

const registries = new WeakMap<object, AppsRegistry>()
/** The registry a server built by createServer reads (main.ts hands it to the wallet frame's listener). */
export const appsOf = (app: object): AppsRegistry | undefined => registries.get(app)

/** Builds the Hono app. Route groups follow the client's plugins; new groups (wallets, MFA, funding) register the same way. */
export async function createServer(opts: ServerOptions): Promise<Hono<Env>> {
  const log = opts.logger ?? pino({ level: opts.logLevel ?? process.env.LOG_LEVEL ?? 'info', base: { svc: 'portico-server' } })
  if (!opts.dev && !opts.secret) throw new ConfigError(['PORTICO_SECRET: required outside development mode'])
  assertRecoveryKey({ dev: opts.dev, recoveryKey: opts.wallets?.recoveryKey, secret: opts.secret, secretPrevious: opts.secretPrevious })
  const seed = opts.apps ? appsFrom(opts.apps) : loadApps(opts.appsFile ?? 'examples/server/apps.json')
  const delivery = {
    dev: opts.dev,
    logCodes: opts.logCodes !== false,
    email: opts.email ?? (opts.smtpUrl ? smtpProvider(opts.smtpUrl, opts.mailFrom) : undefined),
    sms: opts.sms,
    log,
  }
  // Apps in the database: migrated first (the table), seeded, then read from the store.
  let migrated = false
  let live: LiveApps | null = null
  if (opts.appsInDatabase ?? !opts.apps) {
    if (opts.migrate !== false) await opts.store.migrate()
    migrated = true
    live = await openLiveApps({
      store: opts.store,
      seed: seed.all(),
      seedOnce: [consoleApp(opts.admin?.consoleOrigins ?? [], canDeliver(delivery, 'email'))],
      transform: (list) => withoutDemoKey(appsFrom(list), opts.dev, log).all(),
      log,
    })
  }
  const apps: AppsRegistry = live ?? withoutDemoKey(seed, opts.dev, log)
  // Production: a login method that cannot deliver its codes is a start-up error, not a silent success.
  const undeliverable = apps
    .all()
    // The console app (seeded once, changed through the admin API) is warned about below instead.
    .filter((a) => a.id !== CONSOLE_APP_ID)
    .flatMap((a) => (['email', 'sms'] as const).filter((m) => a.loginMethods.includes(m) && !canDeliver(delivery, m)).map((m) => `${a.id}: ${m}`))
  if (undeliverable.length) {
    live?.stop()
    throw new ConfigError(
      undeliverable.map((u) =>
        u.endsWith('email')
          ? `${u} login is enabled but no e-mail provider is configured (set SMTP_URL, or remove "email" from the app's loginMethods)`
          : `${u} login is enabled but no SMS provider is configured (set SMS_PROVIDER=twilio or webhook, or remove "sms" from the app's loginMethods)`,
      ),
    )
  }
  // Captcha needs its secret to verify tokens. Without one: development mode checks presence
  // only; production fails closed (its inits answer 502 captcha_failure) and says so at start-up.
  for (const a of apps.all().filter((x) => x.captcha?.enabled && !captchaSecret(x))) {
    if (opts.dev) log.warn({ app_id: a.id }, 'captcha has no secret: development mode only checks that a token is present')
    else log.error({ app_id: a.id }, 'captcha is enabled but has no secret (captcha.secret or captcha.secretEnv): its logins are refused until one is set')
  }
  const consoleSettings = apps.get(CONSOLE_APP_ID)
  for (const m of ['email', 'sms'] as const) {
    if (consoleSettings?.loginMethods.includes(m) && !canDeliver(delivery, m)) log.warn({ app_id: CONSOLE_APP_ID, method: m }, 'the console app offers a login method this server cannot deliver: operators use another (passkey)')
  }
  for (const a of apps.all()) {
    if (a.loginMethods.includes('telegram') && !telegramBotToken(a)) {
      log.warn({ app_id: a.id }, 'telegram is enabled but has no bot token (telegramBotToken or telegramBotTokenEnv): Telegram logins are refused')
    }
  }
  if (opts.migrate !== false && !migrated) await opts.store.migrate()
  if (opts.admin?.ownerEmail) await ensureFirstOwner({ store: opts.store }, opts.admin.ownerEmail)
  const keys = deriveKeys(opts.secret ?? DEV_SECRET, opts.secretPrevious)
  // apps.json's webhook endpoints into the database (issue 32; idempotent).
  await seedConfigEndpoints({ store: opts.store, keys }, apps.all())
  const ctx: ServerCtx = {
    store: opts.store,
    keys,
    signer: opts.signer ?? (await loadSigner(opts.store, keys)),
    apps,
    limits: { ...limitsFromEnv(), ...opts.limits },
    dev: opts.dev,
    delivery,
    trustProxy: opts.trustProxy === true ? 1 : Number(opts.trustProxy || 0),
    log,
    openapi: new OpenApi(),
    rpcUrls: opts.rpcUrls ?? {},
  }
  const draining = opts.draining ?? (() => false)
  const walletFrameOrigin = () => (typeof opts.wallets?.frameOrigin === 'function' ? opts.wallets.frameOrigin() : opts.wallets?.frameOrigin)

  const app = new Hono<Env>()

  app.use('*', requestId({ limitLength: 64 }))
  // One structured line per request: the route pattern (never the URL's values), status, time.
  app.use('*', async (c, next) => {
    const t = performance.now()
    await next()
    if (draining()) c.header('connection', 'close')
    const status = c.res.status
    const line = { req_id: c.get('requestId'), method: c.req.method, route: c.req.routePath, status, ms: Math.round(performance.now() - t) }
    if (status >= 500) log.error(line, 'request')
    else log.debug(line, 'request')
  })

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toWire(), err.status)
    // Never the message (a driver may quote values) nor parameters: the class, code and stack frames.
    const e = err as Error & { code?: unknown }
    log.error(
      { req_id: c.get('requestId'), route: c.req.routePath, err_name: e?.name, err_code: typeof e?.code === 'string' ? e.code : undefined, frames: e?.stack?.split('\n').slice(1, 6).map((l) => l.trim()) },
      'unhandled error',
    )
    return c.json({ code: 'internal_error', error: 'Something went wrong. We’re on it. Please try again later.' }, 500)
  })
  app.notFound((c) => c.json({ code: 'not_found', error: 'Not found' }, 404))

  // CORS (Hono's middleware) for the API only, with credentials for the origins each app
  // allows (a preflight carries no app id: the union of every app's origins). Never on /dev.
  const corsMw = cors({
    origin: (origin, c) => {
      if (!origin) return null
      const appId = c.req.header('privy-app-id')
      const known = appId ? apps.get(appId) : undefined
      // The wallet frame's own origin calls the wallet routes (a browser hint: they check a device proof).
      if (origin === walletFrameOrigin()) return origin
      const ok = known && c.req.method !== 'OPTIONS' ? known.allowedOrigins.includes(origin) : apps.allOrigins().has(origin)
      return ok ? origin : null
    },
    credentials: true,
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: ['x-request-id', 'retry-after', 'portico-device-nonce'],
    maxAge: 600,
  })
  app.use('/api/*', corsMw)
  app.use('/api/*', async (c, next) => {
    await next()
    // Answers depend on the Origin (also the ones without CORS headers): caches must key on it.
    if (!(c.res.headers.get('vary') ?? '').toLowerCase().includes('origin')) c.header('vary', 'Origin', { append: true })
  })
  app.use('/health/*', cors({ origin: '*' }))
  // The demo app fetches its host token from the dev issuer: readable by the apps' origins,
  // without credentials. The outbox gets no CORS at all.
  if (ctx.dev) app.use('/dev/custom-token', cors({ origin: (o) => (apps.allOrigins().has(o) ? o : null), allowMethods: ['GET'] }))

  const alive = (c: Context) => c.json({ ok: true, store: ctx.store.kind })
  app.get('/health', alive)
  app.get('/api/v1/health', alive)
  app.get('/health/alive', alive)
  app.get('/health/ready', async (c) => {
    if (draining()) return c.json({ ok: false, reason: 'shutting down' }, 503)
    try {
      await ping(ctx.store)
      return c.json({ ok: true, store: ctx.store.kind })
    } catch {
      return c.json({ ok: false, reason: 'database unavailable' }, 503)
    }
  })

  const api = new Hono<Env>()
  const MAX_BODY = 64 * 1024
  const tooLarge = (c: Context) => c.json(errors.invalidData('Request body is larger than 64 KB').toWire(), 413)
  const countedLimit = bodyLimit({ maxSize: MAX_BODY, onError: tooLarge })
  api.use('*', async (c, next) => {
    // A body with Content-Length (Node's parser holds the body to that length) is judged by the
    // header, as Hono's bodyLimit does; a request with neither header has no body. Only a
    // chunked body goes through bodyLimit, which counts it as it arrives: bodyLimit reads
    // `c.req.raw.body`, which makes @hono/node-server build a full fetch Request (and read the
    // body through web streams) on every call.
    if (c.req.header('transfer-encoding') !== undefined) return countedLimit(c, next)
    const length = c.req.header('content-length')
    if (length !== undefined && parseInt(length, 10) > MAX_BODY) return tooLarge(c)
    await next()
  })
  api.get('/openapi.json', (c) => c.json(ctx.openapi.document(VERSION)))
  // App id: header `privy-app-id` on every call (GET /apps/{appId}... may give it in the path instead).
  api.use('*', async (c, next) => {
    const pathApp = /^\/api\/v1\/apps\/([^/]{1,200})/.exec(c.req.path)?.[1]
    let id = c.req.header('privy-app-id')
    if (id === undefined && pathApp) {
      try {
        id = decodeURIComponent(pathApp)
      } catch {
        throw errors.invalidAppId(400, 'Invalid app id: malformed percent-encoding')
      }
    }
    if (!id) throw errors.invalidAppId(400, 'Missing privy-app-id header')
    if (id.length !== 25) throw errors.invalidAppId(400, 'Invalid app id: it must be 25 characters long')
    const settings = apps.get(id)
    if (!settings) throw errors.invalidAppId(404, 'Unknown app id')
    c.set('app', settings)
    await next()
  })
  // The features: each a sub-app whose routes declare their path, body and who may call them
  // (core/router.ts), mounted in this order (the OpenAPI document lists them so). Routes
  // outside /api/v1 carry no app-id header: they go on the root app ahead of the /api/v1 group.
  api.route('/', appsRoutes(ctx))
  api.route('/', sessionsRoutes(ctx))
  api.route('/', usersRoutes(ctx))
  api.route('/', emailRoutes(ctx))
  api.route('/', smsRoutes(ctx))
  api.route('/', guestRoutes(ctx))
  api.route('/', customAuthRoutes(ctx))
  api.route('/', siweRoutes(ctx))
  api.route('/', siwsRoutes(ctx))
  // Smart wallets (issue 29): their config, /siwe/link_smart_wallet and the paymaster.
  api.route('/', smartWalletsRoutes(ctx))
  api.route('/', passkeysRoutes(ctx))
  api.route('/', oauthRoutes(ctx, opts.oauth))
  app.route('/', oauthCallbackRoutes(ctx))
  api.route('/', telegramRoutes(ctx))
  const farcaster = farcasterRoutes(ctx, opts.farcaster)
  api.route('/', farcaster.api)
  app.route('/', farcaster.root)
  api.route('/', farcasterSignerRoutes(ctx, { clientApiUrl: opts.farcaster?.clientApiUrl }))
  api.route('/', crossAppRoutes(ctx))
  api.route('/', mfaRoutes(ctx))
  api.route('/', chainInfoRoutes(ctx))
  const wallets = walletsRoutes(ctx, { ...opts.wallets, recoveryKey: opts.wallets?.recoveryKey ?? derivedRecoveryKey(opts.secret ?? DEV_SECRET) })
  api.route('/', wallets.app)
  api.route('/', walletPasswordRoutes(ctx, { guard: wallets.guard, recoveryKeys: wallets.recoveryKeys }))
  // New wallet devices: the step-up, the devices list and their removal (issue 26).
  api.route('/', walletStepUpRoutes(ctx))
  api.route('/', fundingRoutes(ctx))
  const recovery = recoveryRoutes(ctx, { frameOrigin: walletFrameOrigin })
  api.route('/', recovery.api)
  app.route('/', recovery.root)
  api.route('/', delegationRoutes(ctx, { guard: wallets.guard }))
  api.route('/', webhooksRoutes(ctx))
  app.route('/api/v1', api)
  app.get('/openapi.json', (c) => c.json(ctx.openapi.document(VERSION)))

  // The wallet frame (and its export and consent pages) on the API's origin too: the published
  // client of this contract loads it at `<API origin>/apps/{appId}/embedded-wallets` (issue 31).
  app.route('/', frameRoutes({ apps, apiUrl: null }))

  // The admin API (issue 32): its own credentials (API keys, operators of the console app).
  app.route('/admin/v1', adminRoutes(ctx, { apps: live, envKey: opts.admin?.apiKey }))
  registerConsolePage(app)

  if (ctx.dev) app.route('/', devRoutes(ctx))
  registries.set(app, apps)
  return app
}

/** Outside development mode an app never trusts the demo custom-auth key committed in dev-issuer.ts. */
function withoutDemoKey(apps: AppsRegistry, dev: boolean, log: Logger): AppsRegistry {
  if (dev) return apps
  const demo = (a: AppSettings) =>
    a.customAuth?.publicJwk?.x === DEV_ISSUER_PUBLIC_JWK.x && a.customAuth?.publicJwk?.y === DEV_ISSUER_PUBLIC_JWK.y
  const list = apps.all().map((a) => {
    if (!demo(a)) return a
    log.warn({ app_id: a.id }, 'custom auth with the committed demo key is disabled outside development mode')
    return { ...a, customAuth: null, loginMethods: a.loginMethods.filter((m) => m !== 'custom_auth') }
  })
  return appsFrom(list)
}
