/**
 * App settings in the database (issue 32). The registry every route reads (`ctx.apps`) is a
 * live view of the `app_settings` table: apps.json (or the server's `apps` option) seeds it,
 * the admin API changes it, and every server process on the database reloads it when the
 * version row moves: at once on PostgreSQL (LISTEN/NOTIFY), and polled every 250 ms (one
 * indexed one-row read) as the fallback and the only path on PGlite.
 *
 * Seeding, at each start: an app of the file that the database lacks is imported; an app the
 * database has from an earlier import ('seed') and that nobody changed through the admin API
 * is re-imported when the file's version differs; an app changed through the admin API
 * ('admin') is the database's from then on, and one deleted through it stays deleted.
 * Idempotent: the same file twice changes nothing.
 */
import { createHash } from 'node:crypto'
import type { Logger } from 'pino'
import { appSchema, appsFrom, type AppSettings, type AppsRegistry } from '../../config'
import type { Store } from '../../core/store'
import { APP_SECRET_MIN } from '../../core/auth'
import { now } from '../../core/identity/tokens'
import * as repo from './repo'

/** The console's own app: operators sign in to it through Portico itself. */
export const CONSOLE_APP_ID = 'portico-console-app-00001'

/** How often each process reads the version row. */
export const APPS_POLL_MS = 250

export const sha256hex = (s: string) => createHash('sha256').update(s).digest('hex')

/** The app as stored: an inline app secret becomes its SHA-256 (`appSecretHash`); nothing else changes. */
export function withHashedSecret(a: AppSettings): AppSettings {
  const x = { ...a } as AppSettings & { appSecret?: unknown; appSecretHash?: unknown }
  if (typeof x.appSecret === 'string') {
    // A secret shorter than the minimum was never usable (core/auth.ts): it is dropped, not kept.
    if (x.appSecret.length >= APP_SECRET_MIN) x.appSecretHash = sha256hex(x.appSecret)
    delete x.appSecret
  }
  return x
}

/** JSON with sorted keys: two settings objects compare equal whatever their key order. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v)
}

/** The console app's settings: e-mail codes (when they can be delivered) and passkeys. */
export function consoleApp(origins: string[], emailDeliverable: boolean): AppSettings {
  return {
    id: CONSOLE_APP_ID,
    name: 'Portico console',
    loginMethods: emailDeliverable ? ['email', 'passkey'] : ['passkey'],
    allowedOrigins: origins,
    embeddedWallets: { createOnLogin: 'off' },
  }
}

export interface LiveApps extends AppsRegistry {
  /** Reads the apps again (after a change of this process; other processes notice by polling). */
  reload(): Promise<void>
  /** The version the registry holds. */
  version(): number
  stop(): void
}

/**
 * Seeds the table from `seed`, loads it and keeps it current. `transform` adjusts the loaded
 * list as the server's start-up does for a file (the demo key outside development mode).
 */
export async function openLiveApps(o: {
  store: Store
  seed: AppSettings[]
  /** Apps imported when absent and never re-imported (the console app: its origins depend on the process). */
  seedOnce?: AppSettings[]
  transform: (list: AppSettings[]) => AppSettings[]
  log: Logger
  pollMs?: number
}): Promise<LiveApps> {
  const changed = await seedApps(o.store, o.seed, o.seedOnce)
  if (changed.length) o.log.info({ apps: changed }, 'apps imported from the seed file')
  let map = new Map<string, AppSettings>()
  let origins = new Set<string>()
  let version = -1
  let loading: Promise<void> | null = null

  const load = async () => {
    const v = await repo.appsVersion(o.store)
    if (v === version) return
    const rows = await repo.allApps(o.store)
    const list: AppSettings[] = []
    for (const r of rows) {
      const p = appSchema.safeParse(r.settings)
      if (p.success) list.push(p.data as AppSettings)
      // A row that no longer passes the schema (written by another version): skipped, said once per load.
      else o.log.error({ app_id: r.id, problems: p.error.issues.map((i) => i.path.join('.')) }, 'stored app settings are invalid: app skipped')
    }
    const next = appsFrom(o.transform(list))
    map = new Map(next.all().map((a) => [a.id, a]))
    origins = next.allOrigins()
    version = v
  }
  const reload = () => (loading ??= load().finally(() => (loading = null)))
  await reload()

  let failures = 0
  const timer = setInterval(() => {
    if (loading) return
    reload().then(
      () => (failures = 0),
      () => {
        // The store went away (closed) or is unreachable: keep the last settings; stop after ~10 s of failures.
        if (++failures === 40) {
          clearInterval(timer)
          o.log.warn('app settings: the database stopped answering; polling stopped')
        }
      },
    )
  }, o.pollMs ?? APPS_POLL_MS)
  timer.unref()
  // PostgreSQL: a committed change notifies at once (migration 039's trigger); the poll stays as the fallback.
  const unlisten = o.store.listen?.('portico_apps', () => void reload().catch(() => {}))

  return {
    get: (id) => map.get(id),
    all: () => [...map.values()],
    allOrigins: () => origins,
    reload,
    version: () => version,
    stop: () => {
      clearInterval(timer)
      unlisten?.()
    },
  }
}

/** Imports the seed (see the module's comment) in one transaction; answers the ids written. */
export async function seedApps(store: Store, seed: AppSettings[], once: AppSettings[] = []): Promise<string[]> {
  return store.transaction(async (q) => {
    await repo.lockAppsVersion(q)
    // Deleted ones too: an app deleted through the admin API stays deleted.
    const have = new Map((await repo.allApps(q, true)).map((r) => [r.id, r]))
    const t = now()
    const changed: string[] = []
    const onceIds = new Set(once.map((a) => a.id))
    for (const raw of [...seed.filter((a) => !onceIds.has(a.id)), ...once]) {
      const a = withHashedSecret(raw)
      const row = have.get(a.id)
      if (!row) {
        await repo.insertApp(q, a.id, a, 'seed', t)
        await repo.insertAudit(q, { actor: 'seed', action: 'app.created', appId: a.id, after: redact(a), t })
        changed.push(a.id)
      } else if (row.source === 'seed' && !onceIds.has(a.id) && stable(row.settings) !== stable(a)) {
        await repo.updateApp(q, a.id, a, 'seed', t)
        await repo.insertAudit(q, { actor: 'seed', action: 'app.updated', appId: a.id, before: redact(row.settings), after: redact(a), t })
        changed.push(a.id)
      }
    }
    if (changed.length) await repo.bumpAppsVersion(q)
    return changed
  })
}

/** Keys whose values are secrets: never answered by the admin API nor written to the audit. */
const SECRET_KEY = /(secret|token|custodyKey|privateKey|signerKey|apiKey|password)$/i
export const REDACTED = '[redacted]'

/** A copy with every secret value replaced by '[redacted]' and the app secret's hash left out. */
export function redact<T>(v: T): T {
  if (Array.isArray(v)) return v.map(redact) as T
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) {
      if (k === 'appSecretHash' || k === 'appSecret') continue
      out[k] = typeof x === 'string' && SECRET_KEY.test(k) && !/Env$/.test(k) ? REDACTED : redact(x)
    }
    return out as T
  }
  return v
}

/**
 * JSON Merge Patch (RFC 7396): objects merge, null deletes, anything else replaces. A value of
 * '[redacted]' keeps what is stored (a client may send back what it read).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {}
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k]
    else if (v === REDACTED) continue
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

/** Validates one app with the server's own schema (config.ts); the problems by path. */
export function parseApp(input: unknown): { app: AppSettings } | { problems: Record<string, string> } {
  const r = appSchema.safeParse(input)
  if (r.success) return { app: r.data as AppSettings }
  const problems: Record<string, string> = {}
  for (const i of r.error.issues) problems[i.path.join('.') || '(app)'] ??= i.message
  return { problems }
}
