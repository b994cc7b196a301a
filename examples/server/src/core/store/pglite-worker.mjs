// The PGlite engine on its own thread (store/pglite.ts starts it): the WASM PostgreSQL runs
// here, so its work uses the second core and never blocks the API's event loop. Plain
// JavaScript, so that it loads in any runner (tsx, vitest) without a TypeScript loader.
//
// Messages: {id, steps: [{sql, params, inTx, script?}]} runs the steps in order and answers
// {id, rows} (the last step's rows) or {id, error}; {id, close: true} closes the database.
// The main thread holds the engine for a whole transaction, so only that transaction's
// messages arrive meanwhile (several may be in flight: a pipelined transaction sends its next
// statement before the first answers); messages are handled strictly in order.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, parse, protocol } from '@electric-sql/pglite'

/**
 * Memory settings for the embedded server: PostgreSQL's default 128 MB of shared buffers
 * is sized for a machine of its own; this database lives inside the API process.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=32MB', '-c', 'work_mem=2MB', '-c', 'maintenance_work_mem=16MB', '-c', 'temp_buffers=2MB'],
]

const db = new PGlite(workerData.dataDir ?? undefined, { startParams: START_PARAMS })
const { serialize } = protocol
/** sql → prepared statement name and parameter types. */
const prepared = new Map()
let statements = 0

const message = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * One statement as a named prepared statement: parsed and described once (parameter types
 * for the serializers), then each execution is one protocol message (bind, describe,
 * execute, sync) and one call into the engine. `inTx`: no file-system sync yet.
 */
async function run(sql, params, inTx) {
  let name = ''
  let types = []
  if (params?.length) {
    let st = prepared.get(sql)
    if (!st) {
      const stName = `p${++statements}`
      // A statement that fails to parse rejects here and is forgotten.
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

/** A script of several statements (a migration): the simple query protocol, as PGlite's own exec(). */
async function script(sql, inTx) {
  try {
    await db.execProtocol(serialize.query(sql), { syncToFs: false })
  } finally {
    await db.execProtocol(serialize.sync(), { syncToFs: !inTx })
  }
  return []
}

/** An error as plain data: its message, name and PostgreSQL fields (code, detail ...). */
function plain(err) {
  const out = { message: String(err?.message ?? err), name: err?.name ?? 'Error' }
  if (err && typeof err === 'object') {
    for (const [k, v] of Object.entries(err)) {
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v
    }
  }
  return out
}

let tail = db.waitReady
parentPort.on('message', (m) => {
  tail = tail.then(async () => {
    try {
      if (m.close) {
        await db.close()
        parentPort.postMessage({ id: m.id, rows: [] })
        return
      }
      let rows = []
      for (const s of m.steps) rows = s.script ? await script(s.sql, s.inTx) : await run(s.sql, s.params, s.inTx)
      parentPort.postMessage({ id: m.id, rows })
    } catch (err) {
      parentPort.postMessage({ id: m.id, error: plain(err) })
    }
  })
})
db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (err) => parentPort.postMessage({ ready: false, error: plain(err) }),
)
