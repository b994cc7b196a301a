/**
 * A status poller shared by the manual transfer (balance every 2 s) and the on-ramps (MoonPay
 * every 3 s, Coinbase every 1.5 s): runs `tick` every `intervalMs` (the next tick starts after
 * the previous one settles), stops when `tick` says done, counts consecutive failures and gives
 * up after `maxFailures` (an error `isIgnored` accepts is an answer, not a failure: it breaks the run
 * of consecutive failures, as a success does).
 */
export interface PollOptions<T> {
  intervalMs: number
  /** One poll. Resolve a value to stop with it; undefined to keep polling. */
  tick: () => Promise<T | undefined>
  /** Consecutive failures before giving up (default: never). */
  maxFailures?: number
  /** Errors that do not count as failures (MoonPay's 404 before a transaction exists). */
  isIgnored?: (error: unknown) => boolean
  /** Run the first tick at once (default) or after one interval. */
  immediate?: boolean
}

export interface Poll<T> {
  /** Settles with the value `tick` stopped with, or the last error after `maxFailures`. */
  result: Promise<T>
  stop(): void
}

export function poll<T>(o: PollOptions<T>): Poll<T> {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let failures = 0
  const result = new Promise<T>((resolve, reject) => {
    const run = async () => {
      if (stopped) return
      try {
        const v = await o.tick()
        if (stopped) return
        failures = 0
        if (v !== undefined) {
          stopped = true
          return resolve(v)
        }
      } catch (e) {
        if (stopped) return
        if (o.isIgnored?.(e)) failures = 0
        else {
          failures++
          if (o.maxFailures !== undefined && failures >= o.maxFailures) {
            stopped = true
            return reject(e)
          }
        }
      }
      timer = setTimeout(run, o.intervalMs)
    }
    if (o.immediate === false) timer = setTimeout(run, o.intervalMs)
    else void run()
  })
  result.catch(() => {})
  return {
    result,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
}
