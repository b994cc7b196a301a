// Creates a PGlite data folder (initdb) in a short-lived process: initdb grows the WASM heap
// to about 800 MB, which a long-running server would otherwise keep for its whole life.
import { PGlite } from '@electric-sql/pglite'

const db = new PGlite(process.argv[2])
await db.waitReady
await db.close()
