import { execFile } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { PGlite, parse, protocol } from '@electric-sql/pglite'
import { runMigrations } from './migrate'
import type { Store } from './types'

/**
 * Memory settings for the embedded server: PostgreSQL's default 128 MB of shared buffers
 * is sized for a machine of its own; this database lives inside the API process.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=32MB', '-c', 'work_mem=2MB', '-c', 'maintenance_work_mem=16MB', '-c', 'temp_buffers=2MB'],
]

/**
 * Embedded PostgreSQL (WASM). `dataDir` undefined means in memory.
 *
 * Statements run as named prepared statements, like the `pg` pool's (postgres.ts): PGlite's
 * own `query()` parses and plans every statement again and enters the WASM engine six
 * times (parse, describe, bind, describe, execute, sync); here a statement is parsed and
 * described once, then each execution is one protocol message (bind, describe, execute,
 * sync) and one call into the engine. Parameters and results go through PGlite's own type
 * serializers and parsers, so values are exactly what `query()` gives.
 */
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
  const { serialize } = protocol
  const prepared = new Map<string, Promise<{ name: string; types: number[] }>>()
  let statements = 0

  const message = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const p of parts) {
      out.set(p, at)
      at += p.length
    }
    return out
  }

  /** One statement; the caller holds the engine (runExclusive). `inTx`: no file-system sync yet. */
  async function run(sql: string, params: unknown[] | undefined, inTx: boolean): Promise<any[]> {
    let name = ''
    let types: number[] = []
    if (params?.length) {
      let st = prepared.get(sql)
      if (!st) {
        // Parsed and described once (parameter types for the serializers); a statement that
        // fails to parse rejects here and is forgotten.
        const stName = `p${++statements}`
        st = db
          .execProtocol(message([serialize.parse({ name: stName, text: sql }), serialize.describe({ type: 'S', name: stName }), serialize.sync()]), {
            syncToFs: false,
          })
          .then((r) => ({ name: stName, types: parse.parseDescribeStatementResults(r.messages) }))
        prepared.set(sql, st)
        st.catch(() => prepared.delete(sql))
      }
      ;({ name, types } = await st)
    }
    const values = (params ?? []).map((v, i) => {
      if (v === null || v === undefined) return null
      const ser = db.serializers[types[i]]
      return ser ? ser(v) : String(v)
    })
    const parts = name ? [] : [serialize.parse({ text: sql })]
    parts.push(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync())
    const r = await db.execProtocol(message(parts), { syncToFs: !inTx })
    return parse.parseResults(r.messages, db.parsers)[0]?.rows ?? []
  }

  const store: Store = {
    kind: 'pglite',
    query: (sql, params) => db.runExclusive(() => run(sql, params, false)),
    transaction(fn) {
      return db.runExclusive(async () => {
        await run('BEGIN', undefined, true)
        try {
          const out = await fn({ query: (sql, params) => run(sql, params, true) })
          await run('COMMIT', undefined, false)
          return out
        } catch (err) {
          await run('ROLLBACK', undefined, false).catch(() => {})
          throw err
        }
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
