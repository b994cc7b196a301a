import { describe, expect, it } from 'vitest'
import { lazyOnce } from './lazy'

describe('lazyOnce', () => {
  it('loads once for callers at the same time, keeps the value, and tries a failed load again', async () => {
    let calls = 0
    let fail = true
    const flow = lazyOnce(async () => {
      calls++
      if (fail) throw new Error('chunk failed')
      return { n: calls }
    })
    expect(flow.current).toBeUndefined()
    await expect(Promise.all([flow(), flow()])).rejects.toThrow('chunk failed')
    expect(calls).toBe(1)
    fail = false
    const [a, b] = await Promise.all([flow(), flow()])
    expect(calls).toBe(2)
    expect(a).toBe(b)
    expect(flow.current).toBe(a)
    expect(await flow()).toBe(a)
    expect(calls).toBe(2)
  })
})
