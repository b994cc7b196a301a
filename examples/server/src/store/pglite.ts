import { execFile } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { runMigrations } from './migrate'
import type { Queryable, Store } from './types'

/**
 * Memory settings for the embedded server: PostgreSQL's default 128 MB of shared buffers
 * is sized for a machine of its own; this database lives inside the API process.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=32MB', '-c', 'work_mem=2MB', '-c', 'maintenance_work_mem=16MB', '-c', 'temp_buffers=2MB'],
]

/** Embedded PostgreSQL (WASM). `dataDir` undefined means in memory. */
export async function openPglite(dataDir?: string): Promise<Store> {
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true })
    // A new data folder is created in a child process (see pglite-init.mjs): idle RSS stays low.
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      await promisify(execFile)(process.execPath, [fileURLToPath(new URL('./pglite-init.mjs', import.meta.url)), dataDir])
    }
  }
  const db = new PGlite(dataDir, { startParams: START_PARAMS })
  await db.waitReady
  const store: Store = {
    kind: 'pglite',
    async query(sql, params) {
      const r = await db.query(sql, params as any[])
      return r.rows as any[]
    },
    transaction(fn) {
      return db.transaction(async (tx) => {
        const q: Queryable = {
          async query(sql, params) {
            const r = await tx.query(sql, params as any[])
            return r.rows as any[]
          },
        }
        return fn(q)
      })
    },
    async migrate() {
      await runMigrations(store)
    },
    async close() {
      await db.close()
    },
  }
  return store
}
