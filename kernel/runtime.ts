/**
 * The plugin runtime (contract v2): sets each plugin up from its manifest (texts, errors,
 * screens, method) and its `setup(ctx)`, holds what it hands the kernel (its state store, its
 * API, its screens, method descriptors, error declarations and taps) and undoes all of it on
 * teardown, so a plugin set can start again (React StrictMode). Texts load during start-up
 * (`loadTexts()`, which `ready()` waits for; a plugin whose texts fail to load is disabled);
 * error declarations given as a loader stay out of the page's first load: `loadDeclarations()`
 * loads them once.
 */
import type { ResolvedConfig, TokenStorage } from './config'
import { PorticoError, viewFromDeclarations, type ErrorContext, type ErrorDeclarations, type ErrorView } from './errors'
import type { PorticoEmitter } from './events'
import type { PorticoHooks } from './hooks'
import type { MethodDescriptor, MethodRegistry } from './methods'
import { lazyOnce, quiet } from './lazy'
import type { LazyFlow, PluginContext, PorticoPlugin } from './plugin'
import { safeStorage } from './recent'
import type { Navigator } from './screens'
import type { Session } from './session'
import { createStore, type Store } from './store'
import { untapDeferred as untap } from './deferred-hooks'
import { formatText } from './texts'
import type { Api } from './transport'

/** What the kernel hands the runtime to build each plugin's context from. */
export interface RuntimeDeps {
  appId: string
  plugins: readonly PorticoPlugin[]
  hooks: Readonly<PorticoHooks>
  events: PorticoEmitter
  api: Api
  /** `fetch` for other hosts (the host's `fetch` option). */
  fetch: typeof fetch
  session: Session
  screens: Navigator
  methods: MethodRegistry
  storage: TokenStorage
  config(): ResolvedConfig
  isReady(): boolean
  texts<T extends object>(namespace: string, defaults: T): T
  warn(message: string, source: string): void
  assertLoggedOut(source: string): void
  completeLogin: PluginContext['completeLogin']
  analytics: PluginContext['analytics']
}

export interface PluginRuntime {
  /** Set every plugin up, in order; when one fails, the ones set up are torn down and it throws. */
  start(): void
  /** Tear every plugin down (its teardown, taps, screens, methods, state, API), last first. */
  stop(): void
  /** A plugin's API; throws a message that says what to fix. */
  api(id: string): unknown
  has(id: string): boolean
  /** A plugin's state store, if it keeps one. */
  state(id: string): Store<unknown> | undefined
  /** Load the error declarations given as loaders, once; never rejects (a failure warns and is tried again next call). */
  loadDeclarations(): Promise<void>
  /** Whether some plugin declared its errors as a loader. */
  hasLazyDeclarations(): boolean
  /**
   * Wait for the plugins' texts (and `beforeReady` loads), started by `start()`; never rejects:
   * a plugin whose texts cannot load is disabled (torn down, a warning, `api(id)` says why).
   */
  loadTexts(): Promise<void>
  /** A plugin's manifest texts with the app's overrides (after start-up). */
  texts(id: string): object
}

interface Held {
  store?: Store<unknown>
  api?: unknown
  undo: (() => void)[]
  /** What start-up waits for before this plugin is usable (its texts, `beforeReady` loads). */
  before: Promise<unknown>[]
  /** Set when its texts could not load. */
  disabled?: PorticoError
}

/** Loaded texts by plugin object: a restart (StrictMode) does not load them again. */
const loadedTexts = new WeakMap<PorticoPlugin, object>()

/** A plugin's error declarations given as a loader: loaded once, by `loadDeclarations()`. */
interface LazyDeclarations {
  plugin: string
  load: () => Promise<ErrorDeclarations>
  loaded?: ErrorDeclarations
  pending?: Promise<void>
}

export function createRuntime(deps: RuntimeDeps): PluginRuntime {
  const { hooks, screens, methods } = deps
  const held = new Map<string, Held>()
  const lazyDeclarations = new Set<LazyDeclarations>()
  const storage = safeStorage(deps.storage)

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
                deps.warn(`Could not load the error views of plugin '${d.plugin}': ${(e as Error)?.message ?? String(e)}`, 'plugin')
              },
            )),
      ),
    ).then(() => undefined)

  /** The plugin's loaded texts with the app's overrides; throws before they are in (or without a manifest's texts). */
  function textsOf(plugin: PorticoPlugin): object {
    const loaded = loadedTexts.get(plugin)
    if (!loaded) throw new PorticoError('invalid_plugin', `Plugin '${plugin.id}' has no texts loaded (manifest texts; after ready()).`)
    return deps.texts(plugin.id, loaded)
  }

  function context(plugin: PorticoPlugin, own: Held, textsLoaded: Promise<unknown>): PluginContext {
    const id = plugin.id
    const undoable = <A extends unknown[]>(add: (...a: A) => () => void) => (...a: A) => {
      const off = add(...a)
      own.undo.push(off)
      return off
    }
    return {
      id,
      get config() {
        return deps.config()
      },
      get isReady() {
        return deps.isReady()
      },
      hooks,
      events: deps.events,
      api: deps.api,
      fetch: deps.fetch,
      session: deps.session,
      // Screens and methods declared here are undone with the plugin's teardown.
      screens: Object.create(screens, { register: { value: undoable(screens.register) } }),
      methods: { ...methods, declare: undoable(methods.declare) },
      storage: {
        get: (key) => storage.get(`portico:${deps.appId}:${id}:${key}`),
        set: (key, value) => storage.set(`portico:${deps.appId}:${id}:${key}`, value),
      },
      store<S>(initial: S) {
        if (own.store) throw new PorticoError('invalid_plugin', `Plugin '${id}' asked for a second store; keep its state in one.`)
        const store = createStore<S>(initial)
        own.store = store as Store<unknown>
        return store
      },
      provide(value) {
        own.api = value
      },
      plugin: (other: string) => held.get(other)?.api as never,
      declareErrors(declarations) {
        if (typeof declarations !== 'function') {
          hooks.errorView.tap(id, (err: PorticoError, c: ErrorContext) => viewFromDeclarations(declarations, err, c))
          return
        }
        const lazy: LazyDeclarations = { plugin: id, load: declarations }
        lazyDeclarations.add(lazy)
        own.undo.push(() => void lazyDeclarations.delete(lazy))
        hooks.errorView.tap(id, (err: PorticoError, c: ErrorContext): ErrorView | undefined => {
          if (lazy.loaded) return viewFromDeclarations(lazy.loaded, err, c)
          // Asked before the load (a headless caller): the kernel's view now, and load for next time.
          void loadDeclarations()
          return undefined
        })
      },
      texts: ((defaults?: object, namespace?: string) =>
        defaults === undefined ? textsOf(plugin) : deps.texts(namespace ?? id, defaults)) as PluginContext['texts'],
      lazy<V>(load: () => Promise<V>, options?: { beforeReady?: boolean }): LazyFlow<V> {
        const flow = lazyOnce(() => textsLoaded.then(load)) as LazyFlow<V>
        flow.methods = (...names) =>
          Object.fromEntries(
            names.map((name) => [name, async (...args: unknown[]) => ((await flow()) as Record<PropertyKey, (...a: unknown[]) => unknown>)[name](...args)]),
          ) as never
        if (options?.beforeReady) own.before.push(quiet(flow()))
        return flow
      },
      assertLoggedOut: () => deps.assertLoggedOut(id),
      completeLogin: deps.completeLogin,
      analytics: deps.analytics,
      format: formatText,
      warn: (m) => deps.warn(m, id),
    }
  }

  /** The manifest's parts the kernel sets up: the method, the screens, the error declarations. */
  function setUpManifest(plugin: PorticoPlugin, ctx: PluginContext, textsLoaded: Promise<unknown>) {
    if (plugin.method) {
      const descriptor = { id: plugin.id, ...plugin.method } as Record<string, unknown>
      // The display name and transfer label read the texts when asked (after start-up); the id before.
      for (const key of ['displayName', 'transferLabel']) {
        const text = descriptor[key]
        if (typeof text === 'function') {
          Object.defineProperty(descriptor, key, { enumerable: true, get: () => (loadedTexts.has(plugin) ? text(textsOf(plugin)) : plugin.id) })
        }
      }
      ctx.methods.declare(descriptor as unknown as MethodDescriptor)
    }
    for (const [screen, def] of Object.entries(plugin.screens ?? {})) {
      ctx.screens.register(typeof def === 'function' ? { id: screen, load: def } : { ...def, id: screen })
    }
    const errors = plugin.errors
    if (errors) ctx.declareErrors(() => textsLoaded.then(() => errors(() => textsOf(plugin) as never, ctx)))
  }

  function setUp(plugin: PorticoPlugin) {
    const textsLoaded = quiet(
      plugin.texts && !loadedTexts.has(plugin)
        ? plugin.texts().then((t) => {
            loadedTexts.set(plugin, t)
            // Merge the app's overrides now, so a mistyped key warns during start-up, not at first use.
            deps.texts(plugin.id, t)
          })
        : Promise.resolve(),
    )
    const own: Held = { undo: [], before: [textsLoaded] }
    held.set(plugin.id, own)
    let teardown: void | (() => void)
    try {
      const ctx = context(plugin, own, textsLoaded)
      setUpManifest(plugin, ctx, textsLoaded)
      teardown = plugin.setup?.(ctx)
    } catch (e) {
      throw new PorticoError('invalid_plugin', `Plugin '${plugin.id}' failed to set up: ${(e as Error)?.message ?? String(e)}`, {
        cause: e,
      })
    }
    if (typeof teardown === 'function') own.undo.push(teardown)
  }

  function tearDown(plugin: PorticoPlugin, own: Held) {
    for (const undo of own.undo.splice(0).reverse()) {
      try {
        undo()
      } catch (e) {
        deps.warn(`Plugin '${plugin.id}' failed to tear down: ${(e as Error).message}`, 'plugin')
      }
    }
    for (const hook of Object.values(hooks)) untap(hook, plugin.id)
  }

  function stop() {
    for (const plugin of [...deps.plugins].reverse()) {
      const own = held.get(plugin.id)
      if (!own) continue
      tearDown(plugin, own)
      held.delete(plugin.id)
    }
  }

  /** Its texts (or a `beforeReady` load) could not load: tear it down, keep why, warn. */
  function disable(plugin: PorticoPlugin, own: Held, e: unknown) {
    if (held.get(plugin.id) !== own || own.disabled) return
    own.disabled = new PorticoError('invalid_plugin', `Plugin '${plugin.id}' is disabled: its texts could not load (${(e as Error)?.message}).`, {
      cause: e,
    })
    tearDown(plugin, own)
    own.api = own.store = undefined
    deps.warn(own.disabled.message, 'plugin')
  }

  const loadTexts = (): Promise<void> =>
    Promise.all(
      deps.plugins.map((plugin) => {
        const own = held.get(plugin.id)
        return own && Promise.all(own.before).catch((e) => disable(plugin, own, e))
      }),
    ).then(() => undefined)

  return {
    start() {
      try {
        for (const plugin of deps.plugins) setUp(plugin)
      } catch (e) {
        stop()
        throw e
      }
    },
    stop,
    api(id) {
      const own = held.get(id)
      if (own?.disabled) throw own.disabled
      if (!own || own.api === undefined) {
        const known = deps.plugins.some((p) => p.id === id)
        let message = known ? `Plugin '${id}' hands out no API.` : `Plugin '${id}' is not set up.`
        // Development builds say what to fix; a bundler defining process.env.NODE_ENV as 'production' drops the text.
        try {
          if (process.env.NODE_ENV !== 'production' && !known) {
            const factory = id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
            message = `The ${id} plugin is not set up: add ${factory}() to config.plugins (import it from 'portico/plugins/${id}').`
          }
        } catch {
          /* no `process` */
        }
        throw new PorticoError('invalid_plugin', message)
      }
      return own.api
    },
    has: (id) => held.get(id)?.disabled === undefined && held.has(id),
    state: (id) => held.get(id)?.store,
    loadDeclarations,
    hasLazyDeclarations: () => lazyDeclarations.size > 0,
    loadTexts,
    texts: (id) => textsOf(deps.plugins.find((p) => p.id === id) ?? ({ id } as PorticoPlugin)),
  }
}
