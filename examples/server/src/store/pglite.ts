import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { runMigrations } from './migrate'
import type { Queryable, Store } from './types'

/** Embedded PostgreSQL (WASM). `dataDir` undefined means in memory. */
export async function openPglite(dataDir?: string): Promise<Store> {
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const db = new PGlite(dataDir)
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
