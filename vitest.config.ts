import { defineConfig } from 'vitest/config'
import { sourceAliases } from './source-aliases'
import { LONG_UNIT_FILES, longFirst } from './test/sequencer'

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ['**/*.test.{ts,tsx}', 'test/e2e/**/*.spec.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '.data/**'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    // One PostgreSQL per run with a migrated template (where installed): suites copy it.
    globalSetup: ['test/global-setup.ts'],
    // A deadline, not a wait: browser flows (a login, a link, a code from the outbox) wait for
    // the states they assert, and on a busy 2-core machine a whole flow can take 20 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser and server suites start processes of their own; keep the 2-core machines calm.
    maxWorkers: 2,
    // A worker runs its files in one module graph (as the browser phase does): each file no
    // longer loads and evaluates the kernel, the server and their libraries again. About a
    // quarter of the unit phase's CPU time; every suite passes either way
    // (`npx vitest run --isolate` to check a file that leaks state).
    isolate: false,
    // The long files first on a fresh clone (no durations cached): test/sequencer.ts.
    sequence: { sequencer: longFirst(LONG_UNIT_FILES) },
  },
})
