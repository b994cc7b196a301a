/**
 * `createPortico(config)`: the kernel object. Validates the host config and sets the plugins
 * up (contract v2: the kernel holds each plugin's state, API, screens, method descriptors and
 * taps, and undoes all of them on `destroy()`). On `ready()` it fetches the server's app
 * config, merges and validates it, runs the `configure` hook, restores the session (the two
 * requests run side by side), then offers the page address to the `returnPath` hook. When the
 * API cannot be reached, `ready()` keeps trying with back-off (and at once when the browser
 * comes back online or the page regains focus) instead of failing the page.
 */
import { resolveConfig, validateAppId, type PorticoConfig, type ResolvedConfig } from './config'
import {
  ERROR_TEXTS,
  PorticoError,
  defaultErrorView,
  toPorticoError,
  viewFromDeclarations,
  type ErrorContext,
  type ErrorView,
  type ErrorDeclarations,
} from './errors'
import { createEvents, type PorticoEmitter } from './events'
import { createHooks, type AuthContext, type PorticoHooks, type ReturnClaim } from './hooks'
import { createMethodRegistry, type MethodRegistry } from './methods'
import { validatePlugins, type LoginMeta, type PluginApis, type PluginContext, type PluginStorage, type PorticoPlugin } from './plugin'
import { createNavigator, type Navigator } from './screens'
import { createSession, defaultStorage, type AuthResult, type LockManagerLike, type ChannelLike, type Session } from './session'
import { createStore, type Store } from './store'
import { untap } from './tapable'
import { mergeTexts } from './texts'
import { createTransport, type Api } from './transport'
import type { WireAppConfig, WireAuthResponse } from './wire'

export interface RecentLogin {
  method: string
  walletClientType: string | null
  chainType: string | null
}

/** Where start-up stands: `loading` the first try, `retrying` while the API is unreachable. */
export type ReadyStatus = 'idle' | 'loading' | 'retrying' | 'ready' | 'failed'

export interface Portico {
  /** The resolved config; merged with the server's app config once `ready()` has run. */
  readonly config: ResolvedConfig
  readonly hooks: Readonly<PorticoHooks>
  readonly events: PorticoEmitter
  readonly api: Api
  readonly session: Session
  readonly screens: Navigator
  /** The declared login methods (descriptors). */
  readonly methods: Pick<MethodRegistry, 'get' | 'forAccountType' | 'forLinkMethod' | 'list'>
  readonly plugins: readonly PorticoPlugin[]
  readonly isReady: boolean
  /** Start-up state, for a loading or error view. */
  readonly status: ReadyStatus
  /** The last start-up failure (kept while retrying). */
  readonly lastError: PorticoError | null
  /**
   * Fetch app config, restore the session, finish a flow the page address carries.
   * Idempotent. While the API is unreachable it keeps trying (back-off, online, focus) and
   * stays pending; it rejects with a PorticoError only for what retrying cannot fix (an
   * unknown app id, an unreadable or invalid app config).
   */
  ready(): Promise<void>
  /** Try start-up again now (a Retry button); no-op unless it is waiting to retry. */
  retryReady(): void
  /** The flow the page address carried (OAuth return ...), once `ready()` has claimed one. */
  readonly returnFlow: Promise<unknown> | null
  /** A plugin's API (what it handed out with `ctx.provide`); throws a message that says what to fix. */
  plugin<K extends keyof PluginApis>(id: K): PluginApis[K]
  plugin<A = unknown>(id: string): A
  /** Whether a plugin with this id is set up. */
  hasPlugin(id: string): boolean
  /** A plugin's state store (`ctx.store`), if it keeps one. */
  pluginState<S = unknown>(id: string): Store<S> | undefined
  /** Texts of a namespace (a plugin id, 'ui', 'kernel') with the app's overrides. */
  texts<T extends object>(namespace: string, defaults: T): T
  /**
   * Load what plugins declared lazily (`ctx.declareErrors(() => import('./errors'))`), once.
   * Every lazy screen's load waits for it, and so does a flow the page address carries, so an
   * error is never shown before its plugin's view is in. Never rejects: a chunk that fails to
   * load is warned about and tried again by the next call.
   */
  loadDeclarations(): Promise<void>
  /** Change host config after creation (appearance, texts, legal ...); the 'config' event tells the UI. */
  setConfig(patch: Partial<Omit<PorticoConfig, 'appId' | 'plugins'>>): void
  /** Store a login response, remember the method, run the `authenticated` chain. */
  completeLogin(response: WireAuthResponse, meta?: LoginMeta): Promise<AuthResult>
  /** Throw `already_logged_in` (and warn) while a non-guest user is logged in. */
  assertLoggedOut(source?: string): void
  /** The last-used login method for this app, per browser. */
  recentLogin(): RecentLogin | null
  /** Record a login-flow event (`POST /analytics_events`), unless analytics are off. Never throws. */
  analytics(eventName: string, payload?: Record<string, unknown>): void
  /** Set the plugins up (again, after `destroy()`); `createPortico` does it, the React provider manages it. */
  start(): void
  /** Tear down plugins (their taps, screens, methods, state, APIs) and stop listening to other tabs. */
  destroy(): void
}

export interface KernelInternals {
  /** Tests and embedders: replace the cross-tab lock manager / channel. */
  locks?: LockManagerLike | null
  channel?: ChannelLike | null
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  analyticsId?: string
  /** Do not set plugins up until `start()` (the React provider, so StrictMode leaks nothing). */
  deferStart?: boolean
  /** The page address and how to rewrite it (default: `location` and `history.replaceState`). */
  location?: { href: string; replace(url: string): void } | null
  /** Back-off before the n-th start-up retry (default 1 s doubling to 30 s). */
  retryDelay?: (attempt: number) => number
  /** Where 'online' / 'focus' wake a waiting retry (default: `window`). */
  wakeTarget?: { addEventListener(t: string, l: () => void): void; removeEventListener(t: string, l: () => void): void } | null
}

const randomId = () => {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** A failure that retrying may fix: the network, a time-out, a busy or failing server. */
export function isTransient(e: PorticoError): boolean {
  if (e.code === 'network_error' || e.code === 'client_request_timeout') return true
  return typeof e.status === 'number' && (e.status >= 500 || e.status === 408 || e.status === 429)
}

const defaultRetryDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1))

function pageLocation(): KernelInternals['location'] {
  const loc = (globalThis as { location?: Location }).location
  const hist = (globalThis as { history?: History }).history
  if (!loc || !/^https?:$/.test(loc.protocol) || !hist) return null
  return { href: loc.href, replace: (url) => hist.replaceState(hist.state, '', url) }
}

interface Runtime {
  store?: Store<unknown>
  api?: unknown
  undo: (() => void)[]
}

/** A plugin's error views declared as a loader: loaded once, by `loadDeclarations()`. */
interface LazyDeclarations {
  plugin: string
  load: () => Promise<ErrorDeclarations>
  loaded?: ErrorDeclarations
  pending?: Promise<void>
}

export function createPortico(hostConfig: PorticoConfig, internals: KernelInternals = {}): Portico {
  if (!hostConfig || typeof hostConfig !== 'object') {
    throw new PorticoError('invalid_config', 'createPortico needs a config object with at least an appId.')
  }
  const appId = validateAppId(hostConfig.appId)
  const plugins = validatePlugins(hostConfig.plugins)
  const events = createEvents()
  const hooks = createHooks()
  const storage = hostConfig.storage ?? defaultStorage()
  const fetchFn: typeof fetch = (...args) => (hostConfig.fetch ?? globalThis.fetch)(...args)
  let host: PorticoConfig = hostConfig

  const warn = (message: string, source = 'config') => {
    const listeners = events.all.get('warning')
    if (listeners && listeners.length) events.emit('warning', { message, source })
    else console.warn(`[portico] ${message}`)
  }

  // Before the server answers, validate what the host gave (app id, chains, logo); the
  // method list may still come from the server, so it is checked once that is merged.
  let config: ResolvedConfig = host.skipServerConfig
    ? resolveConfig(host, null, warn)
    : resolveConfig(host, null, undefined, { requireLoginMethod: false })
  let serverConfig: WireAppConfig | null = null

  const analyticsKey = `portico:ca-id`
  const analyticsId = () => {
    if (internals.analyticsId) return internals.analyticsId
    try {
      const existing = storage.getItem(analyticsKey)
      if (existing) return existing
      const id = randomId()
      storage.setItem(analyticsKey, id)
      return id
    } catch {
      return 'unavailable'
    }
  }

  const methods = createMethodRegistry(undefined, (m) => warn(m, 'plugin'))

  let session!: Session
  const api = createTransport({
    baseUrl: () => config.apiUrl,
    appId,
    clientId: () => config.clientId,
    analyticsId,
    accessToken: () => session.getAccessToken(),
    prepare: (req) => hooks.request.promise(req),
    fetch: hostConfig.fetch,
    sleep: internals.sleep,
  })

  session = createSession({
    appId,
    api: () => api,
    events,
    storage,
    methods,
    onLogout: () => hooks.logout.promise(),
    locks: internals.locks,
    channel: internals.channel,
    now: internals.now,
  })

  const textCache = new Map<string, WeakMap<object, object>>()
  const texts = <T extends object>(namespace: string, defaults: T): T => {
    let byDefaults = textCache.get(namespace)
    if (!byDefaults) textCache.set(namespace, (byDefaults = new WeakMap()))
    let merged = byDefaults.get(defaults) as T | undefined
    if (!merged) {
      merged = mergeTexts(defaults, config.texts[namespace], (m) => warn(m, namespace))
      byDefaults.set(defaults, merged)
    }
    return merged
  }

  const screens: Navigator = createNavigator({
    errorView: (err, ctx) => hooks.errorView.call(err, ctx),
    fallbackView: (err, ctx) => defaultErrorView(err, ctx, texts('kernel', ERROR_TEXTS)),
  })

  // Plugins' error views declared as loaders: loaded after ready, by a lazy screen's load (but
  // the landing's: the first open must not wait for them) or by a claimed return path; never in
  // the page's initial load.
  const lazyDeclarations = new Set<LazyDeclarations>()
  const loadDeclarations = (): Promise<void> =>
    Promise.all(
      [...lazyDeclarations].map((d) =>
        d.loaded
          ? undefined
          : (d.pending ??= d.load().then(
              (declared) => {
                d.loaded = declared
              },
              (e) => {
                d.pending = undefined
                warn(`Could not load the error views of plugin '${d.plugin}': ${(e as Error)?.message ?? String(e)}`, 'plugin')
              },
            )),
      ),
    ).then(() => undefined)
  // Every lazy screen waits for them: a screen that shows an error finds its view declared.
  const registerScreen = screens.register
  screens.register = <C,>(def: Parameters<Navigator['register']>[0]) => {
    const load = (def as { load?: () => Promise<unknown> }).load
    if (typeof load !== 'function' || def.firstOpen) return registerScreen<C>(def as never)
    return registerScreen<C>({ ...def, load: () => Promise.all([load(), loadDeclarations()]).then(([m]) => m) } as never)
  }

  const recentKeys = {
    method: `portico:${appId}:recent-login-method`,
    walletClientType: `portico:${appId}:recent-wallet-client-type`,
    chainType: `portico:${appId}:recent-chain-type`,
  }
  const safeGet = (k: string) => {
    try {
      return storage.getItem(k)
    } catch {
      return null
    }
  }
  const safeSet = (k: string, v: string | null | undefined) => {
    try {
      if (v) storage.setItem(k, v)
      else storage.removeItem(k)
    } catch {
      /* storage unavailable: nothing to remember */
    }
  }

  const analytics = (eventName: string, payload: Record<string, unknown> = {}) => {
    if (!config.analytics) return
    api.post('/analytics_events', { eventName, payload }, { auth: 'none' }).catch(() => {
      /* analytics never fail a flow */
    })
  }

  function assertLoggedOut(source: string) {
    const user = session.user
    if (session.authenticated && user && !user.isGuest) {
      const message = texts('kernel', ERROR_TEXTS).alreadyLoggedIn
      warn(message, source)
      throw new PorticoError('already_logged_in', message)
    }
  }

  async function completeLogin(response: WireAuthResponse, meta: LoginMeta = {}): Promise<AuthResult> {
    const result = session.apply(response)
    if (!result) throw new PorticoError('missing_or_invalid_token', 'The server ended the session instead of starting one.')
    const remembered = meta.method ? methods.get(meta.method)?.remembered !== false : false
    if (meta.method && remembered) {
      safeSet(recentKeys.method, meta.method)
      safeSet(recentKeys.walletClientType, meta.walletClientType)
      safeSet(recentKeys.chainType, meta.chainType)
    }
    events.emit('login', { user: result.user, isNewUser: result.isNewUser, method: meta.method, oauthTokens: result.oauthTokens ?? null })
    analytics('login_completed', { method: meta.method ?? null, intent: meta.intent ?? 'login', is_new_user: result.isNewUser })
    const ctx: AuthContext = {
      ...result,
      method: meta.method,
      intent: meta.intent ?? 'login',
      session,
      screens,
      config,
    }
    await hooks.authenticated.promise(ctx)
    const done: AuthResult = { user: session.user ?? result.user, isNewUser: result.isNewUser }
    if (result.oauthTokens) done.oauthTokens = result.oauthTokens
    return done
  }

  // ------------------------------------------------------------------------------------------
  // Plugin runtime

  const runtimes = new Map<string, Runtime>()
  let started = false

  const pluginStorage = (id: string): PluginStorage => ({
    get: (key) => safeGet(`portico:${appId}:${id}:${key}`),
    set: (key, value) => safeSet(`portico:${appId}:${id}:${key}`, value),
  })

  function setupPlugin(plugin: PorticoPlugin) {
    const rt: Runtime = { undo: [] }
    runtimes.set(plugin.id, rt)
    const ownScreens: Navigator = Object.create(screens, {
      register: {
        value: <C>(def: Parameters<Navigator['register']>[0]) => {
          const off = screens.register<C>(def as never)
          rt.undo.push(off)
          return off
        },
      },
    })
    const ownMethods: MethodRegistry = {
      ...methods,
      declare(d) {
        const off = methods.declare(d)
        rt.undo.push(off)
        return off
      },
    }
    const ctx: PluginContext = {
      id: plugin.id,
      get config() {
        return config
      },
      get isReady() {
        return isReady
      },
      hooks,
      events,
      api,
      fetch: fetchFn,
      session,
      screens: ownScreens,
      methods: ownMethods,
      storage: pluginStorage(plugin.id),
      store<S>(initial: S) {
        if (rt.store) throw new PorticoError('invalid_plugin', `Plugin '${plugin.id}' asked for a second store; keep its state in one.`)
        const store = createStore<S>(initial)
        rt.store = store as Store<unknown>
        return store
      },
      provide(value) {
        rt.api = value
      },
      plugin: (id: string) => runtimes.get(id)?.api as never,
      declareErrors(declarations) {
        if (typeof declarations === 'function') {
          const lazy: LazyDeclarations = { plugin: plugin.id, load: declarations }
          lazyDeclarations.add(lazy)
          rt.undo.push(() => void lazyDeclarations.delete(lazy))
          hooks.errorView.tap(plugin.id, (err: PorticoError, c: ErrorContext): ErrorView | undefined => {
            if (lazy.loaded) return viewFromDeclarations(lazy.loaded, err, c)
            // Asked before the load (a headless caller): the kernel's view now, and load for next time.
            void loadDeclarations()
            return undefined
          })
          return
        }
        hooks.errorView.tap(plugin.id, (err: PorticoError, c: ErrorContext): ErrorView | undefined =>
          viewFromDeclarations(declarations, err, c),
        )
      },
      texts: (defaults, namespace) => texts(namespace ?? plugin.id, defaults),
      assertLoggedOut: () => assertLoggedOut(plugin.id),
      completeLogin,
      analytics,
      format: formatText,
      warn: (m) => warn(m, plugin.id),
    }
    let teardown: void | (() => void)
    try {
      teardown = plugin.setup(ctx)
    } catch (e) {
      throw new PorticoError('invalid_plugin', `Plugin '${plugin.id}' failed to set up: ${(e as Error)?.message ?? String(e)}`, {
        cause: e,
      })
    }
    if (typeof teardown === 'function') rt.undo.push(teardown)
  }

  function teardownPlugins() {
    for (const plugin of [...plugins].reverse()) {
      const rt = runtimes.get(plugin.id)
      if (!rt) continue
      for (const undo of rt.undo.splice(0).reverse()) {
        try {
          undo()
        } catch (e) {
          warn(`Plugin '${plugin.id}' failed to tear down: ${(e as Error).message}`, 'plugin')
        }
      }
      for (const hook of Object.values(hooks)) untap(hook, plugin.id)
      runtimes.delete(plugin.id)
    }
  }

  // ------------------------------------------------------------------------------------------
  // Start-up

  let readyPromise: Promise<void> | null = null
  let isReady = false
  let status: ReadyStatus = 'idle'
  let lastError: PorticoError | null = null
  let wake: (() => void) | null = null
  let returnFlow: Promise<unknown> | null = null
  let resumeStartUp: (() => void) | null = null
  const location = internals.location !== undefined ? internals.location : undefined

  const setStatus = (next: ReadyStatus) => {
    if (status === next) return
    status = next
    events.emit('status', { status: next })
  }

  /** Wait before the next try; 'online', 'focus' or `retryReady()` end the wait early. */
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
    const fetchConfig = host.skipServerConfig
      ? Promise.resolve(null)
      : api.get<WireAppConfig>(`/apps/${encodeURIComponent(appId)}`, { auth: 'none' })
    const [server, restored] = await Promise.allSettled([fetchConfig, session.restore()])
    if (server.status === 'rejected') throw toPorticoError(server.reason)
    if (server.value !== null && (typeof server.value !== 'object' || !Array.isArray(server.value.login_methods))) {
      throw new PorticoError('invalid_response', 'The server sent an app config this client cannot read.', {
        kind: 'api_error',
      })
    }
    serverConfig = server.value
    config = hooks.configure.call(serverConfig ? resolveConfig(host, serverConfig, warn) : config)
    textCache.clear()
    if (restored.status === 'rejected') warn(`Could not restore the session: ${String(restored.reason)}`, 'session')
  }

  function claimReturnPath() {
    const loc = location === undefined ? pageLocation() : location
    if (!loc) return
    let url: URL
    try {
      url = new URL(loc.href)
    } catch {
      return
    }
    let claim: ReturnClaim | undefined
    try {
      claim = hooks.returnPath.call({ url, config })
    } catch (e) {
      warn(`A plugin failed to read the page address: ${(e as Error).message}`, 'plugin')
      return
    }
    if (!claim) return
    // Strip before finishing, so a reload (or a failure) never replays a code or token.
    const next = new URL(url.href)
    for (const p of claim.params) next.searchParams.delete(p)
    if (claim.hashParams?.length && next.hash) {
      const h = new URLSearchParams(next.hash.slice(1))
      for (const p of claim.hashParams) h.delete(p)
      const rest = h.toString()
      next.hash = rest ? `#${rest}` : ''
    }
    if (next.href !== url.href) loc.replace(next.pathname + next.search + next.hash)
    returnFlow = loadDeclarations()
      .then(() => claim!.finish())
      .catch((e) => {
        const err = toPorticoError(e)
        events.emit('error', err)
        return undefined
      })
  }

  async function startUp(): Promise<void> {
    setStatus('loading')
    for (let attempt = 1; ; attempt++) {
      try {
        await loadOnce()
        break
      } catch (e) {
        const err = toPorticoError(e)
        if (!isTransient(err)) throw err
        lastError = new PorticoError('api_unreachable', ERROR_TEXTS.apiUnreachable, { cause: err, retryable: true, status: err.status })
        setStatus('retrying')
        events.emit('error', lastError)
        await waitForRetry((internals.retryDelay ?? defaultRetryDelay)(attempt))
        // A destroyed kernel stops trying until it is started again.
        if (!started) await new Promise<void>((resolve) => (resumeStartUp = resolve))
      }
    }
    lastError = null
    isReady = true
    setStatus('ready')
    events.emit('ready', { authenticated: session.authenticated })
    claimReturnPath()
    // In a task of its own: the error views are in before the user gets far.
    if (lazyDeclarations.size) setTimeout(() => void loadDeclarations(), 0)
  }

  const kernel: Portico = {
    get config() {
      return config
    },
    hooks,
    events,
    api,
    session,
    screens,
    methods,
    plugins,
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
      if (!started) kernel.start()
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
    retryReady() {
      wake?.()
    },
    plugin(id: string) {
      // A plugin API asked for before start (the React provider starts in an effect): start now.
      if (!started) kernel.start()
      const rt = runtimes.get(id)
      if (!rt || rt.api === undefined) {
        const known = plugins.some((p) => p.id === id)
        throw new PorticoError(
          'invalid_plugin',
          known
            ? `Plugin '${id}' hands out no API.`
            : `The ${id} plugin is not set up: add ${id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}() to config.plugins (import it from 'portico/plugins/${id}').`,
        )
      }
      return rt.api as never
    },
    hasPlugin: (id) => runtimes.has(id),
    pluginState: <S,>(id: string) => {
      if (!started) kernel.start()
      return runtimes.get(id)?.store as Store<S> | undefined
    },
    texts,
    loadDeclarations,
    setConfig(patch) {
      host = { ...host, ...patch, appId: host.appId, plugins: host.plugins }
      const next = isReady || host.skipServerConfig ? resolveConfig(host, serverConfig, warn) : resolveConfig(host, null, undefined, { requireLoginMethod: false })
      config = isReady ? hooks.configure.call(next) : next
      textCache.clear()
      events.emit('config', config)
    },
    completeLogin,
    assertLoggedOut: (source = 'ui') => assertLoggedOut(source),
    recentLogin() {
      const method = safeGet(recentKeys.method)
      return method
        ? { method, walletClientType: safeGet(recentKeys.walletClientType), chainType: safeGet(recentKeys.chainType) }
        : null
    },
    analytics,
    start() {
      if (started) return
      started = true
      session.connect()
      resumeStartUp?.()
      resumeStartUp = null
      try {
        for (const plugin of plugins) setupPlugin(plugin)
      } catch (e) {
        teardownPlugins()
        started = false
        throw e
      }
      events.emit('plugins', { started: true })
    },
    destroy() {
      if (!started) return
      started = false
      teardownPlugins()
      session.destroy()
      events.emit('plugins', { started: false })
    },
  }

  if (!internals.deferStart) kernel.start()
  return kernel
}

/** Fill `{name}` placeholders. Unknown placeholders stay as they are. */
export function formatText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
}
