import { execFile } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Worker } from 'node:worker_threads'
import { runMigrations } from './migrate'
import type { Store, Tx } from './types'

interface Step {
  sql: string
  params?: unknown[]
  inTx: boolean
  /** A script of several statements (simple query protocol, no parameters). */
  script?: boolean
}

/**
 * Embedded PostgreSQL (WASM). `dataDir` undefined means in memory.
 *
 * The engine runs in a worker thread (pglite-worker.mjs), so its work runs on another core
 * than the API's requests and never blocks the event loop. Statements run there as named
 * prepared statements, like the `pg` pool's (postgres.ts): PGlite's own `query()` parses and
 * plans every statement again and enters the engine six times; the worker parses and
 * describes a statement once, then each execution is one protocol message and one call into
 * the engine. Parameters and results go through PGlite's own type serializers and parsers,
 * so values are exactly what `query()` gives.
 *
 * PGlite has one connection: a transaction holds the engine from BEGIN to COMMIT (BEGIN
 * travels with its first statement); other statements wait their turn.
 */
export async function openPglite(dataDir?: string): Promise<Store> {
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true })
    // A new data folder is created in a child process (see pglite-init.mjs): idle RSS stays low.
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      await promisify(execFile)(process.execPath, [fileURLToPath(new URL('./pglite-init.mjs', import.meta.url)), dataDir])
    }
  }
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } })
  const pending = new Map<number, { resolve(rows: any[]): void; reject(err: Error): void }>()
  let next = 0
  let dead: Error | null = null
  const toError = (e: Record<string, unknown>) => Object.assign(new Error(String(e.message)), e)
  // The worker keeps the process alive only while it has work (a server's listener does the rest).
  const idle = () => {
    if (!pending.size) worker.unref()
  }

  await new Promise<void>((resolve, reject) => {
    worker.once('message', (m: { ready: boolean; error?: Record<string, unknown> }) => (m.ready ? resolve() : reject(toError(m.error!))))
    worker.once('error', reject)
  })
  worker.on('message', (m: { id: number; rows?: any[]; error?: Record<string, unknown> }) => {
    const p = pending.get(m.id)
    if (!p) return
    pending.delete(m.id)
    if (m.error) p.reject(toError(m.error))
    else p.resolve(m.rows!)
    idle()
  })
  const fail = (err: Error) => {
    dead = err
    for (const p of pending.values()) p.reject(err)
    pending.clear()
  }
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the PGlite worker exited (${code})`)))
  idle()

  const send = (m: { steps?: Step[]; close?: boolean }): Promise<any[]> => {
    if (dead) return Promise.reject(dead)
    const id = ++next
    worker.ref()
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      worker.postMessage({ id, ...m })
    })
  }

  // One connection: a transaction holds it from BEGIN to COMMIT.
  let tail: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const r = tail.then(fn)
    tail = r.catch(() => {})
    return r
  }

  const store: Store = {
    kind: 'pglite',
    query: (sql, params) => exclusive(() => send({ steps: [{ sql, params, inTx: false }] })),
    transaction(fn) {
      return exclusive(async () => {
        let begun = false
        const committed: (() => void)[] = []
        // BEGIN and the first statement go as one message.
        const step = (s: Step) => {
          const steps: Step[] = begun ? [] : [{ sql: 'BEGIN', inTx: true }]
          begun = true
          steps.push(s)
          return send({ steps })
        }
        const q: Tx = {
          query: (sql, params) => step({ sql, params, inTx: true }),
          exec: async (sql) => void (await step({ sql, inTx: true, script: true })),
          afterCommit: (f) => void committed.push(f),
        }
        try {
          const out = await fn(q)
          if (begun) await send({ steps: [{ sql: 'COMMIT', inTx: false }] })
          for (const f of committed) f()
          return out
        } catch (err) {
          if (begun) await send({ steps: [{ sql: 'ROLLBACK', inTx: false }] }).catch(() => {})
          throw err
        }
      })
    },
    async migrate() {
      await runMigrations(store)
    },
    async close() {
      await exclusive(() => send({ close: true })).catch(() => {})
      await worker.terminate()
    },
  }
  return store
}
