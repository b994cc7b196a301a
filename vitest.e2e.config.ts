/**
 * The browser phase of `npm test` (test/e2e/*.spec.ts): the base config plus
 * - two spec files at a time (maxWorkers 2; the base config's 2-core limit),
 * - one Chromium for the whole run (test/e2e/global-setup.ts; the harness connects to it),
 * - spec files of a worker in one process (`isolate: false`): the reference server's modules,
 *   playwright and the harness load once per worker, not once per spec file; test/e2e/setup.ts
 *   puts back what a spec set in process.env,
 * - the long spec files first (test/e2e/sequencer.ts), so no long one is left for the end.
 * `npx vitest run test/e2e/x.spec.ts` (the base config) still runs a spec on its own.
 */
import { defineConfig } from 'vitest/config'
import base from './vitest.config'
import LongFirstSequencer from './test/e2e/sequencer'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/e2e/**/*.spec.ts'],
    globalSetup: [...(base.test?.globalSetup as string[]), 'test/e2e/global-setup.ts'],
    setupFiles: [...(base.test?.setupFiles as string[]), 'test/e2e/setup.ts'],
    isolate: false,
    fileParallelism: true,
    sequence: { ...base.test?.sequence, sequencer: LongFirstSequencer },
  },
})
