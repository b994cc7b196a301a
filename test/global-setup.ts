/**
 * Once per `vitest run`: where PostgreSQL is installed (always in CI), one throw-away cluster
 * with a migrated template database. A suite's test database is then a copy of that template
 * (`CREATE DATABASE … TEMPLATE`, ~50 ms) instead of a new PGlite instance that starts its WASM
 * and runs every migration (~4 s each). Suites that test PGlite itself open it explicitly
 * (openTestPglite, the stores' own tests); the e2e demo start runs PGlite as users do.
 *
 * PORTICO_TEST_DB=pglite keeps every suite on PGlite (the product's default store).
 */
import type { TestProject } from 'vitest/node'
import { TEMPLATE_DB, startPostgres } from '../examples/server/test/helpers'
import { openStore } from '../examples/server/src/store'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's admin URL (database `postgres`) when suites copy the migrated template; null on PGlite. */
    pgTemplateAdminUrl: string | null
  }
}

export default async function setup(project: TestProject) {
  project.provide('pgTemplateAdminUrl', null)
  if (process.env.PORTICO_TEST_DB === 'pglite') return
  const pg = await startPostgres()
  if (!pg) return
  const { default: pgLib } = await import('pg')
  const admin = new pgLib.Client({ connectionString: pg.url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`)
  await admin.end()
  const template = await openStore({ databaseUrl: pg.url.replace(/\/postgres$/, `/${TEMPLATE_DB}`) })
  await template.close()
  project.provide('pgTemplateAdminUrl', pg.url)
  return () => pg.stop()
}
