/**
 * The PostgreSQL suites' start (startPostgres): without a PostgreSQL server they are skipped with
 * the reason, except under CI=true, where the suite fails. PORTICO_PROBE_ROOT points the search at
 * an empty folder (a machine without PostgreSQL).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { startPostgres } from './helpers'

const empty = mkdtempSync(join(tmpdir(), 'portico-nopg-'))
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})
process.on('exit', () => rmSync(empty, { recursive: true, force: true }))

it('no PostgreSQL, not CI: skipped (null) with the reason', async () => {
  vi.stubEnv('PORTICO_PROBE_ROOT', empty)
  vi.stubEnv('CI', '')
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const pg = await startPostgres()
  await pg?.stop() // (had it found one after all)
  expect(pg).toBeNull()
  expect(warn).toHaveBeenCalledWith(
    '[portico] PostgreSQL suites: skipped: no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin) (apt-get install postgresql)',
  )
})

it('no PostgreSQL under CI=true: the suite fails instead of vanishing', async () => {
  vi.stubEnv('PORTICO_PROBE_ROOT', empty)
  vi.stubEnv('CI', 'true')
  const outcome = await startPostgres().then(
    async (pg) => (await pg?.stop(), 'resolved'),
    (err: Error) => err.message,
  )
  expect(outcome).toBe(
    'PostgreSQL suites: required in CI (CI=true), but no PostgreSQL server found (initdb and postgres on PATH or in /usr/lib/postgresql/*/bin). Install it: apt-get install postgresql',
  )
})
