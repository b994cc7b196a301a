/**
 * The unit phase of `npm test` (scripts/test-run.mjs; `npm run test:unit`): the base config's
 * unit, kit, contract and server suites, and the few browser specs that run in this phase
 * (test/sequencer.ts UNIT_PHASE_SPECS: the browser phase is the longer one, so work that is
 * mostly not the browser's moves here). The other spec files of test/e2e are the browser
 * phase's (vitest.e2e.config.ts).
 */
import { defineConfig } from 'vitest/config'
import base from './vitest.config'
import { UNIT_PHASE_SPECS } from './test/sequencer'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // The base's patterns without the browser specs, then the ones this phase runs.
    include: [...(base.test?.include ?? []).filter((p) => !p.startsWith('test/e2e/')), ...UNIT_PHASE_SPECS],
  },
})
