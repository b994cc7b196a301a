/**
 * The plugin contract. A plugin is a factory returning a plain object with an id, a kind
 * and `setup(ctx)`; setup taps the kernel's hooks, registers screens and may return its
 * teardown. Third parties use exactly this and nothing private.
 */
import type { ResolvedConfig } from './config'
import { PorticoError, type ErrorDeclarations } from './errors'
import type { PorticoEmitter } from './events'
import type { TapOnlyHooks } from './hooks'
import type { MethodRegistry } from './methods'
import type { AuthResult, Session } from './session'
import type { Navigator } from './screens'
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

export interface PluginContext {
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
  /** This plugin's texts with the app's overrides (`config.texts[<id>]`), or a shared base's namespace (`'wallet'`). */
  texts<T extends object>(defaults: T, namespace?: string): T
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

export interface PorticoPlugin<Id extends string = string> {
  /** Kebab-case, equals the folder and the subpath (`portico/plugins/<id>`). */
  id: Id
  kind: PluginKind
  setup(ctx: PluginContext): void | (() => void)
}

/** Identity helper for type inference; third parties use it the same way. */
export function definePlugin<Id extends string>(plugin: PorticoPlugin<Id>): PorticoPlugin<Id> {
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
    const { id, kind, setup } = p as Partial<PorticoPlugin>
    if (typeof id !== 'string' || !id) fail('no-id', i, p)
    else if (!KEBAB.test(id)) fail('bad-id', i, p)
    else if (seen.has(id)) fail('duplicate', i, p)
    else seen.add(id)
    if (!PLUGIN_KINDS.includes(kind as PluginKind)) fail('bad-kind', i, p)
    if (typeof setup !== 'function') fail('no-setup', i, p)
    return p as PorticoPlugin
  })
}
