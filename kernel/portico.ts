/**
 * `createPortico(config)`: the kernel object, wired from its parts: config (./config.ts),
 * transport, session, the screen navigator, the plugin runtime (./runtime.ts: each plugin's
 * context, state, API, declarations and teardown), start-up (./startup.ts: app config, session
 * restore, retries while the API is unreachable, then the return path, ./return-path.ts) and
 * the recent login method (./recent.ts).
 */
import { resolveConfig, validateAppId, type PorticoConfig, type ResolvedConfig } from './config'
import { PorticoError, START_ERROR_TEXTS, basicErrorView } from './errors'
import { createEvents, type PorticoEmitter } from './events'
import { createHooks, type PorticoHooks } from './hooks'
import { loadHooks } from './deferred-hooks'
import { lazyOnce, quiet } from './lazy'
import { createMethodRegistry, type MethodRegistry } from './methods'
import { validatePlugins, type LoginMeta, type PluginApis, type PorticoPlugin } from './plugin'
import { createRecentLogins, type RecentLogin } from './recent'
import type { PageLocation } from './startup'
import { createRuntime } from './runtime'
import { createNavigator, type Navigator } from './screens'
import { createSession, defaultStorage, type AuthResult, type LockManagerLike, type ChannelLike, type Session } from './session'
import type { ReadyStatus, Startup } from './startup'
import type { Store } from './store'
import { createTexts, mergeTexts } from './texts'
import { createTransport, type Api } from './transport'
import type { WireAppConfig, WireAuthResponse } from './wire'

export type { RecentLogin } from './recent'
export type { ReadyStatus } from './startup'
export { formatText } from './texts'

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
  /**
   * Texts of a namespace (a plugin id, 'ui', 'kernel') with the app's overrides; without
   * defaults, a plugin's manifest texts (loaded during start-up).
   */
  texts<T extends object>(namespace: string, defaults?: T): T
  /**
   * Load the error views that load lazily, once: the kernel's own (./error-views.ts, which
   * `ready()` loads too) and what plugins declared as loaders (`ctx.declareErrors(() =>
   * import('./errors'))`). Every lazy screen's load waits for it, and so does a flow the page
   * address carries, so an error is never shown before its view is in. Never rejects: a chunk
   * that fails to load is warned about and tried again by the next call.
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
  location?: PageLocation | null
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

export function createPortico(hostConfig: PorticoConfig, internals: KernelInternals = {}): Portico {
  if (!hostConfig || typeof hostConfig !== 'object') {
    throw new PorticoError('invalid_config', 'createPortico needs a config object with at least an appId.')
  }
  const appId = validateAppId(hostConfig.appId)
  const plugins = validatePlugins(hostConfig.plugins)
  const events = createEvents()
  const hooks = createHooks()
  const storage = hostConfig.storage ?? defaultStorage()
  let host: PorticoConfig = hostConfig
  let started = false

  const warn = (message: string, source = 'config') => {
    const listeners = events.all.get('warning')
    if (listeners && listeners.length) events.emit('warning', { message, source })
    else console.warn(`[portico] ${message}`)
  }

  // Before the server answers, validate what the host gave (app id, chains, logo); the
  // method list may still come from the server, so it is checked once that is merged.
  const hostOnly = () =>
    host.skipServerConfig ? resolveConfig(host, null, warn) : resolveConfig(host, null, undefined, { requireLoginMethod: false })
  let config: ResolvedConfig = hostOnly()
  let serverConfig: WireAppConfig | null = null
  const { texts, clear: clearTexts } = createTexts(() => config.texts, warn)

  const analyticsId = () => {
    if (internals.analyticsId) return internals.analyticsId
    try {
      const existing = storage.getItem('portico:ca-id')
      if (existing) return existing
      const id = randomId()
      storage.setItem('portico:ca-id', id)
      return id
    } catch {
      return 'unavailable'
    }
  }
  const methods = createMethodRegistry(undefined, (m) => warn(m, 'plugin'))
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
  const session = createSession({
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
  const recent = createRecentLogins(storage, appId)

  // The kernel's own error views (./error-views.ts) load beside start-up: ready() waits for them,
  // and so do every lazy screen (but the first open's) and a claimed return flow, with the
  // plugins' lazily declared ones. Until then, or when they cannot load, the basic view shows.
  const errorViews = lazyOnce(() => import('./error-views'))
  const loadErrorViews = () =>
    errorViews().then(
      // Merged now: a mistyped 'kernel' text override warns during start-up.
      (m) => void texts('kernel', m.ERROR_TEXTS),
      (e) => warn(`Could not load the error views: ${(e as Error)?.message ?? String(e)}`, 'kernel'),
    )
  const loadDeclarations = () => Promise.all([loadErrorViews(), runtime.loadDeclarations()]).then(() => {})
  // The few error texts needed before the error views (and the catalogue) load, with the app's
  // overrides; the catalogue's merge warns about unknown keys, so this one does not.
  const startTexts = () => mergeTexts(START_ERROR_TEXTS, config.texts.kernel)
  const screens: Navigator = createNavigator({
    errorView: (err, ctx) => hooks.errorView.call(err, ctx),
    fallbackView(err, ctx) {
      const views = errorViews.current
      if (views) return views.defaultErrorView(err, ctx, texts('kernel', views.ERROR_TEXTS))
      void loadErrorViews()
      return basicErrorView(startTexts())
    },
    onLoad: (def) => (def.firstOpen ? undefined : loadDeclarations()),
  })

  const analytics = (eventName: string, payload: Record<string, unknown> = {}) => {
    if (!config.analytics) return
    api.post('/analytics_events', { eventName, payload }, { auth: 'none' }).catch(() => {
      /* analytics never fail a flow */
    })
  }

  function assertLoggedOut(source: string) {
    const user = session.user
    if (session.authenticated && user && !user.isGuest) {
      const message = startTexts().alreadyLoggedIn
      warn(message, source)
      throw new PorticoError('already_logged_in', message)
    }
  }

  // Finishing a login (./login.ts) loads beside start-up, as the error views do: only a login needs it.
  const login = lazyOnce(() =>
    import('./login').then((m) =>
      m.createCompleteLogin({ session, methods, recent, events, hooks, screens, config: () => config, analytics }),
    ),
  )
  const completeLogin = (response: WireAuthResponse, meta?: LoginMeta): Promise<AuthResult> =>
    login.current ? login.current(response, meta) : login().then((finish) => finish(response, meta))

  const runtime = createRuntime({
    appId,
    plugins,
    hooks,
    events,
    api,
    fetch: (...args) => (hostConfig.fetch ?? globalThis.fetch)(...args),
    session,
    screens,
    methods,
    storage,
    config: () => config,
    isReady: () => !!startup?.isReady,
    texts,
    warn,
    assertLoggedOut,
    completeLogin,
    analytics,
  })

  // Start-up's runner (./startup.ts: retries, the return path) loads when ready() is first
  // asked for. What it waits for is already on its way by then (`early`: the app config, the
  // session's restore, tapable, the error views and the plugins' texts), so it stays out of the
  // first load and adds no round trip.
  let startup: Startup | null = null
  let early: { config?: Promise<WireAppConfig | null>; restore?: Promise<unknown>; preload?: Promise<void> } = {}
  const fetchConfig = () =>
    host.skipServerConfig ? Promise.resolve(null) : api.get<WireAppConfig>(`/apps/${encodeURIComponent(appId)}`, { auth: 'none' })
  const preload = () => Promise.all([loadErrorViews(), login().catch(() => {}), runtime.loadTexts()]).then(() => {})
  /** An early request, once; a retry asks again. */
  const take = <T,>(key: keyof typeof early, fresh: () => Promise<T>): Promise<T> => {
    const p = early[key] as Promise<T> | undefined
    early[key] = undefined
    return p ?? fresh()
  }
  const loadStartup = lazyOnce(() => import('./startup').then((m) => (startup ??= m.createStartup({
    session,
    hooks,
    events,
    internals,
    loadHooks,
    unreachableText: () => startTexts().apiUnreachable,
    fetchConfig: () => take('config', fetchConfig),
    restore: () => take('restore', () => session.restore()),
    applyServerConfig(server) {
      serverConfig = server
      config = hooks.configure.call(serverConfig ? resolveConfig(host, serverConfig, warn) : config)
      clearTexts()
    },
    config: () => config,
    started: () => started,
    preload: () => take('preload', preload),
    loadDeclarations,
    hasLazyDeclarations: runtime.hasLazyDeclarations,
    warn,
  }))))

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
      return !!startup?.isReady
    },
    get status() {
      return startup?.status ?? 'idle'
    },
    get lastError() {
      return startup?.lastError ?? null
    },
    get returnFlow() {
      return startup?.returnFlow ?? null
    },
    ready() {
      if (!started) kernel.start()
      if (startup) return startup.ready()
      if (!early.config) {
        // Start-up's first try awaits (and reports) these.
        early = { config: quiet(fetchConfig()), restore: quiet(session.restore()), preload: preload() }
        void quiet(loadHooks())
      }
      return loadStartup().then(
        (s) => s.ready(),
        (e: unknown) => {
          const err = new PorticoError('network_error', `Could not load the kernel's start-up: ${(e as Error)?.message ?? String(e)}`, { cause: e, retryable: true })
          events.emit('error', err)
          throw err
        },
      )
    },
    retryReady: () => startup?.retry(),
    plugin(id: string) {
      // A plugin API asked for before start (the React provider starts in an effect): start now.
      if (!started) kernel.start()
      return runtime.api(id) as never
    },
    hasPlugin: runtime.has,
    pluginState: <S,>(id: string) => {
      if (!started) kernel.start()
      return runtime.state(id) as Store<S> | undefined
    },
    texts: (namespace, defaults) => (defaults ? texts(namespace, defaults) : (runtime.texts(namespace) as never)),
    loadDeclarations,
    setConfig(patch) {
      host = { ...host, ...patch, appId: host.appId, plugins: host.plugins }
      config = startup?.isReady ? hooks.configure.call(resolveConfig(host, serverConfig, warn)) : hostOnly()
      clearTexts()
      events.emit('config', config)
    },
    completeLogin,
    assertLoggedOut: (source = 'ui') => assertLoggedOut(source),
    recentLogin: recent.get,
    analytics,
    start() {
      if (started) return
      started = true
      session.connect()
      startup?.resume()
      try {
        runtime.start()
      } catch (e) {
        started = false
        throw e
      }
      events.emit('plugins', { started: true })
    },
    destroy() {
      if (!started) return
      started = false
      runtime.stop()
      session.destroy()
      events.emit('plugins', { started: false })
    },
  }

  if (!internals.deferStart) kernel.start()
  return kernel
}
