/**
 * The kernel's typed tapable hooks, made eval-free.
 *
 * tapable compiles each hook's call function with `new Function`, which a page under a
 * strict Content-Security-Policy (`script-src 'self'`, no `unsafe-eval`) refuses. We keep
 * tapable for what it is good at (tap ordering by stage and `before`, interceptors, types)
 * and replace only its compile step with an interpreter: `compile()` returns a closure that
 * walks the taps. The semantics match tapable's generated code for the hook kinds we use.
 */
import {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  SyncBailHook,
  SyncHook,
  SyncWaterfallHook,
} from 'tapable'

type Mode = 'series' | 'bail' | 'waterfall' | 'parallel'
type AnyFn = (...args: any[]) => any

interface FullTap {
  name: string
  type: 'sync' | 'async' | 'promise'
  fn: AnyFn
}
interface Interceptor {
  call?: AnyFn
  tap?: AnyFn
  error?: AnyFn
  result?: AnyFn
  done?: AnyFn
}
interface CompileOptions {
  taps: FullTap[]
  interceptors: Interceptor[]
  args: readonly string[]
  type: 'sync' | 'async' | 'promise'
}

function callTapAsync(tap: FullTap, args: unknown[]): Promise<unknown> {
  switch (tap.type) {
    case 'sync':
      return Promise.resolve().then(() => tap.fn(...args))
    case 'promise':
      return Promise.resolve().then(() => {
        const r = tap.fn(...args)
        if (!r || typeof r.then !== 'function') {
          throw new Error(`Tap function (tapPromise) did not return promise (returned ${String(r)})`)
        }
        return r
      })
    default:
      return new Promise((resolve, reject) => {
        tap.fn(...args, (err: unknown, result: unknown) => (err ? reject(err) : resolve(result)))
      })
  }
}

/** Build the call function for one hook kind without generating code. */
function interpret(mode: Mode, { taps, interceptors, args: names, type }: CompileOptions): AnyFn {
  const arity = names.length
  const each = (key: keyof Interceptor, ...a: unknown[]) => {
    for (const i of interceptors) i[key]?.(...a)
  }
  const finish = (result: unknown) => {
    if (mode !== 'series' && mode !== 'parallel') each('result', result)
    each('done')
    return result
  }

  const runSync = (args: unknown[]) => {
    each('call', ...args)
    let acc = args[0]
    try {
      for (const tap of taps) {
        each('tap', tap)
        const r = tap.fn(...(mode === 'waterfall' ? [acc, ...args.slice(1)] : args))
        if (mode === 'bail' && r !== undefined) return finish(r)
        if (mode === 'waterfall' && r !== undefined) acc = r
      }
    } catch (e) {
      each('error', e)
      throw e
    }
    return finish(mode === 'waterfall' ? acc : undefined)
  }

  const runAsync = async (args: unknown[]) => {
    each('call', ...args)
    let acc = args[0]
    try {
      if (mode === 'parallel') {
        await Promise.all(taps.map((tap) => (each('tap', tap), callTapAsync(tap, args))))
        return finish(undefined)
      }
      for (const tap of taps) {
        each('tap', tap)
        const r = await callTapAsync(tap, mode === 'waterfall' ? [acc, ...args.slice(1)] : args)
        if (mode === 'bail' && r !== undefined) return finish(r)
        if (mode === 'waterfall' && r !== undefined) acc = r
      }
    } catch (e) {
      each('error', e)
      throw e
    }
    return finish(mode === 'waterfall' ? acc : undefined)
  }

  if (type === 'sync') return (...a: unknown[]) => runSync(a.slice(0, arity))
  if (type === 'promise') return (...a: unknown[]) => runAsync(a.slice(0, arity))
  return (...a: unknown[]) => {
    const callback = a[a.length - 1] as (err: unknown, result?: unknown) => void
    runAsync(a.slice(0, arity)).then(
      (r) => callback(null, r),
      (e) => callback(e),
    )
  }
}

/** Replace a tapable hook's code generation with the interpreter. */
export function evalFree<H extends object>(hook: H, mode: Mode): H {
  ;(hook as unknown as { compile: (o: CompileOptions) => AnyFn }).compile = (options) => interpret(mode, options)
  return hook
}

export const createSyncHook = <T extends unknown[]>(args: string[], name?: string) =>
  evalFree(new SyncHook<T>(args as never, name), 'series')
export const createSyncBailHook = <T extends unknown[], R>(args: string[], name?: string) =>
  evalFree(new SyncBailHook<T, R>(args as never, name), 'bail')
export const createSyncWaterfallHook = <T extends unknown[]>(args: string[], name?: string) =>
  evalFree(new SyncWaterfallHook<T>(args as never, name), 'waterfall')
export const createAsyncSeriesHook = <T extends unknown[]>(args: string[], name?: string) =>
  evalFree(new AsyncSeriesHook<T>(args as never, name), 'series')
export const createAsyncSeriesBailHook = <T extends unknown[], R>(args: string[], name?: string) =>
  evalFree(new AsyncSeriesBailHook<T, R>(args as never, name), 'bail')
export const createAsyncSeriesWaterfallHook = <T extends unknown[]>(args: string[], name?: string) =>
  evalFree(new AsyncSeriesWaterfallHook<T>(args as never, name), 'waterfall')
export const createAsyncParallelHook = <T extends unknown[]>(args: string[], name?: string) =>
  evalFree(new AsyncParallelHook<T>(args as never, name), 'parallel')

export type {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  SyncBailHook,
  SyncHook,
  SyncWaterfallHook,
}
