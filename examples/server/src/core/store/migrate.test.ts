import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPglite } from './pglite'
import { pendingMigrations } from './migrate'
import type { Store } from './types'

let store: Store
beforeAll(async () => {
  store = await openPglite()
})
afterAll(() => store?.close())

it('migrates a new database, and a second run applies nothing', async () => {
  expect((await pendingMigrations(store)).length).toBeGreaterThan(10)
  await store.migrate()
  expect(await pendingMigrations(store)).toEqual([])
  const [{ n }] = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')
  await store.migrate()
  expect((await store.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations'))[0].n).toBe(n)
})

it('a script runs as PostgreSQL parses it: semicolons in strings, comments and $$ bodies, in one transaction', async () => {
  await store.transaction((tx) =>
    tx.exec(`
      CREATE TABLE script_probe (v text);
      -- a comment; with a semicolon
      INSERT INTO script_probe VALUES ('a;b'), ('c;
      d');
      CREATE FUNCTION script_probe_f() RETURNS int LANGUAGE plpgsql AS $$
      BEGIN
        RETURN 1; -- a statement inside the body
      END;
      $$;
    `),
  )
  expect((await store.query<{ v: string }>('SELECT v FROM script_probe ORDER BY v')).map((r) => r.v)).toEqual(['a;b', 'c;\n      d'])
  expect((await store.query<{ f: number }>('SELECT script_probe_f() AS f'))[0].f).toBe(1)
  // A failing script leaves nothing behind.
  await expect(store.transaction((tx) => tx.exec(`CREATE TABLE script_gone (v int); SELECT nope FROM nowhere;`))).rejects.toThrow()
  expect(await store.query(`SELECT 1 FROM pg_tables WHERE tablename = 'script_gone'`)).toEqual([])
})
