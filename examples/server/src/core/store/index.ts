import type { Store } from './types'
export type { Store, Queryable, Tx } from './types'
export { isUniqueViolation } from './types'

/** PostgreSQL when `databaseUrl` is set, otherwise PGlite in `dataDir` (in memory when absent). Migrated unless `migrate: false`. */
export async function openStore(opts: { databaseUrl?: string; dataDir?: string; migrate?: boolean }): Promise<Store> {
  let store: Store
  if (opts.databaseUrl) {
    const { openPostgres } = await import('./postgres')
    store = await openPostgres(opts.databaseUrl)
  } else {
    const { openPglite } = await import('./pglite')
    store = await openPglite(opts.dataDir)
  }
  if (opts.migrate !== false) await store.migrate()
  return store
}
