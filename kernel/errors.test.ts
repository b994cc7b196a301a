/** The error catalogue (./errors.ts). */
import { describe, expect, it } from 'vitest'
import { PorticoError } from './errors'

describe('PorticoError', () => {
  it('PorticoError.walk goes through causes', () => {
    const inner = Object.assign(new Error('rejected'), { code: 4001 })
    const err = new PorticoError('x', 'outer', { cause: new Error('mid', { cause: inner }) })
    expect([...err.walk()].map((e) => (e as Error).message)).toEqual(['outer', 'mid', 'rejected'])
    expect([...PorticoError.walk(null)]).toEqual([])
  })
})
