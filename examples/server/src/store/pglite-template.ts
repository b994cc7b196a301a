/**
 * A migrated PGlite database to start test and demo databases from. Creating a PGlite
 * database runs initdb inside WASM (about 7 s on a quiet two-core machine, most of a test
 * server's start); loading a dumped data folder skips it (about a fifth of that). The dump is
 * made once per set of migrations and PGlite version and kept in `cacheDir`.
 *
 * ```ts
 * const store = await openMigratedPglite('.tmp')   // in memory, migrated, from the cached dump
 * ```
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openPglite } from './pglite'
import type { Store } from './types'

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url))

/** Names the dump after what it holds: every migration's text, PGlite's version, the worker's settings. */
export function templateKey(): string {
  const h = createHash('sha256')
  for (const f of readdirSync(MIGRATIONS).sort()) h.update(f).update(readFileSync(join(MIGRATIONS, f)))
  // PGlite's version: its package.json is not exported, so read it beside the resolved entry.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const pkgFile = join(entry.slice(0, entry.lastIndexOf(`${'@electric-sql'}/pglite`) + '@electric-sql/pglite'.length), 'package.json')
  h.update(JSON.parse(readFileSync(pkgFile, 'utf8')).version).update(readFileSync(fileURLToPath(new URL('./pglite-worker.mjs', import.meta.url))))
  return h.digest('hex').slice(0, 16)
}

/** The path of the migrated dump in `cacheDir`, made first if missing (safe when several processes race: write, then rename). */
export async function migratedTemplate(cacheDir: string): Promise<string> {
  const file = join(cacheDir, `pglite-template-${templateKey()}.tar`)
  if (existsSync(file)) return file
  mkdirSync(cacheDir, { recursive: true })
  const store = await openPglite()
  try {
    await store.migrate()
    const tmp = `${file}.${process.pid}.${Date.now()}`
    writeFileSync(tmp, await store.dump())
    renameSync(tmp, file)
  } finally {
    await store.close()
  }
  return file
}

/** An in-memory PGlite database started from the migrated template (migrations then find nothing to do). */
export async function openMigratedPglite(cacheDir: string): Promise<Store> {
  const file = await migratedTemplate(cacheDir)
  let template: Uint8Array
  try {
    template = readFileSync(file)
  } catch {
    // Removed between the check and the read (another run cleaning .tmp): make it again.
    template = readFileSync(await migratedTemplate(cacheDir))
  }
  const store = await openPglite(undefined, { template })
  await store.migrate()
  return store
}
