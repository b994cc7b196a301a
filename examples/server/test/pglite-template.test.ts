/** A database started from the migrated template holds what a migrated new database holds, and starts faster. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openPglite } from '../src/store/pglite'
import { migratedTemplate, openMigratedPglite, templateKey } from '../src/store/pglite-template'

const dir = mkdtempSync(join(tmpdir(), 'portico-pglite-template-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const schema = `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`

describe('migrated PGlite template', () => {
  it('has the schema and applied migrations of a freshly migrated database; databases from it are independent', async () => {
    const fresh = await openPglite()
    await fresh.migrate()
    const file = await migratedTemplate(dir)
    expect(file).toContain(templateKey())
    const [a, b] = await Promise.all([openMigratedPglite(dir), openMigratedPglite(dir)])
    try {
      expect(await a.query(schema)).toEqual(await fresh.query(schema))
      const applied = 'SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1'
      expect(await a.query(applied, ['public'])).toEqual(await fresh.query(applied, ['public']))
      await a.query("INSERT INTO users (id, app_id, created_at) VALUES ('u-template', 'app', 1)")
      expect(await b.query("SELECT id FROM users WHERE id = 'u-template'")).toEqual([])
      expect(await a.query("SELECT id FROM users WHERE id = 'u-template'")).toEqual([{ id: 'u-template' }])
    } finally {
      await Promise.all([a.close(), b.close(), fresh.close()])
    }
    // One dump, made once.
    await migratedTemplate(dir)
    expect(readdirSync(dir).filter((f) => f.startsWith('pglite-template-'))).toHaveLength(1)
  }, 180_000)
})
