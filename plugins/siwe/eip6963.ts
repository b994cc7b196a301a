/**
 * EIP-6963 multi-wallet discovery: listen for `eip6963:announceProvider`, ask with
 * `eip6963:requestProvider`, and fall back to `window.ethereum` when it is not one of the
 * announced providers. Nothing touches `window` until `createEip6963Discovery` runs.
 */
import { PROVIDER_DETECTION_TIMEOUT_MS } from 'portico/kits/wallet'

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>
  on?(event: string, listener: (...args: any[]) => void): unknown
  removeListener?(event: string, listener: (...args: any[]) => void): unknown
  [flag: string]: unknown
}

export interface Eip6963ProviderInfo {
  uuid: string
  name: string
  /** Data URI of the icon. */
  icon: string
  /** Reverse-DNS id, e.g. 'io.metamask'. */
  rdns: string
}

export interface DiscoveredProvider {
  info: Eip6963ProviderInfo
  provider: Eip1193Provider
  source: 'eip6963' | 'window.ethereum'
}

export interface Eip6963Discovery {
  /** Announced providers in order of arrival, then `window.ethereum` if it is not among them. */
  providers(): DiscoveredProvider[]
  subscribe(listener: () => void): () => void
  /** True once a provider arrived or the detection time-out (3000 ms) passed. */
  readonly settled: boolean
  destroy(): void
}

type EventTargetLike = Pick<Window, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'> & {
  ethereum?: Eip1193Provider
}

/** Name a bare `window.ethereum` from its brand flags. */
export function injectedInfo(p: Eip1193Provider): Eip6963ProviderInfo {
  const flags: [string, string, string][] = [
    ['isRabby', 'Rabby Wallet', 'io.rabby'],
    ['isBraveWallet', 'Brave Wallet', 'com.brave.wallet'],
    ['isCoinbaseWallet', 'Coinbase Wallet', 'com.coinbase.wallet'],
    ['isRainbow', 'Rainbow', 'me.rainbow'],
    ['isPhantom', 'Phantom', 'app.phantom'],
    ['isZerion', 'Zerion', 'io.zerion.wallet'],
    ['isOkxWallet', 'OKX Wallet', 'com.okex.wallet'],
    ['isMetaMask', 'MetaMask', 'io.metamask'],
  ]
  for (const [flag, name, rdns] of flags) if (p[flag] === true) return { uuid: 'injected', name, icon: '', rdns }
  return { uuid: 'injected', name: 'Browser Wallet', icon: '', rdns: '' }
}

function validAnnouncement(detail: any): detail is { info: Eip6963ProviderInfo; provider: Eip1193Provider } {
  return (
    !!detail &&
    typeof detail.info?.uuid === 'string' &&
    typeof detail.info?.name === 'string' &&
    !!detail.provider &&
    typeof detail.provider.request === 'function'
  )
}

export function createEip6963Discovery(
  target: EventTargetLike = globalThis as unknown as EventTargetLike,
  options: { detectionTimeoutMs?: number } = {},
): Eip6963Discovery {
  const announced = new Map<string, DiscoveredProvider>()
  const listeners = new Set<() => void>()
  let settled = false
  const notify = () => {
    for (const l of [...listeners]) l()
  }
  const settle = () => {
    if (settled) return
    settled = true
    clearTimeout(timer)
    notify()
  }

  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent).detail
    if (!validAnnouncement(detail)) return
    const existing = announced.get(detail.info.uuid)
    if (existing && existing.provider === detail.provider) return
    announced.set(detail.info.uuid, { info: { ...detail.info }, provider: detail.provider, source: 'eip6963' })
    if (!settled) settle()
    else notify()
  }
  const onInjected = () => {
    if (!settled) settle()
    else notify()
  }

  target.addEventListener('eip6963:announceProvider', onAnnounce)
  target.addEventListener('ethereum#initialized', onInjected)
  const timer = setTimeout(settle, options.detectionTimeoutMs ?? PROVIDER_DETECTION_TIMEOUT_MS)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  if (target.ethereum) settle()

  return {
    providers() {
      const list = [...announced.values()]
      const injected = target.ethereum
      if (injected && typeof injected.request === 'function' && !list.some((d) => d.provider === injected)) {
        list.push({ info: injectedInfo(injected), provider: injected, source: 'window.ethereum' })
      }
      return list
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    get settled() {
      return settled
    },
    destroy() {
      clearTimeout(timer)
      target.removeEventListener('eip6963:announceProvider', onAnnounce)
      target.removeEventListener('ethereum#initialized', onInjected)
      listeners.clear()
    },
  }
}
