import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LONG_SPECS, LONG_UNIT_FILES, UNIT_PHASE_SPECS } from './sequencer'

const ROOT = join(import.meta.dirname, '..')

describe('the long-first lists (test/sequencer.ts)', () => {
  it('name files that exist, once each: a renamed suite would quietly start last on a fresh clone', () => {
    for (const list of [LONG_UNIT_FILES, LONG_SPECS, UNIT_PHASE_SPECS]) {
      expect(list.filter((p) => !existsSync(join(ROOT, p)))).toEqual([])
      expect(new Set(list).size).toBe(list.length)
    }
    // A browser spec is in the unit phase's list only when that phase runs it.
    expect(LONG_UNIT_FILES.filter((p) => p.startsWith('test/e2e/') && !UNIT_PHASE_SPECS.includes(p))).toEqual([])
    expect(LONG_SPECS.filter((p) => UNIT_PHASE_SPECS.includes(p))).toEqual([])
    expect(LONG_SPECS.filter((p) => !/^test\/e2e\/[^/]+\.spec\.ts$/.test(p))).toEqual([])
  })
})
