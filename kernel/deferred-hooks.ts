/**
 * The kernel's hooks with tapable out of the first load.
 *
 * Plugins tap in `setup`, before start-up; the kernel and the UI call hooks once the kernel is
 * ready. So a hook here records the taps and interceptors it is given, in order, and hands them
 * to the real hook (tapable's, made eval-free in ./tapable.ts) when that module has loaded:
 * tap ordering (`stage`, `before`), interceptors and call semantics stay tapable's own.
 * Start-up loads ./tapable.ts beside the app config (`loadHooks()`), so by `ready` every hook
 * is the real one; what a tap gets wrong (an empty name, `tapPromise` on a sync hook) still
 * throws where it is tapped.
 *
 * Before the load, a hook with nothing tapped answers what tapable answers (its first argument
 * for a waterfall, `undefined` otherwise), so the app config's request leaves at once; a tapped
 * sync hook throws a clear error, and a tapped async one (`promise`, `callAsync`) waits for the load.
 */
import { lazyOnce } from './lazy'
import type * as Real from './tapable'

type AnyFn = (...args: any[]) => any
type TapType = 'sync' | 'async' | 'promise'
type RealHook = Record<'tap' | 'tapAsync' | 'tapPromise' | 'intercept' | 'isUsed' | 'call' | 'promise' | 'callAsync', AnyFn> & { taps: unknown[] }
/** A hook kind: how to build it from ./tapable, whether it is sync, whether it is a waterfall. */
interface Kind {
  make: (m: typeof Real, args: string[], name: string) => unknown
  sync?: boolean
  waterfall?: boolean
}

/** tapable's module, once (a failed load is tried again by the next call). */
const tapable = lazyOnce(() => import('./tapable'))

/** Load tapable. The kernel's start-up waits for it. */
export function loadHooks(): Promise<void> {
  return tapable().then(() => undefined)
}

/** The tapable method a tap of each type is made with. */
const TAP_METHOD = { sync: 'tap', async: 'tapAsync', promise: 'tapPromise' } as const

class DeferredHook {
  real: RealHook | null = null
  /** Before the load: taps (as tapable records them, `fn` included) and interceptors, in order. */
  recorded: ({ name: string; type: TapType; fn: AnyFn } | { interceptor: object })[] = []

  constructor(
    private readonly kind: Kind,
    private readonly args: string[],
    readonly name: string,
  ) {}

  /** The real hook, once tapable is in: built on first use, with what was recorded replayed. */
  private hook(): RealHook | null {
    if (!this.real && tapable.current) {
      const real = (this.real = this.kind.make(tapable.current, this.args, this.name) as RealHook)
      for (const r of this.recorded) 'interceptor' in r ? real.intercept(r.interceptor) : real[TAP_METHOD[r.type]](r, r.fn)
      this.recorded = []
    }
    return this.real
  }

  private add(type: TapType, options: string | { name?: string }, fn: AnyFn): void {
    const real = this.hook()
    if (real) return void real[TAP_METHOD[type]](options, fn)
    // The checks tapable makes, where it makes them.
    if (type !== 'sync' && this.kind.sync) throw new Error(`${this.name}: only tap is supported`)
    const name = (typeof options === 'string' ? options : options?.name)?.trim()
    if (!name) throw new Error('Missing name for tap')
    this.recorded.push({ ...(options as object), name, type, fn })
  }

  tap(options: string | { name?: string }, fn: AnyFn): void {
    this.add('sync', options, fn)
  }
  tapAsync(options: string | { name?: string }, fn: AnyFn): void {
    this.add('async', options, fn)
  }
  tapPromise(options: string | { name?: string }, fn: AnyFn): void {
    this.add('promise', options, fn)
  }
  intercept(interceptor: object): void {
    const real = this.hook()
    if (real) real.intercept(interceptor)
    else this.recorded.push({ interceptor })
  }
  isUsed(): boolean {
    return this.hook()?.isUsed() ?? this.recorded.length > 0
  }
  /** The taps, in tapable's shape. */
  get taps(): unknown[] {
    return this.hook()?.taps ?? this.recorded.filter((r) => !('interceptor' in r))
  }

  call(...a: unknown[]): unknown {
    const real = this.hook()
    if (real) return real.call(...a)
    if (this.recorded.length) throw new Error(`${this.name}: called before start-up loaded the hooks (wait for ready())`)
    return this.kind.waterfall ? a[0] : undefined
  }
  promise(...a: unknown[]): Promise<unknown> {
    const real = this.hook()
    if (real) return real.promise(...a)
    // Nothing tapped (the config request before start-up, with no captcha): tapable's answer, at once.
    if (!this.recorded.length) return Promise.resolve(this.kind.waterfall ? a[0] : undefined)
    return loadHooks().then(() => this.hook()!.promise(...a))
  }
  callAsync(...a: unknown[]): void {
    const done = a.pop() as AnyFn
    this.promise(...a).then((r) => done(null, r), done)
  }
}

/** Remove every tap registered under `name` (a plugin's teardown), loaded or not. */
export function untapDeferred(hook: object, name: string): void {
  const h = hook as DeferredHook
  if (h.real) tapable.current!.untap(h.real, name)
  else h.recorded = h.recorded.filter((r) => 'interceptor' in r || r.name !== name)
}

const defer =
  <H,>(kind: Kind) =>
  (args: string[], name: string): H =>
    new DeferredHook(kind, args, name) as unknown as H

export const deferSyncBailHook = <T extends unknown[], R>(args: string[], name: string) =>
  defer<Real.SyncBailHook<T, R>>({ make: (m, a, n) => m.createSyncBailHook(a, n), sync: true })(args, name)
export const deferSyncWaterfallHook = <T extends unknown[]>(args: string[], name: string) =>
  defer<Real.SyncWaterfallHook<T>>({ make: (m, a, n) => m.createSyncWaterfallHook(a, n), sync: true, waterfall: true })(args, name)
export const deferAsyncSeriesHook = <T extends unknown[]>(args: string[], name: string) =>
  defer<Real.AsyncSeriesHook<T>>({ make: (m, a, n) => m.createAsyncSeriesHook(a, n) })(args, name)
export const deferAsyncSeriesWaterfallHook = <T extends unknown[]>(args: string[], name: string) =>
  defer<Real.AsyncSeriesWaterfallHook<T>>({ make: (m, a, n) => m.createAsyncSeriesWaterfallHook(a, n), waterfall: true })(args, name)
