/**
 * The plugin contract. A plugin is a factory returning a plain object, its manifest: an id, a
 * kind, and what the kernel loads for it — its texts (during start-up, beside the app config,
 * so they are synchronous by the time anything renders), its error declarations and screens
 * (on use), its login method — plus an optional `setup(ctx)` that taps the kernel's hooks,
 * hands out an API (with `ctx.lazy` for a flow that loads on first call) and may return its
 * teardown. Every loader is a dynamic import the kernel calls: a plugin author never thinks
 * about chunks. Third parties use exactly this and nothing private; a plugin that is only
 * `{ id, kind, setup }` (0.2.0) runs unchanged.
 */
import type { ResolvedConfig } from './config'
import { PorticoError, type ErrorDeclarations } from './errors'
import type { PorticoEmitter } from './events'
import type { TapOnlyHooks } from './hooks'
import type { Lazy } from './lazy'
import type { MethodDescriptor, MethodRegistry } from './methods'
import type { AuthResult, Session } from './session'
import type { Navigator, ScreenDefinition } from './screens'
import type { Store } from './store'
import type { Api } from './transport'
import type { WireAuthResponse } from './wire'

export const PLUGIN_KINDS = ['login', 'wallet', 'mfa', 'funding', 'captcha', 'recovery', 'feature'] as const
export type PluginKind = (typeof PLUGIN_KINDS)[number]

/**
 * The APIs plugins hand out through the kernel (`kernel.plugin(id)`, `usePlugin(id)`), typed
 * by declaration merging — each plugin adds its own entry:
 *
 * ```ts
 * declare module 'portico' {
 *   interface PluginApis { 'my-login': MyLoginApi }
 * }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface PluginApis {}

export interface LoginMeta {
  /** The login method id, remembered as the recent method unless its descriptor says not. */
  method?: string
  /** Extra keys of the recent-method record (wallet client type, chain type). */
  walletClientType?: string
  chainType?: string
  intent?: 'login' | 'link' | 'update'
}

/** Small key-value storage namespaced to one plugin and app (localStorage when available). */
export interface PluginStorage {
  get(key: string): string | null
  set(key: string, value: string | null): void
}

/** Async forwarders of some methods of a lazily loaded value (`ctx.lazy(...).methods('a', 'b')`). */
export type LazyMethods<V, K extends keyof V> = {
  [P in K]: V[P] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never
}

/**
 * A value (a plugin's flow) built by a loader on first call, once (`ctx.lazy`): callers at the
 * same time share one load, a failed load is tried again by the next call, `current` is the
 * value once it is in. It waits for the plugin's texts first, so the flow may read them.
 */
export interface LazyFlow<V> extends Lazy<V> {
  /** API methods that run in the loaded value: each loads it on first call and forwards. */
  methods<K extends keyof V>(...names: K[]): LazyMethods<V, K>
}

export interface LazyOptions {
  /**
   * Load during start-up, with the texts (`ready()` waits for it; a failure disables the plugin
   * as failing texts do): for what must answer synchronously once the app is ready.
   */
  beforeReady?: boolean
}

export interface PluginContext<T extends object = Record<string, string>> {
  /** This plugin's id. */
  readonly id: string
  /** The resolved config (merged with the server's after `ready()`). */
  readonly config: ResolvedConfig
  /** Whether start-up has finished (the 'ready' event fires when it does; a restart after it does not fire it again). */
  readonly isReady: boolean
  /** The kernel's hooks: tap only (with this plugin's id as the name), the kernel calls them. */
  readonly hooks: TapOnlyHooks
  readonly events: PorticoEmitter
  /** The Portico API (`/api/v1`). */
  readonly api: Api
  /** `fetch` for every other host (a provider, a chain's RPC): the host's `fetch` option, so test doubles see it. */
  readonly fetch: typeof fetch
  readonly session: Session
  /** Screens: `register` here is undone with the plugin's teardown. */
  readonly screens: Navigator
  /** Login-method descriptors: `declare` here is undone with the plugin's teardown. */
  readonly methods: MethodRegistry
  readonly storage: PluginStorage
  /** This plugin's state, held by the kernel (one store per plugin; React: `usePluginState(id)`). */
  store<S>(initial: S): Store<S>
  /** Hand out this plugin's API: `kernel.plugin(id)` and `usePlugin(id)` return it. */
  provide<A>(api: A): void
  /** Another plugin's API (what `kernel.plugin(id)` returns), or undefined when that plugin is not set up or hands out none. */
  plugin<K extends keyof PluginApis>(id: K): PluginApis[K] | undefined
  plugin<A = unknown>(id: string): A | undefined
  /**
   * Declare this plugin's error codes and the views they show, in one place (taps `errorView`).
   * Pass a loader (`() => import('./errors').then((m) => m.MY_ERRORS)`) to keep them and their
   * texts out of the page's initial load: the kernel loads them before any lazy screen renders
   * (`Portico.loadDeclarations`).
   */
  declareErrors(declarations: ErrorDeclarations | (() => Promise<ErrorDeclarations>)): void
  /**
   * This plugin's texts (the manifest's `texts`, loaded during start-up) with the app's
   * overrides (`config.texts[<id>]`). Throws when asked before start-up loaded them.
   */
  texts(): T
  /** Given defaults with the app's overrides of this plugin's namespace, or a shared base's (`'wallet'`). */
  texts<U extends object>(defaults: U, namespace?: string): U
  /**
   * A flow that loads on first call (or with a landing entry's `preload`), built once:
   * `const flow = ctx.lazy(() => import('./flow').then((m) => m.createFlow(ctx, state)))`, then
   * `ctx.provide({ ...flow.methods('logIn', 'link'), ... })`.
   */
  lazy<V>(load: () => Promise<V>, options?: LazyOptions): LazyFlow<V>
  /**
   * Refuse a login while a non-guest user is logged in: warns the host and throws
   * `already_logged_in` (the one code every method uses for it). Guests may log in (upgrade).
   */
  assertLoggedOut(): void
  /** Finish a login or link: store the session, remember the method, run the `authenticated` chain. */
  completeLogin(response: WireAuthResponse, meta?: LoginMeta): Promise<AuthResult>
  /** Record a login-flow event (`POST /analytics_events`), unless the host turned analytics off. */
  analytics(eventName: string, payload?: Record<string, unknown>): void
  /** Fill `{placeholders}` in a text. */
  format(text: string, values: Record<string, string | number>): string
  /** Report something the host developer should fix, without failing. */
  warn(message: string): void
}

/** A text of the plugin's texts, or a fixed string. */
export type TextOf<T> = string | ((texts: T) => string)

/**
 * The login method a plugin declares (`MethodDescriptor`), its id defaulting to the plugin's;
 * the display name and transfer label read the plugin's texts (with the app's overrides).
 */
export type MethodManifest<T> = Omit<MethodDescriptor, 'id' | 'displayName' | 'transferLabel'> & {
  id?: string
  displayName: TextOf<T>
  transferLabel?: TextOf<T>
}

/** A screen: its loader (`() => import('./screens/x')`) or its definition without the id. */
export type ScreenManifest = NonNullable<ScreenDefinition['load']> | Omit<ScreenDefinition, 'id'>

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface PorticoPlugin<Id extends string = string, T extends object = any> {
  /** Kebab-case, equals the folder and the subpath (`portico/plugins/<id>`). */
  id: Id
  kind: PluginKind
  /**
   * This plugin's texts (`() => import('./strings').then((m) => m.MY_TEXTS)`): loaded during
   * start-up beside the app config, merged with the app's `texts: { <id>: {...} }` (unknown keys
   * warn); `ctx.texts()` reads them. When they cannot load, the plugin is disabled (a warning;
   * the others keep working).
   */
  texts?: () => Promise<T>
  /** Its error declarations (`(texts) => import('./errors').then((m) => m.myErrors(texts))`), loaded on use. */
  errors?: (texts: () => T, ctx: PluginContext<T>) => Promise<ErrorDeclarations>
  /** Its screens by id (`{ 'my-login-code': () => import('./screens/code') }`), each loaded on first open. */
  screens?: Readonly<Record<string, ScreenManifest>>
  /** Its login method (account types, normalise, unlink ...). */
  method?: MethodManifest<T>
  /** Taps, state, API, anything else; may return the teardown. Undone with the plugin. */
  setup?(ctx: PluginContext<T>): void | (() => void)
}

/** Identity helper for type inference (the texts' type flows into `ctx.texts()`); third parties use it the same way. */
export function definePlugin<Id extends string, T extends object = Record<string, string>>(plugin: PorticoPlugin<Id, T>): PorticoPlugin<Id, T> {
  return plugin
}

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

type PluginProblem = 'not-a-list' | 'not-an-object' | 'no-id' | 'bad-id' | 'duplicate' | 'bad-kind' | 'no-setup'

/**
 * What to say about a bad plugin. Development builds say what to fix; production builds name
 * the problem (a bundler that defines process.env.NODE_ENV as 'production' drops the texts).
 */
function problemMessage(problem: PluginProblem, index: number, p: unknown): string {
  const { id } = (p ?? {}) as Partial<PorticoPlugin>
  const label = `Plugin #${index + 1}`
  const named = typeof id === 'string' && id ? `Plugin '${id}'` : label
  try {
    if (process.env.NODE_ENV !== 'production') return devProblemMessage(problem, label, named, p)
  } catch {
    /* no `process` (no bundler): not development */
  }
  return `${named}: ${problem}`
}

function devProblemMessage(problem: PluginProblem, label: string, named: string, p: unknown): string {
  const { id, kind } = (p ?? {}) as Partial<PorticoPlugin>
  switch (problem) {
    case 'not-a-list':
      return 'config.plugins must be an array of plugins, e.g. plugins: [email()].'
    case 'not-an-object':
      return `${label} is ${p === null ? 'null' : typeof p}, not a plugin object: did you pass the factory (email) instead of calling it (email())?`
    case 'no-id':
      return `${label} has no id: give it a kebab-case id such as 'my-login'.`
    case 'bad-id':
      return `${named} has an invalid id: use kebab-case (lower-case letters, digits and '-'), e.g. 'my-login'.`
    case 'duplicate':
      return `Plugin '${id}' is added more than once: each plugin id may be used once; remove the duplicate from config.plugins.`
    case 'bad-kind':
      return `${named} has kind '${String(kind)}': use one of ${PLUGIN_KINDS.join(', ')}.`
    case 'no-setup':
      return `${named} has no setup(ctx) function.`
  }
}

/** Check a list of plugins; throws `invalid_plugin` with a message that says what to fix. */
export function validatePlugins(plugins: unknown): PorticoPlugin[] {
  if (plugins === undefined) return []
  const fail = (problem: PluginProblem, index = 0, p?: unknown): never => {
    throw new PorticoError('invalid_plugin', problemMessage(problem, index, p))
  }
  if (!Array.isArray(plugins)) fail('not-a-list')
  const seen = new Set<string>()
  return (plugins as unknown[]).map((p, i) => {
    if (!p || typeof p !== 'object') fail('not-an-object', i, p)
    const { id, kind, setup, texts, errors, screens, method } = p as Partial<PorticoPlugin>
    if (typeof id !== 'string' || !id) fail('no-id', i, p)
    else if (!KEBAB.test(id)) fail('bad-id', i, p)
    else if (seen.has(id)) fail('duplicate', i, p)
    else seen.add(id)
    if (!PLUGIN_KINDS.includes(kind as PluginKind)) fail('bad-kind', i, p)
    const manifest = texts !== undefined || errors !== undefined || screens !== undefined || method !== undefined
    if (setup === undefined ? !manifest : typeof setup !== 'function') fail('no-setup', i, p)
    return p as PorticoPlugin
  })
}
