/**
 * Set-up for every spec file of the browser phase (vitest.e2e.config.ts). The spec files of a
 * worker share one process there (no per-file isolation: the server's and the harness's modules
 * load once per worker), so what a spec sets in `process.env` for its server (a stand-in's URL,
 * PORTICO_OAUTH_BASE_URL …) is put back when its file ends, as a process of its own would.
 */
import { afterAll } from 'vitest'

const before = { ...process.env }

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key]
  for (const [key, value] of Object.entries(before)) if (process.env[key] !== value) process.env[key] = value
})
