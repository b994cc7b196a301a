import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as tapable from 'tapable'
import { describe, expect, it, vi } from 'vitest'

/* eslint-disable @typescript-eslint/no-explicit-any -- the same taps on tapable's and our hooks */
type Any = any
import {
  createAsyncParallelHook,
  createAsyncSeriesBailHook,
  createAsyncSeriesHook,
  createAsyncSeriesWaterfallHook,
  createSyncBailHook,
  createSyncHook,
  createSyncWaterfallHook,
  TAPABLE_VERSION,
} from './tapable'

// Each case runs the same taps on tapable's own (code-generating) hook and on ours: the
// results must match, so our interpreter keeps tapable's semantics.
describe('eval-free hooks behave like tapable', () => {
  it('SyncWaterfallHook: passes the value along, skips undefined, extra args stay', () => {
    for (const hook of [new tapable.SyncWaterfallHook<[number, number]>(['v', 'k']), createSyncWaterfallHook<[number, number]>(['v', 'k'])] as Any[]) {
      hook.tap('a', (v: number, k: number) => v + k)
      hook.tap('b', () => undefined)
      hook.tap({ name: 'c', stage: -1 }, (v: number) => v * 10)
      expect(hook.call(1, 2)).toBe(12)
    }
  })

  it('SyncBailHook: stops at the first non-undefined result, honours before', () => {
    for (const hook of [new tapable.SyncBailHook<[string], string>(['x']), createSyncBailHook<[string], string>(['x'])] as Any[]) {
      const late = vi.fn(() => 'late')
      hook.tap('none', () => undefined)
      hook.tap('first', (x: string) => (x === 'hit' ? 'first' : undefined))
      hook.tap('late', late)
      hook.tap({ name: 'early', before: 'first' }, (x: string) => (x === 'early' ? 'early' : undefined))
      expect(hook.call('hit')).toBe('first')
      expect(hook.call('early')).toBe('early')
      expect(hook.call('miss')).toBe('late')
      expect(late).toHaveBeenCalledTimes(1)
    }
  })

  it('SyncHook: runs every tap in stage order; errors propagate', () => {
    for (const hook of [new tapable.SyncHook<[string[]]>(['log']), createSyncHook<[string[]]>(['log'])] as Any[]) {
      hook.tap({ name: 'b', stage: 10 }, (log: string[]) => void log.push('b'))
      hook.tap('a', (log: string[]) => void log.push('a'))
      const log: string[] = []
      expect(hook.call(log)).toBeUndefined()
      expect(log).toEqual(['a', 'b'])
      hook.tap('boom', () => {
        throw new Error('boom')
      })
      expect(() => hook.call([])).toThrow('boom')
      expect(() => hook.tapAsync('x', () => {})).toThrow(/not supported/)
      expect(() => hook.tapPromise('x', async () => {})).toThrow(/not supported/)
    }
  })

  it('AsyncSeriesHook: sync, callback and promise taps in series; errors reject', async () => {
    for (const hook of [new tapable.AsyncSeriesHook<[string[]]>(['log']), createAsyncSeriesHook<[string[]]>(['log'])]) {
      hook.tapPromise('p', async (log) => {
        await new Promise((r) => setTimeout(r, 5))
        log.push('p')
      })
      hook.tap('s', (log) => void log.push('s'))
      hook.tapAsync('c', (log, cb) => {
        log.push('c')
        cb()
      })
      const log: string[] = []
      await hook.promise(log)
      expect(log).toEqual(['p', 's', 'c'])
      const viaCallback = await new Promise<unknown>((resolve) => hook.callAsync([], (err) => resolve(err)))
      expect(viaCallback).toBeFalsy()
      hook.tapPromise('fail', async () => {
        throw new Error('nope')
      })
      await expect(hook.promise([])).rejects.toThrow('nope')
    }
  })

  it('AsyncSeriesWaterfallHook and AsyncSeriesBailHook', async () => {
    for (const hook of [new tapable.AsyncSeriesWaterfallHook<[number]>(['n']), createAsyncSeriesWaterfallHook<[number]>(['n'])]) {
      hook.tapPromise('a', async (n) => n + 1)
      hook.tap('b', (n) => n * 2)
      hook.tapAsync('c', (n, cb) => cb(null, n + 3))
      expect(await hook.promise(1)).toBe(7)
    }
    for (const hook of [new tapable.AsyncSeriesBailHook<[number], string>(['n']), createAsyncSeriesBailHook<[number], string>(['n'])] as Any[]) {
      hook.tapPromise('a', async (n: number) => (n > 1 ? 'big' : undefined))
      hook.tap('b', () => 'small')
      expect(await hook.promise(5)).toBe('big')
      expect(await hook.promise(0)).toBe('small')
    }
  })

  it('AsyncParallelHook runs taps at the same time', async () => {
    const hook = createAsyncParallelHook<[string[]]>(['log'])
    hook.tapPromise('slow', async (log) => {
      await new Promise((r) => setTimeout(r, 20))
      log.push('slow')
    })
    hook.tapPromise('fast', async (log) => void log.push('fast'))
    const log: string[] = []
    await hook.promise(log)
    expect(log).toEqual(['fast', 'slow'])
  })

  it('supports interceptors (call, tap, result, error) and isUsed', () => {
    const hook = createSyncBailHook<[number], number>(['n'])
    expect(hook.isUsed()).toBe(false)
    const seen: string[] = []
    hook.intercept({
      call: (n: number) => seen.push(`call ${n}`),
      tap: (t: { name: string }) => seen.push(`tap ${t.name}`),
      result: (r: number) => seen.push(`result ${r}`),
    })
    hook.tap('double', (n) => n * 2)
    expect(hook.isUsed()).toBe(true)
    expect(hook.call(4)).toBe(8)
    expect(seen).toEqual(['call 4', 'tap double', 'result 8'])
    const failing = createSyncHook<[]>([])
    const onError = vi.fn()
    failing.intercept({ error: onError })
    failing.tap('x', () => {
      throw new Error('bad')
    })
    expect(() => failing.call()).toThrow('bad')
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('recompiles after a new tap (tapable resets its call function)', () => {
    const hook = createSyncWaterfallHook<[number]>(['n'])
    expect(hook.call(1)).toBe(1)
    hook.tap('inc', (n) => n + 1)
    expect(hook.call(1)).toBe(2)
  })
})

describe('tapable private import', () => {
  it('is pinned exactly, and lib/Hook.js still has the shape the interpreter relies on', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(pkg.dependencies.tapable).toBe(TAPABLE_VERSION)
    const require = createRequire(import.meta.url)
    expect(require('tapable/package.json').version).toBe(TAPABLE_VERSION)
    const Hook = require('tapable/lib/Hook.js')
    const h = new Hook(['a'], 'probe')
    for (const m of ['tap', 'tapAsync', 'tapPromise', 'intercept', 'isUsed', '_resetCompilation', '_insert']) expect(typeof h[m]).toBe('function')
    expect(Array.isArray(h.taps)).toBe(true)
  })
})
