/**
 * Coinbase Onramp status (spec part 2 section 4): polled every 1.5 s. success; pending while the
 * popup is open is 'pending-in-flow', after it closed 'pending-after-flow'; failure is 'error'.
 * After 3 polls with the popup closed (and no success) the flow goes back to method selection.
 */
import { poll, type Poll } from 'portico/kits/funding'

export const COINBASE_POLL_MS = 1500
export const COINBASE_CLOSED_POLLS = 3
/** The partner user id is stored 5 s after the start. */
export const COINBASE_ID_DELAY_MS = 5000

export type CoinbaseStatus = 'success' | 'pending-after-flow' | 'pending-in-flow' | 'error'

export function coinbaseStatus(server: 'success' | 'failure' | 'pending', popupClosed: boolean): CoinbaseStatus {
  if (server === 'success') return 'success'
  if (server === 'failure') return 'error'
  return popupClosed ? 'pending-after-flow' : 'pending-in-flow'
}

/** Resolves 'success', or 'closed' after COINBASE_CLOSED_POLLS polls with the popup closed. */
export function watchCoinbase(o: {
  status(): Promise<'success' | 'failure' | 'pending'>
  popupClosed(): boolean
  onStatus(s: CoinbaseStatus): void
  intervalMs?: number
}): Poll<'success' | 'closed'> {
  let closedPolls = 0
  return poll<'success' | 'closed'>({
    intervalMs: o.intervalMs ?? COINBASE_POLL_MS,
    immediate: false,
    tick: async () => {
      const closed = o.popupClosed()
      const s = coinbaseStatus(await o.status().catch(() => 'pending' as const), closed)
      o.onStatus(s)
      if (s === 'success') return 'success'
      if (closed && ++closedPolls >= COINBASE_CLOSED_POLLS) return 'closed'
      return undefined
    },
  })
}
