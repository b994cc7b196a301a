import pg from 'pg'
import { runMigrations } from './migrate'
import type { Queryable, Store } from './types'

/** Real PostgreSQL through a `pg` pool. Several server processes may share one database. */
export async function openPostgres(databaseUrl: string, opts: { max?: number } = {}): Promise<Store> {
  const max = opts.max ?? (Number(process.env.DATABASE_POOL_MAX) || 10)
  const types = {
    getTypeParser(oid: number, format?: any) {
      // int8 and numeric-count results as JS numbers (all our int8 values are seconds or counts).
      if (oid === 20) return (v: string) => Number(v)
      return pg.types.getTypeParser(oid, format)
    },
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max, types: types as any })
  // An idle client's connection failed: the code only (messages may quote server text).
  pool.on('error', (err) => console.error(JSON.stringify({ level: 50, msg: 'postgres pool error', err_code: (err as { code?: string }).code ?? err.name })))
  const store: Store = {
    kind: 'postgres',
    async query(sql, params) {
      const r = await pool.query(sql, params as any[])
      return r.rows
    },
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const q: Queryable = {
          async query(sql, params) {
            const r = await client.query(sql, params as any[])
            return r.rows
          },
        }
        const out = await fn(q)
        await client.query('COMMIT')
        return out
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    async migrate() {
      await runMigrations(store)
    },
    async close() {
      await pool.end()
    },
  }
  return store
}
