/**
 * The order of the browser phase's spec files (vitest.e2e.config.ts). Two run at a time, each
 * worker taking the next file when it is free, so the longest should start first: a long file
 * started last keeps one worker busy while the other has nothing left. vitest orders by the
 * durations of the previous run when it has them (its cache); on a fresh clone it has none and
 * falls back to file size, which puts a short file with a long set-up (nextjs: `next build`;
 * bench: a child process) near the end. There, the spec files known to be long go first, in
 * this order; the rest keep vitest's order. Names only decide the order: a missing or new
 * spec changes nothing else.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { relative } from 'node:path'

/**
 * Longest first, set-up included (one spec at a time on the loaded 2-core machine: nextjs 176 s
 * with its pack build, journeys 169 s, demo-start 118 s with its app build, wallet-recovery 101 s,
 * email 104 s, external-wallets 91 s, funding 92 s, oauth 82 s, bench 72 s; the median spec 45 s).
 */
export const LONG_SPECS = ['nextjs', 'journeys', 'demo-start', 'wallet-recovery', 'email', 'external-wallets', 'funding', 'oauth', 'bench']

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const key = (f: TestSpecification) => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(key(f)))) return sorted
    const rank = (f: TestSpecification) => {
      const i = LONG_SPECS.findIndex((name) => f.moduleId.endsWith(`/test/e2e/${name}.spec.ts`))
      return i < 0 ? LONG_SPECS.length : i
    }
    return [...sorted].sort((a, b) => rank(a) - rank(b))
  }
}
