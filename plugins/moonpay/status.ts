/**
 * MoonPay status (spec part 2 section 4): polled every 3 s; 404 (no transaction yet) keeps
 * waiting; the flow fails after 3 consecutive other errors. completed → funded,
 * waitingAuthorization / awaitingAuthorization → processing, anything else → in progress.
 */
import { poll, type Poll } from 'portico/kits/funding'
import { fetchMoonpayStatus } from './calls'

export const MOONPAY_POLL_MS = 3000
export const MOONPAY_MAX_FAILURES = 3
/** The external transaction id is stored 8 s after the start. */
export const MOONPAY_ID_DELAY_MS = 8000

export type MoonpayView = 'funded' | 'processing' | 'in-progress'

export function moonpayView(status: string | null): MoonpayView {
  if (status === 'completed') return 'funded'
  if (status === 'waitingAuthorization' || status === 'awaitingAuthorization') return 'processing'
  return 'in-progress'
}

export interface MoonpayWatch {
  poll: Poll<'completed'>
}

/** Polls until completed; `onStatus` sees every status; rejects after 3 consecutive non-404 errors. */
export function watchMoonpay(o: {
  fetch: typeof fetch
  apiUrl: string
  apiKey: string
  externalTransactionId: string
  onStatus(status: string): void
  intervalMs?: number
}): Poll<'completed'> {
  return poll<'completed'>({
    intervalMs: o.intervalMs ?? MOONPAY_POLL_MS,
    maxFailures: MOONPAY_MAX_FAILURES,
    immediate: false,
    isIgnored: (e) => (e as { status?: number }).status === 404,
    tick: async () => {
      const s = await fetchMoonpayStatus(o.fetch, o.apiUrl, o.externalTransactionId, o.apiKey)
      o.onStatus(s)
      return s === 'completed' ? 'completed' : undefined
    },
  })
}
