/**
 * The return path (contract v2): at the end of start-up the kernel offers the page address to
 * the `returnPath` hook (./startup.ts); the plugin that claims it (an OAuth code and state,
 * Telegram data, a fork token, a wallet deep link) names the parameters it owns, the kernel
 * strips them from the address (here), then the plugin finishes its flow. Nobody else reads
 * `location.search`. This module loads only when a plugin claims the address.
 */
// Through the kernel's entry, as the plugins' lazy chunks do (see ./session-calls.ts).
import { toPorticoError, type PorticoEmitter, type ReturnClaim } from './index'
import type { PageLocation } from './startup'

export interface ReturnPathDeps {
  events: PorticoEmitter
  /** What the claimed flow waits for first (the error views that load lazily). */
  before(): Promise<void>
}

/**
 * Strip the claimed parameters (before finishing, so a reload or a failure never replays a code
 * or token) and return the finishing flow, whose failure reaches the 'error' event.
 */
export function finishReturn(claim: ReturnClaim, url: URL, loc: PageLocation, deps: ReturnPathDeps): Promise<unknown> {
  const next = new URL(url.href)
  for (const p of claim.params) next.searchParams.delete(p)
  if (claim.hashParams?.length && next.hash) {
    const h = new URLSearchParams(next.hash.slice(1))
    for (const p of claim.hashParams) h.delete(p)
    const rest = h.toString()
    next.hash = rest ? `#${rest}` : ''
  }
  if (next.href !== url.href) loc.replace(next.pathname + next.search + next.hash)
  return deps
    .before()
    .then(() => claim.finish())
    .catch((e) => {
      deps.events.emit('error', toPorticoError(e))
      return undefined
    })
}
