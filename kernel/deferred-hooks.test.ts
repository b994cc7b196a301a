import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createSyncWaterfallHook } from './tapable'

/* eslint-disable @typescript-eslint/no-explicit-any -- the same taps on the real and the deferred hooks */
type Any = any

// Each test gets a fresh copy of the module: before its loadHooks(), tapable is not in.
let mod: typeof import('./deferred-hooks')
beforeEach(async () => {
  vi.resetModules()
  mod = await import('./deferred-hooks')
})

describe('hooks whose tapable loads with start-up', () => {
  it('replays the taps made before the load in tapable order (stage, before) and answers like tapable', async () => {
    const deferred: Any = mod.deferSyncWaterfallHook<[string[]]>(['list'], 'list')
    const real: Any = createSyncWaterfallHook<[string[]]>(['list'], 'list')
    const interceptor = { call: vi.fn(), register: (tap: Any) => ({ ...tap, fn: (l: string[]) => [...tap.fn(l), `${tap.name}!`] }) }
    for (const h of [deferred, real]) {
      h.tap('a', (l: string[]) => [...l, 'a'])
      h.tap({ name: 'late', stage: 10 }, (l: string[]) => [...l, 'late'])
      h.intercept(interceptor)
      h.tap({ name: 'early', before: 'a' }, (l: string[]) => [...l, 'early'])
    }
    expect(deferred.isUsed()).toBe(true)
    expect(deferred.taps.map((t: Any) => t.name)).toEqual(['a', 'late', 'early'])
    await mod.loadHooks()
    expect(deferred.call([])).toEqual(real.call([]))
    expect(deferred.call([])).toEqual(['early', 'early!', 'a', 'a!', 'late', 'late!'])
    expect(deferred.taps.map((t: Any) => t.name)).toEqual(['early', 'a', 'late'])
    expect(interceptor.call).toHaveBeenCalledTimes(3) // two calls of the deferred hook, one of the real one
    // After the load it is tapable's own hook: a new tap goes straight in.
    deferred.tap({ name: 'first', stage: -5 }, (l: string[]) => [...l, 'first'])
    expect(deferred.call([])[0]).toBe('first')
  })

  it('checks a tap where tapable does: an empty name, a bad options value, tapPromise on a sync hook', () => {
    const h: Any = mod.deferSyncBailHook<[number], number>(['n'], 'errorView')
    expect(() => h.tap('  ', () => 1)).toThrow('Missing name for tap')
    expect(() => h.tap({ stage: 1 }, () => 1)).toThrow('Missing name for tap')
    expect(() => h.tapPromise('p', async () => 1)).toThrow(/only tap is supported/)
    expect(() => h.tapAsync('p', () => {})).toThrow(/only tap is supported/)
    expect(h.isUsed()).toBe(false)
  })

  it('before the load: an untapped sync hook answers as tapable does; a tapped one refuses with a clear error', () => {
    const waterfall: Any = mod.deferSyncWaterfallHook<[string[]]>(['list'], 'loginMethods')
    const bail: Any = mod.deferSyncBailHook<[number], number>(['n'], 'returnPath')
    expect(waterfall.call(['x'])).toEqual(['x'])
    expect(bail.call(1)).toBeUndefined()
    bail.tap('p', () => 2)
    expect(() => bail.call(1)).toThrow(/returnPath: called before start-up loaded the hooks \(wait for ready\(\)\)/)
  })

  it('an untapped async hook answers at once; tapped, its calls wait for the load; callAsync reports through its callback', async () => {
    const request: Any = mod.deferAsyncSeriesWaterfallHook<[{ url: string }]>(['request'], 'request')
    const req = { url: '/apps/x' }
    expect(await request.promise(req)).toBe(req)
    expect(mod.deferAsyncSeriesHook<[]>([], 'logout').promise()).toBeInstanceOf(Promise)
    const h: Any = mod.deferAsyncSeriesHook<[string[]]>(['log'], 'authenticated')
    h.tapPromise('a', async (log: string[]) => void log.push('a'))
    h.tap('b', (log: string[]) => void log.push('b'))
    const log: string[] = []
    await h.promise(log)
    expect(log).toEqual(['a', 'b'])
    const failing: Any = mod.deferAsyncSeriesHook<[]>([], 'logout')
    failing.tapPromise('x', async () => {
      throw new Error('nope')
    })
    const err = await new Promise((resolve) => failing.callAsync((e: unknown) => resolve(e)))
    expect((err as Error).message).toBe('nope')
  })

  it('untap removes a plugin\'s taps before and after the load (a plugin torn down and started again)', async () => {
    const h: Any = mod.deferSyncWaterfallHook<[string[]]>(['list'], 'list')
    h.tap('p', (l: string[]) => [...l, 'p'])
    h.tap('q', (l: string[]) => [...l, 'q'])
    mod.untapDeferred(h, 'p')
    await mod.loadHooks()
    expect(h.call([])).toEqual(['q'])
    mod.untapDeferred(h, 'q')
    expect(h.call([])).toEqual([])
    expect(h.isUsed()).toBe(false)
  })

  it('a failed load can be tried again', async () => {
    vi.resetModules()
    vi.doMock('./tapable', () => {
      throw new Error('chunk failed to load')
    })
    const m = await import('./deferred-hooks')
    await expect(m.loadHooks()).rejects.toThrow()
    vi.doUnmock('./tapable')
    await expect(m.loadHooks()).resolves.toBeUndefined()
    const h: Any = m.deferSyncBailHook<[number], number>(['n'], 'x')
    h.tap('t', (n: number) => n * 2)
    expect(h.call(2)).toBe(4)
  })
})
