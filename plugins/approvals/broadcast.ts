/**
 * Whether a transaction session's submit reached the network, for `closed()` (./request.ts
 * `Broadcast`): the screens may be closed at any moment, and once a transaction was broadcast
 * the request resolves with it, never with a rejection.
 */
import type { Broadcast } from './request'

export interface SubmitTurn {
  /** The user left the screens: a submit that has not broadcast yet stops before it. */
  left(): boolean
  /** The transaction reached the network; `result` is what the request resolves with. */
  sent(result: unknown): void
}

export function broadcastTracker() {
  let left = false
  let sent: Broadcast = null
  let decided: Promise<void> = Promise.resolve()
  return {
    /** Runs one submit; it is decided once `sent` is called or `fn` ends. */
    async run<T>(fn: (turn: SubmitTurn) => Promise<T>): Promise<T> {
      let done!: () => void
      decided = new Promise<void>((r) => (done = r))
      try {
        return await fn({
          left: () => left,
          sent(result) {
            sent = { result }
            done()
          },
        })
      } finally {
        done()
      }
    },
    /** The user left: waits until a running submit is decided; the broadcast transaction's result, or null. */
    async closed(): Promise<Broadcast> {
      left = true
      await decided
      return sent
    },
  }
}
