/**
 * The return path (contract v2): at the end of start-up the kernel offers the page address to
 * the `returnPath` hook; the plugin that claims it (an OAuth code and state, Telegram data, a
 * fork token, a wallet deep link) names the parameters it owns, the kernel strips them from
 * the address, then the plugin finishes its flow. Nobody else reads `location.search`.
 */
import { toPorticoError } from './errors'
import type { PorticoEmitter } from './events'
import type { PorticoHooks, ReturnClaim } from './hooks'
import type { ResolvedConfig } from './config'

/** The page address and how to rewrite it (default: `location` and `history.replaceState`). */
export interface PageLocation {
  href: string
  replace(url: string): void
}

/** The browser's address, when the page is served over http(s); null elsewhere (Node, a file, an extension). */
export function pageLocation(): PageLocation | null {
  const loc = (globalThis as { location?: Location }).location
  const hist = (globalThis as { history?: History }).history
  if (!loc || !/^https?:$/.test(loc.protocol) || !hist) return null
  return { href: loc.href, replace: (url) => hist.replaceState(hist.state, '', url) }
}

export interface ReturnPathDeps {
  hooks: Pick<PorticoHooks, 'returnPath'>
  events: PorticoEmitter
  config: ResolvedConfig
  /** What the claimed flow waits for first (the plugins' lazily declared error views). */
  before(): Promise<void>
  warn(message: string, source: string): void
}

/**
 * Offer the address; when a plugin claims it, strip the claimed parameters (before finishing,
 * so a reload or a failure never replays a code or token) and return the finishing flow,
 * whose failure reaches the 'error' event. Null when nobody claims it.
 */
export function claimReturnPath(loc: PageLocation, deps: ReturnPathDeps): Promise<unknown> | null {
  let url: URL
  let claim: ReturnClaim | undefined
  try {
    url = new URL(loc.href)
  } catch {
    return null
  }
  try {
    claim = deps.hooks.returnPath.call({ url, config: deps.config })
  } catch (e) {
    deps.warn(`A plugin failed to read the page address: ${(e as Error).message}`, 'plugin')
    return null
  }
  if (!claim) return null
  const next = new URL(url.href)
  for (const p of claim.params) next.searchParams.delete(p)
  if (claim.hashParams?.length && next.hash) {
    const h = new URLSearchParams(next.hash.slice(1))
    for (const p of claim.hashParams) h.delete(p)
    const rest = h.toString()
    next.hash = rest ? `#${rest}` : ''
  }
  if (next.href !== url.href) loc.replace(next.pathname + next.search + next.hash)
  const finish = claim.finish
  return deps
    .before()
    .then(() => finish())
    .catch((e) => {
      deps.events.emit('error', toPorticoError(e))
      return undefined
    })
}
