/**
 * The order of `npm test`'s two phases: the unit phase (vitest.config.ts) and the browser phase
 * (vitest.e2e.config.ts). Two files run at a time, each worker taking the next file when it is
 * free, so the longest should start first: a long file started last keeps one worker busy while
 * the other has nothing left. vitest orders by the durations of the previous run when it has
 * them (its cache); on a fresh clone it has none and falls back to file size, which puts a short
 * file with a long run (the scrypt-heavy password suites, a child process, `next build`) near
 * the end. There, the files known to be long go first, in the order of their list; the rest keep
 * vitest's order. Names only decide the order: a missing or new file changes nothing else.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { relative } from 'node:path'

/**
 * The unit phase's long files, longest first (one whole unit phase from a fresh order, two at a
 * time on a 2-core machine loaded by other jobs: rotate-keys 585 s, password 561 s, consumer
 * 356 s, restart 182 s, scale 112 s, wallet-password 95 s, then 80 s down to 40 s; the median
 * file 2.7 s). The phase is bound by the sum of its files (sum / 2 = 1459 s there): replayed on
 * two workers in this list's order, by file size or by recorded duration, it ends within 2 % of
 * that bound either way;
 * the list keeps the two longest from ever starting last.
 */
export const LONG_UNIT_FILES = [
  'examples/server/test/rotate-keys.test.ts',
  'examples/server/test/attacker/password.test.ts',
  'test/consumer/consumer.test.ts',
  'test/e2e/nextjs.spec.ts',
  'examples/server/test/restart.test.ts',
  'examples/server/test/scale.test.ts',
  'examples/server/test/wallet-password.test.ts',
  'test/bench/size.test.ts',
  'examples/server/test/recovery-trust.test.ts',
  'examples/server/test/fuzz.test.ts',
  'examples/server/test/hardening.test.ts',
  'plugins/embedded-wallet/recovery/screens.test.tsx',
  'examples/server/test/delegation.test.ts',
  'examples/server/test/oauth.test.ts',
  // A local chain and a bundler started once (issue 29): 19-26 s alone (12 s CPU), 48 s on a loaded machine.
  'examples/server/test/smart-wallets.test.ts',
  'examples/server/test/api.test.ts',
  // Three server processes killed and restarted (issue 32): 38 s alone on the loaded machine.
  'examples/server/test/webhooks-kill.test.ts',
]

/**
 * The browser phase's long spec files, longest first (the durations vitest recorded for the
 * last whole browser phase, two at a time on the loaded 2-core machine: embedded-wallet 300 s,
 * journeys 184 s, email 162 s, oauth 128 s, external-wallets 103 s, wallet-export-delegation
 * 86 s, wallet-recovery 79 s, bench 76 s, funding 66 s, mfa 58 s; the median spec 37 s). On a
 * fresh clone demo-start builds the demo app (over 100 s then), so it comes early too.
 */
export const LONG_SPECS = [
  'embedded-wallet',
  'journeys',
  'demo-start',
  'email',
  'oauth',
  'external-wallets',
  'wallet-export-delegation',
  'wallet-recovery',
  'bench',
  // Starts a local chain and the Alto bundler (about 5 s) before its browser work.
  'smart-wallet',
  'funding',
  'mfa',
].map((name) => `test/e2e/${name}.spec.ts`)

/** A sequencer that starts `long` (paths from the repository root) first on a run without durations. */
export function longFirst(long: string[]): typeof BaseSequencer {
  return class LongFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files)
      const path = (f: TestSpecification) => relative(this.ctx.config.root, f.moduleId).split('\\').join('/')
      if (sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`))) return sorted
      const rank = (f: TestSpecification) => {
        const i = long.indexOf(path(f))
        return i < 0 ? long.length : i
      }
      return [...sorted].sort((a, b) => rank(a) - rank(b))
    }
  }
}

/**
 * Browser specs that run in the unit phase, with a Chromium of their own (the harness launches
 * one where the browser phase's shared one is not offered). The browser phase is the longer of
 * the two (a quiet fresh run: unit 871 s, browser 1,096 s, the machine partly idle once the
 * unit phase ended); nextjs is mostly `next build` from the packed tarball, which the unit
 * phase's consumer suite packs, and one login in the page. Still a browser flow in test/e2e,
 * and `npm run test:e2e -- test/e2e/nextjs.spec.ts` or the default config runs it alone.
 */
export const UNIT_PHASE_SPECS = ['test/e2e/nextjs.spec.ts']
