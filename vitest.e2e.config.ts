/**
 * The browser phase of `npm test` (test/e2e/*.spec.ts): the base config plus
 * - two spec files at a time (PORTICO_E2E_WORKERS=1 for one): twice green on a quiet 2-core
 *   machine (823 s and 892 s for the 34 spec files); under a machine loaded by other
 *   jobs (load 20-40) the heaviest specs' deadlines (next build, the axe pass over four landings)
 *   ran out, so set 1 there,
 * - one Chromium for the whole run (test/e2e/global-setup.ts; the harness connects to it),
 * - spec files of a worker in one process (`isolate: false`): the reference server's modules,
 *   playwright and the harness load once per worker, not once per spec file; test/e2e/setup.ts
 *   puts back what a spec set in process.env,
 * - the long spec files first (test/sequencer.ts), so with two workers no long one is left
 *   for the end; the few specs of UNIT_PHASE_SPECS run in the unit phase instead.
 * `npx vitest run test/e2e/x.spec.ts` (the base config) still runs a spec on its own.
 */
import { defineConfig } from 'vitest/config'
import base from './vitest.config'
import { LONG_SPECS, UNIT_PHASE_SPECS, longFirst } from './test/sequencer'

const workers = Math.max(1, Math.min(2, Number(process.env.PORTICO_E2E_WORKERS) || 2))

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/e2e/**/*.spec.ts'],
    // The unit phase runs these (test/sequencer.ts UNIT_PHASE_SPECS).
    exclude: [...(base.test?.exclude ?? []), ...UNIT_PHASE_SPECS],
    globalSetup: [...(base.test?.globalSetup as string[]), 'test/e2e/global-setup.ts'],
    setupFiles: [...(base.test?.setupFiles as string[]), 'test/e2e/setup.ts'],
    isolate: false,
    maxWorkers: workers,
    fileParallelism: workers > 1,
    sequence: { ...base.test?.sequence, sequencer: longFirst(LONG_SPECS) },
  },
})
