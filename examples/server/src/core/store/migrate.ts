import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Store } from './types'

/** The folder of the migration files. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url))

/** The migration files' names, in the order they apply. */
export const migrationNames = (): string[] => readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()

/** Applies migrations/*.sql in name order, each once, under an advisory lock. */
export async function runMigrations(store: Pick<Store, 'transaction' | 'query'>): Promise<string[]> {
  const files = migrationNames()
  const applied: string[] = []
  await store.transaction(async (tx) => {
    // Serialises concurrent starters (several processes on one PostgreSQL).
    await tx.query('SELECT pg_advisory_xact_lock(727274)')
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at bigint NOT NULL)',
    )
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name))
    for (const f of files) {
      if (done.has(f)) continue
      // The whole file in one call: PostgreSQL's own parser splits it (no splitter of ours).
      await tx.exec(readFileSync(MIGRATIONS_DIR + f, 'utf8'))
      await tx.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [
        f,
        Math.floor(Date.now() / 1000),
      ])
      applied.push(f)
    }
  })
  return applied
}

/** Migration files not yet applied (for PORTICO_MIGRATE_ON_START=0). */
export async function pendingMigrations(store: Pick<Store, 'query'>): Promise<string[]> {
  const files = migrationNames()
  let done = new Set<string>()
  try {
    done = new Set((await store.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name))
  } catch {}
  return files.filter((f) => !done.has(f))
}
