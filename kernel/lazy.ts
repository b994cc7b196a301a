/**
 * `lazyOnce(load)`: what a plugin's entry uses to keep its flow out of the page's first load
 * (`lazyOnce(() => import('./flow').then((m) => m.createMyFlow(ctx)))`). Calling it loads once:
 * callers at the same time share one load, a failed load is tried again by the next call, and
 * `current` is the value once it is in (for what must answer synchronously).
 */
export interface Lazy<T> {
  (): Promise<T>
  /** The value once loaded, else undefined. */
  readonly current: T | undefined
}

export function lazyOnce<T>(load: () => Promise<T>): Lazy<T> {
  let value: T | undefined
  let loaded = false
  let pending: Promise<T> | undefined
  const get = () =>
    loaded
      ? Promise.resolve(value as T)
      : (pending ??= load().then(
          (v) => {
            value = v
            loaded = true
            return v
          },
          (e: unknown) => {
            pending = undefined
            throw e
          },
        ))
  return Object.defineProperty(get, 'current', { get: () => value }) as Lazy<T>
}

/** The same promise, its rejection marked as handled (whoever awaits it later reports it). */
export const quiet = <P extends Promise<unknown>>(p: P): P => (p.catch(() => {}), p)
