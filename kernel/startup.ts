/**
 * Start-up (`ready()`): fetch the server's app config and restore the session side by side,
 * merge and validate the config, then offer the page address to the return path. While the API
 * cannot be reached it keeps trying with back-off (and at once when the browser comes back
 * online, the page regains focus or `retry()` is called) instead of failing the page; it fails
 * only for what retrying cannot fix (an unknown app id, an unreadable app config).
 */
// Through the kernel's entry, as its other lazy chunks do: in a host's bundle this chunk then
// shares the kernel's chunk instead of splitting a third one off it.
import { PorticoError, toPorticoError } from './index'
import type { PorticoEmitter } from './events'
import type { PorticoHooks, ReturnClaim } from './hooks'
import type { KernelInternals } from './portico'
import type { ResolvedConfig } from './config'
import type { Session } from './session'
import type { WireAppConfig } from './wire'

/** Where start-up stands: `loading` the first try, `retrying` while the API is unreachable. */
export type ReadyStatus = 'idle' | 'loading' | 'retrying' | 'ready' | 'failed'

/** A failure that retrying may fix: the network, a time-out, a busy or failing server. */
export function isTransient(e: PorticoError): boolean {
  if (e.code === 'network_error' || e.code === 'client_request_timeout') return true
  return typeof e.status === 'number' && (e.status >= 500 || e.status === 408 || e.status === 429)
}

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

const defaultRetryDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1))

export interface StartupDeps {
  session: Session
  hooks: Readonly<PorticoHooks>
  events: PorticoEmitter
  internals: KernelInternals
  /** `session.restore()`; the first call may answer one made earlier. */
  restore(): Promise<unknown>
  /** Load the hooks' tapable (./deferred-hooks.ts); start-up waits for it beside the app config. */
  loadHooks(): Promise<void>
  /** The message of the 'api_unreachable' error start-up reports while it retries. */
  unreachableText(): string
  /** `GET /apps/{appId}` (null when the host's `skipServerConfig` skips it); the first call may answer a request made earlier. */
  fetchConfig(): Promise<WireAppConfig | null>
  /** Merge the server's app config (null: none asked for) and run `configure`. */
  applyServerConfig(server: WireAppConfig | null): void
  config(): ResolvedConfig
  /** Whether the plugins are set up; a destroyed kernel stops retrying until it starts again. */
  started(): boolean
  /** What start-up loads beside the app config and waits for (the kernel's error views, the plugins' texts); never rejects. */
  preload(): Promise<void>
  /** The error views that load lazily: after ready; a claimed return flow waits for them. */
  loadDeclarations(): Promise<void>
  hasLazyDeclarations(): boolean
  warn(message: string, source: string): void
}

export interface Startup {
  readonly isReady: boolean
  readonly status: ReadyStatus
  readonly lastError: PorticoError | null
  readonly returnFlow: Promise<unknown> | null
  /** Start (once; again after a permanent failure). */
  ready(): Promise<void>
  /** End a waiting retry now. */
  retry(): void
  /** The kernel started again: a retry paused by `destroy()` goes on. */
  resume(): void
}

export function createStartup(deps: StartupDeps): Startup {
  const { events, internals } = deps
  let readyPromise: Promise<void> | null = null
  let isReady = false
  let status: ReadyStatus = 'idle'
  let lastError: PorticoError | null = null
  let wake: (() => void) | null = null
  let paused: (() => void) | null = null
  let returnFlow: Promise<unknown> | null = null

  const setStatus = (next: ReadyStatus) => {
    if (status === next) return
    status = next
    events.emit('status', { status: next })
  }

  /** Wait before the next try; 'online', 'focus' or `retry()` end the wait early. */
  const waitForRetry = (ms: number) =>
    new Promise<void>((resolve) => {
      const target =
        internals.wakeTarget !== undefined
          ? internals.wakeTarget
          : typeof window !== 'undefined'
            ? (window as unknown as NonNullable<KernelInternals['wakeTarget']>)
            : null
      const done = () => {
        clearTimeout(timer)
        target?.removeEventListener('online', done)
        target?.removeEventListener('focus', done)
        wake = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      ;(timer as { unref?: () => void }).unref?.()
      target?.addEventListener('online', done)
      target?.addEventListener('focus', done)
      wake = done
    })

  async function loadOnce(): Promise<void> {
    const fetchConfig = deps.fetchConfig()
    const [server, restored, hooks] = await Promise.allSettled([fetchConfig, deps.restore(), deps.loadHooks()])
    if (server.status === 'rejected') throw toPorticoError(server.reason)
    // tapable's chunk did not arrive: a network failure, tried again like the config.
    if (hooks.status === 'rejected') throw new PorticoError('network_error', String((hooks.reason as Error)?.message ?? hooks.reason), { cause: hooks.reason })
    if (server.value !== null && (typeof server.value !== 'object' || !Array.isArray(server.value.login_methods))) {
      throw new PorticoError('invalid_response', 'The server sent an app config this client cannot read.', { kind: 'api_error' })
    }
    deps.applyServerConfig(server.value)
    if (restored.status === 'rejected') deps.warn(`Could not restore the session: ${String(restored.reason)}`, 'session')
  }

  /**
   * Offer the page address to the `returnPath` hook; when a plugin claims it, ./return-path.ts
   * loads, strips the claimed parameters and starts the flow (`returnFlow`). Never throws.
   */
  async function offerReturnPath(): Promise<void> {
    const loc = internals.location === undefined ? pageLocation() : internals.location
    let url: URL
    let claim: ReturnClaim | undefined
    try {
      if (!loc) return
      url = new URL(loc.href)
      claim = deps.hooks.returnPath.call({ url, config: deps.config() })
    } catch (e) {
      deps.warn(`A plugin failed to read the page address: ${(e as Error).message}`, 'plugin')
      return
    }
    if (!claim) return
    try {
      const { finishReturn } = await import('./return-path')
      returnFlow = finishReturn(claim, url, loc, { events, before: deps.loadDeclarations })
    } catch (e) {
      deps.warn(`Could not finish the flow the page address carries: ${(e as Error)?.message ?? String(e)}`, 'kernel')
    }
  }

  async function startUp(): Promise<void> {
    setStatus('loading')
    const preloaded = deps.preload()
    for (let attempt = 1; ; attempt++) {
      try {
        await loadOnce()
        break
      } catch (e) {
        const err = toPorticoError(e)
        if (!isTransient(err)) throw err
        lastError = new PorticoError('api_unreachable', deps.unreachableText(), { cause: err, retryable: true, status: err.status })
        setStatus('retrying')
        events.emit('error', lastError)
        await waitForRetry((internals.retryDelay ?? defaultRetryDelay)(attempt))
        if (!deps.started()) await new Promise<void>((resolve) => (paused = resolve))
      }
    }
    await preloaded
    lastError = null
    isReady = true
    setStatus('ready')
    events.emit('ready', { authenticated: deps.session.authenticated })
    await offerReturnPath()
    // In a task of its own: the error views are in before the user gets far.
    if (deps.hasLazyDeclarations()) setTimeout(() => void deps.loadDeclarations(), 0)
  }

  return {
    get isReady() {
      return isReady
    },
    get status() {
      return status
    },
    get lastError() {
      return lastError
    },
    get returnFlow() {
      return returnFlow
    },
    ready() {
      readyPromise ??= startUp().catch((e) => {
        readyPromise = null
        const err = toPorticoError(e)
        lastError = err
        setStatus('failed')
        events.emit('error', err)
        throw err
      })
      return readyPromise
    },
    retry() {
      wake?.()
    },
    resume() {
      paused?.()
      paused = null
    },
  }
}
