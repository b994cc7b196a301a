/**
 * The one small store of the project: a value, `set` with a patch or an updater, and
 * listeners. The kernel holds one per plugin (`ctx.store(initial)`), the UI keeps its snapshot
 * in one, and React reads any of them with `useStore()` (`useSyncExternalStore`).
 *
 * The value is replaced, never mutated, so `get()` identity tells a change (what
 * `useSyncExternalStore` needs). A `set` that changes nothing notifies nobody.
 */
export interface Store<S> {
  get(): S
  /** Merge a patch (objects) or apply an updater; listeners run when the value changed. */
  set(next: Partial<S> | ((current: S) => S)): void
  subscribe(listener: (state: S) => void): () => void
  /** Back to the initial value. */
  reset(): void
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype

function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (!isPlainObject(a) || !isPlainObject(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && Object.is(a[k], b[k]))
}

export function createStore<S>(initial: S): Store<S> {
  const freeze = (v: S) => (isPlainObject(v) ? (Object.freeze(v) as S) : v)
  let state = freeze(isPlainObject(initial) ? ({ ...initial } as S) : initial)
  const listeners = new Set<(s: S) => void>()
  const replace = (next: S) => {
    if (shallowEqual(state, next)) return
    state = freeze(next)
    for (const l of [...listeners]) l(state)
  }
  return {
    get: () => state,
    set(next) {
      if (typeof next === 'function') return replace((next as (c: S) => S)(state))
      replace(isPlainObject(state) && isPlainObject(next) ? ({ ...state, ...next } as S) : (next as S))
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    reset: () => replace(isPlainObject(initial) ? ({ ...initial } as S) : initial),
  }
}
