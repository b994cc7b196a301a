/**
 * A wait that an AbortSignal ends early: resolves after `ms`, or rejects with the signal's
 * reason as soon as it aborts (at once when it already has). The polling flows (Farcaster
 * sign-in, the Farcaster signer's approval) wait between status calls with it.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
