import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LONG_SPECS, LONG_UNIT_FILES } from './sequencer'

const ROOT = join(import.meta.dirname, '..')

describe('the long-first lists (test/sequencer.ts)', () => {
  it('name files that exist, once each: a renamed suite would quietly start last on a fresh clone', () => {
    for (const list of [LONG_UNIT_FILES, LONG_SPECS]) {
      expect(list.filter((p) => !existsSync(join(ROOT, p)))).toEqual([])
      expect(new Set(list).size).toBe(list.length)
    }
    expect(LONG_UNIT_FILES.filter((p) => p.startsWith('test/e2e/'))).toEqual([])
    expect(LONG_SPECS.filter((p) => !/^test\/e2e\/[^/]+\.spec\.ts$/.test(p))).toEqual([])
  })
})
