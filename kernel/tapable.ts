/**
 * The kernel's typed tapable hooks, made eval-free.
 *
 * tapable compiles each hook's call function with `new Function`, which a page under a
 * strict Content-Security-Policy (`script-src 'self'`, no `unsafe-eval`) refuses. We keep
 * tapable for what it is good at (tap ordering by stage and `before`, interceptors, types)
 * and replace only its compile step with an interpreter: `compile()` returns a closure that
 * walks the taps. The semantics match tapable's generated code for the hook kinds we use.
 */
/**
 * The tapable version whose private `lib/Hook.js` we import. package.json pins it exactly and
 * `kernel/tapable.test.ts` fails when the installed version or the file's shape differs.
 */
export const TAPABLE_VERSION = '2.3.4'

// tapable's base class: tap registration, `stage` and `before` ordering, interceptors,
// `isUsed`. Its subclasses only add a code generator (HookCodeFactory), which we replace
// with the interpreter below, so we do not ship it (it was 70% of tapable's bytes).
import Hook from 'tapable/lib/Hook.js'
import type {
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

function make<H>(args: string[], name: string | undefined, mode: Mode, sync: boolean, kind: string): H {
  if (mode === 'waterfall' && args.length < 1) throw new Error('Waterfall hooks must have at least one argument')
  const hook = evalFree(new Hook(args, name), mode) as Record<string, unknown>
  if (sync) {
    // As tapable's sync hooks: only `tap` is allowed.
    hook.tapAsync = () => {
      throw new Error(`tapAsync is not supported on a ${kind}`)
    }
    hook.tapPromise = () => {
      throw new Error(`tapPromise is not supported on a ${kind}`)
    }
  }
  return hook as H
}

export const createSyncHook = <T extends unknown[]>(args: string[], name?: string) =>
  make<SyncHook<T>>(args, name, 'series', true, 'SyncHook')
export const createSyncBailHook = <T extends unknown[], R>(args: string[], name?: string) =>
  make<SyncBailHook<T, R>>(args, name, 'bail', true, 'SyncBailHook')
export const createSyncWaterfallHook = <T extends unknown[]>(args: string[], name?: string) =>
  make<SyncWaterfallHook<T>>(args, name, 'waterfall', true, 'SyncWaterfallHook')
export const createAsyncSeriesHook = <T extends unknown[]>(args: string[], name?: string) =>
  make<AsyncSeriesHook<T>>(args, name, 'series', false, 'AsyncSeriesHook')
export const createAsyncSeriesBailHook = <T extends unknown[], R>(args: string[], name?: string) =>
  make<AsyncSeriesBailHook<T, R>>(args, name, 'bail', false, 'AsyncSeriesBailHook')
export const createAsyncSeriesWaterfallHook = <T extends unknown[]>(args: string[], name?: string) =>
  make<AsyncSeriesWaterfallHook<T>>(args, name, 'waterfall', false, 'AsyncSeriesWaterfallHook')
export const createAsyncParallelHook = <T extends unknown[]>(args: string[], name?: string) =>
  make<AsyncParallelHook<T>>(args, name, 'parallel', false, 'AsyncParallelHook')

export type {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  SyncBailHook,
  SyncHook,
  SyncWaterfallHook,
}

/** Remove every tap registered under `name` (a plugin's teardown); the call path is rebuilt. */
export function untap(hook: object, name: string): void {
  const h = hook as { taps: { name: string }[]; _resetCompilation?: () => void }
  const kept = h.taps.filter((t) => t.name !== name)
  if (kept.length === h.taps.length) return
  h.taps.length = 0
  h.taps.push(...kept)
  h._resetCompilation?.()
}
