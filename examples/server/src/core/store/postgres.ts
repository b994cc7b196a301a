import { createHash } from 'node:crypto'
import pg from 'pg'
import { runMigrations } from './migrate'
import type { Store, Tx } from './types'

/**
 * Parameterised queries run as named prepared statements: each connection parses and plans a
 * statement once, then only binds and executes it (the server's SQL is a small fixed set).
 */
const names = new Map<string, string>()
async function run(c: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<any[]> {
  if (!params?.length) return (await c.query(sql)).rows
  let name = names.get(sql)
  if (!name) {
    name = `p_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`
    names.set(sql, name)
  }
  return (await c.query({ name, text: sql, values: params as any[] })).rows
}

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
  // Pipeline mode: a query is written without waiting for the one before it to be answered,
  // so a transaction's BEGIN travels with its first statement (one round trip less each).
  const pool = new pg.Pool({ connectionString: databaseUrl, max, types: types as any, pipeline: true } as pg.PoolConfig)
  // An idle client's connection failed: the code only (messages may quote server text).
  pool.on('error', (err) => console.error(JSON.stringify({ level: 50, msg: 'postgres pool error', err_code: (err as { code?: string }).code ?? err.name })))
  // LISTEN/NOTIFY: one dedicated connection per store, opened at the first listen(); on an
  // error it is dropped and re-opened after a second (polling covers the gap).
  const handlers = new Map<string, Set<(payload: string) => void>>()
  let listening: Promise<pg.Client | null> | null = null
  let retry: NodeJS.Timeout | null = null
  let closed = false
  const listener = (): Promise<pg.Client | null> =>
    (listening ??= (async () => {
      if (closed) return null
      const c = new pg.Client({ connectionString: databaseUrl })
      const lost = (err?: Error) => {
        if (err) console.error(JSON.stringify({ level: 40, msg: 'postgres listen connection lost', err_code: (err as { code?: string }).code ?? err.name }))
        c.removeAllListeners('notification')
        c.on('error', () => {})
        void c.end().catch(() => {})
        listening = null
        if (!closed && !retry) {
          retry = setTimeout(() => {
            retry = null
            void listener().catch(() => {})
          }, 1000)
          retry.unref()
        }
      }
      c.on('error', lost)
      c.on('notification', (m) => {
        for (const f of handlers.get(m.channel) ?? []) {
          try {
            f(m.payload ?? '')
          } catch {}
        }
      })
      try {
        await c.connect()
        for (const ch of handlers.keys()) await c.query(`LISTEN "${ch}"`)
      } catch (err) {
        lost(err as Error)
        return null
      }
      return c
    })())
  const store: Store = {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect()
      let begun = false
      const committed: (() => void)[] = []
      try {
        const q: Tx = {
          async query(sql, params) {
            if (begun) return run(client, sql, params)
            begun = true
            // BEGIN and the first statement leave together; both answers are awaited.
            const [, rows] = await Promise.all([client.query('BEGIN'), run(client, sql, params)])
            return rows
          },
          // Without parameters `pg` sends the simple query protocol, which takes several statements.
          exec: async (script) => void (await q.query(script)),
          afterCommit: (f) => void committed.push(f),
        }
        const out = await fn(q)
        if (begun) await client.query('COMMIT')
        for (const f of committed) f()
        return out
      } catch (err) {
        if (begun) await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    async migrate() {
      await runMigrations(store)
    },
    listen(channel, fn) {
      let set = handlers.get(channel)
      if (!set) {
        handlers.set(channel, (set = new Set()))
        void listener().then((c) => c?.query(`LISTEN "${channel}"`)).catch(() => {})
      }
      set.add(fn)
      return () => void set.delete(fn)
    },
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      const c = await listening?.catch(() => null)
      listening = null
      await c?.end().catch(() => {})
      await pool.end()
    },
  }
  return store
}
