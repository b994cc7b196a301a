/**
 * Server configuration from the environment, validated with zod at start-up. Every problem
 * is reported at once with the variable's name (`ConfigError`), before anything listens.
 */
import { z } from 'zod'

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`)
  }
}

/** Production without a recovery key (issue 26: keys at rest). */
export const RECOVERY_KEY_REQUIRED =
  'PORTICO_RECOVERY_KEY: required outside development mode (or PORTICO_RECOVERY_KEY_FILE): the key sealing automatic recovery shares and password keys, kept apart from PORTICO_SECRET and from database backups (e.g. openssl rand -base64 32)'

/** Development-mode secret: used only when PORTICO_DEV is on and PORTICO_SECRET is unset. */
export const DEV_SECRET = 'portico-development-secret-never-use-in-production'

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes')
const int = (d: number, min = 0) => z.coerce.number().int().min(min).default(d)
const optStr = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))

export const envSchema = z.object({
  PORT: int(8787, 0).pipe(z.number().max(65535)),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: optStr.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional()),
  DATABASE_POOL_MAX: int(10, 1),
  DATA_DIR: z.string().default('.data'),
  APPS_FILE: optStr,
  PORTICO_DEV: flag,
  PORTICO_SECRET: optStr.pipe(z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional()),
  JWT_PRIVATE_KEY: optStr,
  SMTP_URL: optStr.pipe(z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional()),
  MAIL_FROM: optStr,
  SMS_PROVIDER: z.enum(['twilio', 'webhook', '']).optional().transform((v) => v || undefined),
  TWILIO_ACCOUNT_SID: optStr,
  TWILIO_AUTH_TOKEN: optStr,
  TWILIO_FROM: optStr,
  TWILIO_MESSAGING_SERVICE_SID: optStr,
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  SMS_WEBHOOK_URL: optStr.pipe(z.url().optional()),
  SMS_WEBHOOK_SECRET: optStr,
  /** Number of reverse proxies in front of the server ('1' = one; 0 = trust no X-Forwarded-For). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v === 'true' ? 1 : v ? Number(v) : 0))
    .pipe(z.number().int('must be a number of proxy hops').min(0).max(10)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORTICO_MIGRATE_ON_START: z
    .enum(['1', '0', 'true', 'false', ''])
    .optional()
    .transform((v) => v !== '0' && v !== 'false'),
  PORTICO_SHUTDOWN_TIMEOUT_S: int(10),
  // Slow clients (src/http-limits.ts): headers, whole request, idle keep-alive, open connections.
  PORTICO_HEADERS_TIMEOUT_MS: int(10_000, 100),
  PORTICO_REQUEST_TIMEOUT_MS: int(30_000, 100),
  PORTICO_KEEP_ALIVE_TIMEOUT_MS: int(5_000, 0),
  PORTICO_MAX_CONNECTIONS: int(1000, 1),
  /** `chainId=url,chainId=url`: JSON-RPC endpoints for ERC-1271 / ERC-6492 SIWE signatures. */
  PORTICO_RPC_URLS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const out: Record<number, string> = {}
      for (const part of (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
        const m = /^(\d{1,12})=(https?:\/\/\S+)$/.exec(part)
        if (!m) {
          ctx.addIssue({ code: 'custom', message: `expected chainId=https://rpc-url, got ${JSON.stringify(part.slice(0, 40))}` })
          return z.NEVER
        }
        out[Number(m[1])] = m[2]
      }
      return out
    }),
  /** Optimism JSON-RPC URL for Sign In With Farcaster's custody-address lookup. */
  PORTICO_FARCASTER_RPC_URL: optStr.pipe(z.url().optional()),
  /** IdRegistry address (default the Optimism deployment). */
  PORTICO_FARCASTER_ID_REGISTRY: optStr.pipe(z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address').optional()),
  /** Shared key the Farcaster app sends to the built-in relay (X-Farcaster-Auth-Relay-Key). */
  PORTICO_FARCASTER_RELAY_KEY: optStr,
  /** Base of the connect URI shown as the QR code (default Warpcast's sign-in link). */
  PORTICO_FARCASTER_CONNECT_URL: optStr.pipe(z.url().optional()),
  /** Farcaster client API (signed key requests) base URL; default https://api.farcaster.xyz. */
  PORTICO_FARCASTER_CLIENT_API_URL: optStr.pipe(z.url().optional()),
  PORTICO_RATE_PER_IDENTIFIER: int(5, 1),
  PORTICO_RATE_PER_IP: int(60, 1),
  PORTICO_RATE_WINDOW_S: int(600, 1),
  PORTICO_RESEND_COOLDOWN_S: int(30),
  PORTICO_CODE_TTL_S: int(600),
  PORTICO_CODE_MAX_ATTEMPTS: int(5, 1),
  PORTICO_REFRESH_REUSE_INTERVAL_S: int(10),
  PORTICO_ANALYTICS_PER_IP: int(120, 1),
  // OAuth (issue 12): the public origin for the provider redirect URI, the stand-in / proxy base
  // URL for every provider's endpoints, the per-request provider time-out. Client ids and secrets:
  // OAUTH_<PROVIDER>_CLIENT_ID / OAUTH_<PROVIDER>_CLIENT_SECRET (read where used).
  PORTICO_PUBLIC_URL: optStr.pipe(z.url().optional()),
  PORTICO_OAUTH_BASE_URL: optStr.pipe(z.url().optional()),
  PORTICO_OAUTH_TIMEOUT_MS: int(10_000, 100),
  // Embedded wallets (issue 14): the wallet frame's own listener (0 turns it off), its public
  // origin when behind a proxy, and the recovery key of automatic ('privy') recovery and of the
  // password OPRF keys — kept outside the database, required outside development mode and
  // distinct from PORTICO_SECRET (issue 26; see README). *_PREVIOUS: comma-separated older keys
  // that still open what they sealed (rotation: rotate-keys re-wraps to the current keys).
  PORTICO_FRAME_PORT: int(8788, 0).pipe(z.number().max(65535)),
  PORTICO_FRAME_URL: optStr.pipe(z.url().optional()),
  PORTICO_RECOVERY_KEY: optStr.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  PORTICO_RECOVERY_KEY_FILE: optStr,
  PORTICO_RECOVERY_KEY_PREVIOUS: optStr,
  PORTICO_SECRET_PREVIOUS: optStr,
  // The admin API (issue 32): the first owner (an operator signing in to the console app with
  // this e-mail) and a bootstrap API key for automation (hashed at start, never stored).
  PORTICO_ADMIN_OWNER_EMAIL: optStr.pipe(z.email('must be an e-mail address').optional()),
  PORTICO_ADMIN_API_KEY: optStr.pipe(z.string().min(32, 'must be at least 32 characters (e.g. portico_admin_ and openssl rand -base64 32)').optional()),
  // Webhooks (issue 32): the worker in this process (0: off, another process sends), its idle
  // poll, the time-out of an attempt, the first retry delay (×4 each time) and the attempts.
  PORTICO_WEBHOOKS_WORKER: z.enum(['1', '0', 'true', 'false', '']).optional().transform((v) => v !== '0' && v !== 'false'),
  PORTICO_WEBHOOK_POLL_MS: int(5000, 50),
  PORTICO_WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  PORTICO_WEBHOOK_RETRY_BASE_MS: int(5000, 10),
  PORTICO_WEBHOOK_MAX_ATTEMPTS: int(8, 1),
  // Delivered (and failed, kept for replay) outbox rows are deleted after this many days.
  PORTICO_WEBHOOK_RETENTION_DAYS: int(30, 1),
  PORTICO_WEBHOOKS_ALLOW_PRIVATE: z.enum(['1', '0', 'true', 'false', '']).optional().transform((v) => v === '1' || v === 'true'),
})

export type EnvConfig = z.infer<typeof envSchema> & { dev: boolean; secret: string }

/** Parses the environment; `devFlag` is the `--dev` command-line flag. Throws ConfigError. */
export function loadEnv(env: NodeJS.ProcessEnv = process.env, devFlag = false): EnvConfig {
  const r = envSchema.safeParse(env)
  if (!r.success) {
    throw new ConfigError(r.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`))
  }
  const c = r.data
  const dev = devFlag || c.PORTICO_DEV
  const problems: string[] = []
  if (!dev && !c.PORTICO_SECRET) {
    problems.push('PORTICO_SECRET: required outside development mode (keys the code hashes and encrypts the signing key)')
  }
  if (!dev && !c.PORTICO_RECOVERY_KEY && !c.PORTICO_RECOVERY_KEY_FILE) {
    problems.push(RECOVERY_KEY_REQUIRED)
  }
  if (c.SMS_PROVIDER === 'twilio') {
    if (!c.TWILIO_ACCOUNT_SID) problems.push('TWILIO_ACCOUNT_SID: required when SMS_PROVIDER=twilio')
    if (!c.TWILIO_AUTH_TOKEN) problems.push('TWILIO_AUTH_TOKEN: required when SMS_PROVIDER=twilio')
    if (!c.TWILIO_FROM && !c.TWILIO_MESSAGING_SERVICE_SID) {
      problems.push('TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID: required when SMS_PROVIDER=twilio')
    }
  }
  if (c.SMS_PROVIDER === 'webhook' && !c.SMS_WEBHOOK_URL) problems.push('SMS_WEBHOOK_URL: required when SMS_PROVIDER=webhook')
  if (problems.length) throw new ConfigError(problems)
  return { ...c, dev, secret: c.PORTICO_SECRET ?? DEV_SECRET }
}
