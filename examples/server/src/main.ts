/**
 * The server process.
 *
 *   tsx src/main.ts [--dev]          start (migrates first unless PORTICO_MIGRATE_ON_START=0)
 *   tsx src/main.ts migrate          apply pending migrations and exit
 *   tsx src/main.ts rotate-keys      re-wrap every sealed record to the current keys and exit
 *
 * Configuration: environment variables (README), validated at start-up. Development mode is
 * explicit: `--dev` or PORTICO_DEV=1. SIGTERM / SIGINT drain in-flight requests, then exit.
 */
import type { HttpLimits } from './http-limits'
import { pino } from 'pino'
import type { ServerOptions } from './app'
import { derivedRecoveryKey, recoveryKeyId } from './features/wallets/keys'
import { assertRecoveryKey, previousKeys, recoveryKeyChoice } from './keys-at-rest'
import { ConfigError, loadEnv } from './settings'

const args = process.argv.slice(2)
let env: ReturnType<typeof loadEnv>
try {
  env = loadEnv(process.env, args.includes('--dev'))
} catch (err) {
  console.error(`[portico] ${(err as Error).message}`)
  process.exit(78) // EX_CONFIG
}
const log = pino({ level: env.LOG_LEVEL, base: { svc: 'portico-server', pid: process.pid } })

async function main() {
  // Keys at rest (issue 26): production needs its own recovery key, never the secret or derived from it.
  const secretPrevious = previousKeys(env.PORTICO_SECRET_PREVIOUS)
  const recovery = recoveryKeyChoice(env)
  assertRecoveryKey({ dev: env.dev, recoveryKey: recovery.key, secret: env.PORTICO_SECRET, secretPrevious })
  const recoveryKey = recovery.key ?? derivedRecoveryKey(env.secret)
  // The configuration is checked: only now the store, the app and their libraries load (a
  // misconfigured start fails in a moment, not after loading the whole server).
  const [{ openStore }, { pendingMigrations, runMigrations }, { deriveKeys }] = await Promise.all([
    import('./core/store'),
    import('./core/store/migrate'),
    import('./keys'),
  ])
  const store = await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, migrate: false })

  if (args[0] === 'rotate-keys') {
    const pending = await pendingMigrations(store)
    if (pending.length) throw new ConfigError([`database schema is behind (${pending.join(', ')}): run the migrate command first`])
    const { rotateKeys } = await import('./rotate-keys')
    const report = await rotateKeys(store, { secret: deriveKeys(env.secret, secretPrevious), recovery: deriveKeys(recoveryKey, recovery.previous) })
    // Counts only: never a key or a record.
    log.info({ ...report, secret_kid: deriveKeys(env.secret).kid, recovery_kid: deriveKeys(recoveryKey).kid }, report.unreadable ? 'rotation incomplete: some records are sealed under a key not given (keep it in *_PREVIOUS and run again)' : 'keys rotated')
    await store.close()
    if (report.unreadable) process.exitCode = 1
    return
  }

  if (args[0] === 'migrate') {
    const applied = await runMigrations(store)
    log.info({ applied }, applied.length ? 'migrations applied' : 'database is up to date')
    await store.close()
    return
  }
  if (!env.PORTICO_MIGRATE_ON_START) {
    const pending = await pendingMigrations(store)
    if (pending.length) throw new ConfigError([`database schema is behind (${pending.join(', ')}): run the migrate command`])
  }

  let draining = false
  // The wallet frame runs on its own origin (a second listener) so host pages never share its storage.
  const apiUrl = env.PORTICO_PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`
  const frameUrl = env.PORTICO_FRAME_PORT ? (env.PORTICO_FRAME_URL ?? `http://${env.HOST}:${env.PORTICO_FRAME_PORT}`) : undefined
  const appsFile = env.APPS_FILE ?? new URL('../apps.json', import.meta.url).pathname
  const [{ createServer, appsOf }, { loadApps }, { createFrameServer }, { serveWithLimits }, { twilioProvider, webhookProvider }] = await Promise.all([
    import('./app'),
    import('./config'),
    import('./frame-server'),
    import('./http-limits'),
    import('./delivery'),
  ])
  const opts: ServerOptions = {
    store,
    appsFile,
    wallets: { frameOrigin: frameUrl ? new URL(frameUrl).origin : undefined, recoveryKey, recoveryKeyPrevious: recovery.previous },
    dev: env.dev,
    secret: env.PORTICO_SECRET,
    secretPrevious,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    sms:
      env.SMS_PROVIDER === 'twilio'
        ? twilioProvider({
            accountSid: env.TWILIO_ACCOUNT_SID!,
            authToken: env.TWILIO_AUTH_TOKEN!,
            from: env.TWILIO_FROM,
            messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
            apiUrl: env.TWILIO_API_URL,
          })
        : env.SMS_PROVIDER === 'webhook'
          ? webhookProvider({ url: env.SMS_WEBHOOK_URL!, secret: env.SMS_WEBHOOK_SECRET })
          : undefined,
    trustProxy: env.TRUST_PROXY,
    rpcUrls: env.PORTICO_RPC_URLS,
    farcaster: {
      rpcUrl: env.PORTICO_FARCASTER_RPC_URL,
      idRegistry: env.PORTICO_FARCASTER_ID_REGISTRY as `0x${string}` | undefined,
      relayKey: env.PORTICO_FARCASTER_RELAY_KEY,
      connectUrl: env.PORTICO_FARCASTER_CONNECT_URL,
      clientApiUrl: env.PORTICO_FARCASTER_CLIENT_API_URL,
    },
    logger: log,
    migrate: env.PORTICO_MIGRATE_ON_START,
    draining: () => draining,
    admin: { ownerEmail: env.PORTICO_ADMIN_OWNER_EMAIL, apiKey: env.PORTICO_ADMIN_API_KEY, consoleOrigins: [new URL(apiUrl).origin] },
    oauth: { timeoutMs: env.PORTICO_OAUTH_TIMEOUT_MS, publicUrl: env.PORTICO_PUBLIC_URL },
    limits: {
      codeTtlS: env.PORTICO_CODE_TTL_S,
      maxAttempts: env.PORTICO_CODE_MAX_ATTEMPTS,
      resendCooldownS: env.PORTICO_RESEND_COOLDOWN_S,
      windowS: env.PORTICO_RATE_WINDOW_S,
      perIdentifier: env.PORTICO_RATE_PER_IDENTIFIER,
      perIp: env.PORTICO_RATE_PER_IP,
      refreshReuseIntervalS: env.PORTICO_REFRESH_REUSE_INTERVAL_S,
      analyticsPerIp: env.PORTICO_ANALYTICS_PER_IP,
    },
  }
  const app = await createServer(opts)
  // Webhooks (issue 32): the outbox's deliveries, off the request path.
  const webhooks = env.PORTICO_WEBHOOKS_WORKER
    ? (await import('./features/webhooks/worker')).startWebhookWorker({
        store,
        keys: deriveKeys(env.secret, secretPrevious),
        log,
        pollMs: env.PORTICO_WEBHOOK_POLL_MS,
        timeoutMs: env.PORTICO_WEBHOOK_TIMEOUT_MS,
        retryBaseMs: env.PORTICO_WEBHOOK_RETRY_BASE_MS,
        maxAttempts: env.PORTICO_WEBHOOK_MAX_ATTEMPTS,
        retentionMs: env.PORTICO_WEBHOOK_RETENTION_DAYS * 86_400_000,
        allowPrivateNetworks: env.dev || env.PORTICO_WEBHOOKS_ALLOW_PRIVATE,
      })
    : null

  // Explicit limits for slow clients and a connection cap on both listeners (src/http-limits.ts).
  const limits: HttpLimits = {
    headersTimeoutMs: env.PORTICO_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.PORTICO_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.PORTICO_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: env.PORTICO_MAX_CONNECTIONS,
  }
  const server = serveWithLimits({ fetch: app.fetch, port: env.PORT, hostname: env.HOST, limits }, (info) => {
    log.info(
      { url: `http://${env.HOST}:${info.port}`, store: store.kind, dev: env.dev, log_level: env.LOG_LEVEL },
      env.dev
        ? 'portico server listening in DEVELOPMENT MODE: codes on the console and at /dev/outbox, demo custom-auth key trusted'
        : 'portico server listening',
    )
  })

  const frameServer = frameUrl
    ? serveWithLimits({ fetch: createFrameServer({ apps: appsOf(app) ?? loadApps(appsFile), apiUrl }).fetch, port: env.PORTICO_FRAME_PORT, hostname: env.HOST, limits }, (info) => {
        log.info({ url: `http://${env.HOST}:${info.port}`, recovery_key: `${recovery.source}:${recoveryKeyId(recoveryKey)}` }, 'wallet frame listening')
      })
    : null
  // A busy frame port disables embedded wallets only, never the API (another server on this machine, a test).
  frameServer?.on('error', (err: NodeJS.ErrnoException) => {
    log.error({ port: env.PORTICO_FRAME_PORT, err_code: err.code }, 'wallet frame listener failed: embedded wallets are unavailable (set PORTICO_FRAME_PORT)')
  })

  const stop = (signal: string) => {
    if (draining) return
    draining = true
    log.info({ signal }, 'shutting down: draining in-flight requests')
    const hard = setTimeout(() => {
      log.warn('shutdown time-out: closing the remaining connections')
      server.closeAllConnections()
    }, env.PORTICO_SHUTDOWN_TIMEOUT_S * 1000)
    hard.unref()
    server.close(async () => {
      await webhooks?.stop().catch(() => {})
      await store.close().catch(() => {})
      log.info('stopped')
      process.exit(0)
    })
    server.closeIdleConnections()
    frameServer?.close()
    frameServer?.closeIdleConnections()
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(`[portico] ${err.message}`)
  else log.fatal({ err_name: (err as Error)?.name, err_code: (err as { code?: unknown })?.code, msg_detail: String((err as Error)?.message).slice(0, 300) }, 'start-up failed')
  process.exit(err instanceof ConfigError ? 78 : 1)
})
