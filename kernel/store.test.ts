/** The one small store (./store.ts). */
import { describe, expect, it } from 'vitest'
import { createStore } from './store'

describe('createStore', () => {
  it('merges patches, applies updaters, notifies only on change, resets', () => {
    const s = createStore({ a: 1, b: 'x' })
    const seen: unknown[] = []
    const off = s.subscribe((v) => seen.push(v))
    s.set({ a: 2 })
    s.set({ a: 2 }) // no change: no notification
    s.set((v) => ({ ...v, b: 'y' }))
    expect(s.get()).toEqual({ a: 2, b: 'y' })
    expect(Object.isFrozen(s.get())).toBe(true)
    s.reset()
    expect(s.get()).toEqual({ a: 1, b: 'x' })
    off()
    s.set({ a: 9 })
    expect(seen).toHaveLength(3)
  })
})
