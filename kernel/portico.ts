/**
 * `createPortico(config)`: the kernel object. Validates the host config, sets the plugins
 * up, and on `ready()` fetches the server's app config, merges and validates it, runs the
 * `configure` hook and restores the session (the two requests run side by side).
 */
import { resolveConfig, validateAppId, type PorticoConfig, type ResolvedConfig } from './config'
import { PorticoError, toPorticoError } from './errors'
import { createEvents, type PorticoEmitter } from './events'
import { createHooks, type AuthContext, type PorticoHooks } from './portico-hooks'
import { validatePlugins, type LoginMeta, type PluginContext, type PluginStorage, type PorticoPlugin } from './plugin'
import { createNavigator, type Navigator } from './screens'
import { createSession, defaultStorage, type AuthResult, type LockManagerLike, type ChannelLike, type Session } from './session'
import { createTransport, type Api } from './transport'
import type { WireAppConfig, WireAuthResponse } from './wire'

/** Methods never remembered as the recent one (part 1 section 4). */
const NOT_REMEMBERED = new Set(['passkey', 'cross_app', 'embedded_wallet'])

export interface RecentLogin {
  method: string
  walletClientType: string | null
  chainType: string | null
}

export interface Portico {
  /** The resolved config; merged with the server's app config once `ready()` has run. */
  readonly config: ResolvedConfig
  readonly hooks: Readonly<PorticoHooks>
  readonly events: PorticoEmitter
  readonly api: Api
  readonly session: Session
  readonly screens: Navigator
  readonly plugins: readonly PorticoPlugin[]
  readonly isReady: boolean
  /** Fetch app config, restore the session. Idempotent; rejects with a PorticoError. */
  ready(): Promise<void>
  /** Store a login response, remember the method, run the `authenticated` chain. */
  completeLogin(response: WireAuthResponse, meta?: LoginMeta): Promise<AuthResult>
  /** The last-used login method for this app, per browser. */
  recentLogin(): RecentLogin | null
  /** Tear down plugins and stop listening to other tabs. */
  destroy(): void
}

export interface KernelInternals {
  /** Tests and embedders: replace the cross-tab lock manager / channel. */
  locks?: LockManagerLike | null
  channel?: ChannelLike | null
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  analyticsId?: string
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

  const warn = (message: string, source = 'config') => {
    const listeners = events.all.get('warning')
    if (listeners && listeners.length) events.emit('warning', { message, source })
    else console.warn(`[portico] ${message}`)
  }

  // Before the server answers, validate what the host gave (app id, chains, logo); the
  // method list may still come from the server, so it is checked once that is merged.
  let config: ResolvedConfig = hostConfig.skipServerConfig
    ? resolveConfig(hostConfig, null, warn)
    : resolveConfig(hostConfig, null, undefined, { requireLoginMethod: false })

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
    normaliseAccount: (raw) => hooks.linkedAccount.call(raw),
    onLogout: () => hooks.logout.promise(),
    locks: internals.locks,
    channel: internals.channel,
    now: internals.now,
  })

  const screens: Navigator = createNavigator({
    errorView: (err, ctx) => hooks.errorView.call(err, ctx),
  })

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

  async function completeLogin(response: WireAuthResponse, meta: LoginMeta = {}): Promise<AuthResult> {
    const result = session.apply(response)
    if (!result) throw new PorticoError('missing_or_invalid_token', 'The server ended the session instead of starting one.')
    if (meta.method && !NOT_REMEMBERED.has(meta.method) && meta.walletClientType !== 'privy') {
      safeSet(recentKeys.method, meta.method)
      safeSet(recentKeys.walletClientType, meta.walletClientType)
      safeSet(recentKeys.chainType, meta.chainType)
    }
    events.emit('login', { user: result.user, isNewUser: result.isNewUser, method: meta.method })
    const ctx: AuthContext = {
      ...result,
      method: meta.method,
      intent: meta.intent ?? 'login',
      session,
      screens,
      config,
    }
    await hooks.authenticated.promise(ctx)
    return { user: session.user ?? result.user, isNewUser: result.isNewUser }
  }

  const teardowns: (() => void)[] = []
  let readyPromise: Promise<void> | null = null
  let isReady = false

  const kernel: Portico = {
    get config() {
      return config
    },
    hooks,
    events,
    api,
    session,
    screens,
    plugins,
    get isReady() {
      return isReady
    },
    ready() {
      readyPromise ??= (async () => {
        const fetchConfig = hostConfig.skipServerConfig
          ? Promise.resolve(null)
          : api.get<WireAppConfig>(`/apps/${encodeURIComponent(appId)}`, { auth: 'none' })
        const [server, restored] = await Promise.allSettled([fetchConfig, session.restore()])
        if (server.status === 'rejected') throw toPorticoError(server.reason)
        if (server.value !== null && (typeof server.value !== 'object' || !Array.isArray(server.value.login_methods))) {
          throw new PorticoError('invalid_response', 'The server sent an app config this client cannot read.', {
            kind: 'api_error',
          })
        }
        config = hooks.configure.call(server.value ? resolveConfig(hostConfig, server.value, warn) : config)
        if (restored.status === 'rejected') warn(`Could not restore the session: ${String(restored.reason)}`, 'session')
        isReady = true
        events.emit('ready', { authenticated: session.authenticated })
      })().catch((e) => {
        readyPromise = null
        const err = toPorticoError(e)
        events.emit('error', err)
        throw err
      })
      return readyPromise
    },
    completeLogin,
    recentLogin() {
      const method = safeGet(recentKeys.method)
      return method
        ? { method, walletClientType: safeGet(recentKeys.walletClientType), chainType: safeGet(recentKeys.chainType) }
        : null
    },
    destroy() {
      for (const t of teardowns.splice(0).reverse()) {
        try {
          t()
        } catch (e) {
          warn(`A plugin teardown failed: ${(e as Error).message}`, 'plugin')
        }
      }
      session.destroy()
    },
  }

  const pluginStorage = (id: string): PluginStorage => ({
    get: (key) => safeGet(`portico:${appId}:${id}:${key}`),
    set: (key, value) => safeSet(`portico:${appId}:${id}:${key}`, value),
  })

  for (const plugin of plugins) {
    const ctx: PluginContext = {
      id: plugin.id,
      get config() {
        return config
      },
      hooks,
      events,
      api,
      session,
      screens,
      storage: pluginStorage(plugin.id),
      completeLogin,
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
    if (typeof teardown === 'function') teardowns.push(teardown)
  }

  return kernel
}

/** Fill `{name}` placeholders. Unknown placeholders stay as they are. */
export function formatText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
}
