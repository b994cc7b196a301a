/**
 * The attacker suite's harness (issue 26). An attacker is a Node client outside any browser:
 * it sends whatever headers it likes (Origin, Referer, the frame's origin, a stolen bearer
 * token). Each claim runs against PGlite and, where PostgreSQL is installed (always in CI),
 * against PostgreSQL too.
 */
import type { Store } from '../../src/core/store'
import { openStore } from '../../src/core/store'
import { DEMO, openTestPglite, openTestStore, startPostgres, startTestServer, type Res, type TempPostgres, type TestServer } from '../helpers'
import type { ServerOptions } from '../../src/app'

export const FRAME_ORIGIN = 'http://127.0.0.1:48799'
export const RECOVERY_KEY = 'attacker-suite-recovery-key-kept-outside-the-db-26'

export interface Target {
  /** 'pglite' or 'postgres' (the describe name). */
  name: 'pglite' | 'postgres'
  store: Store
  s: TestServer
  close(): Promise<void>
}

/**
 * The stores every claim runs on: PGlite, and PostgreSQL when a server can be started (under
 * CI=true a missing PostgreSQL fails, see startPostgres).
 */
export async function startTargets(opts: Partial<ServerOptions> = {}): Promise<Target[]> {
  const out: Target[] = []
  const serverOpts: Partial<ServerOptions> = { ...opts, wallets: { frameOrigin: FRAME_ORIGIN, recoveryKey: RECOVERY_KEY, ...opts.wallets } }
  const lite = await openTestPglite()
  const ls = await startTestServer(lite, serverOpts)
  out.push({ name: 'pglite', store: lite, s: ls, close: async () => (await ls.close(), await lite.close()) })
  // PostgreSQL: a copy of the run's migrated template (test/global-setup.ts), else a cluster of its own.
  const copy = await openTestStore()
  if (copy.kind === 'postgres') {
    const ps = await startTestServer(copy, serverOpts)
    out.push({ name: 'postgres', store: copy, s: ps, close: async () => (await ps.close(), await copy.close()) })
    return out
  }
  await copy.close()
  const pg: TempPostgres | null = await startPostgres()
  if (pg) {
    const store = await openStore({ databaseUrl: pg.url })
    const ps = await startTestServer(store, serverOpts)
    out.push({ name: 'postgres', store, s: ps, close: async () => (await ps.close(), await store.close(), await pg.stop()) })
  }
  return out
}

export interface Attacker {
  /** POST `path` (under /api/v1) with the stolen token, forging the frame's Origin and any extra header. */
  post<T = any>(path: string, body: unknown, headers?: Record<string, string>): Promise<Res<T>>
}

/** A client holding only `token` (and whatever it forges). */
export function attacker(s: TestServer, token: string, opts: { appId?: string; origin?: string } = {}): Attacker {
  return {
    post: (path, body, headers = {}) =>
      s.call(`/api/v1${path}`, {
        body,
        token,
        appId: opts.appId ?? DEMO,
        headers: { origin: opts.origin ?? FRAME_ORIGIN, referer: `${opts.origin ?? FRAME_ORIGIN}/apps/${opts.appId ?? DEMO}/embedded-wallets`, ...headers },
      }),
  }
}
