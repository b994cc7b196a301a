/**
 * Custom auth, framework-free (part 1 sections 4 and 8). The host's own auth issues a JWT;
 * `sync()` reads it through `getCustomAccessToken()` and keeps the Portico session in step:
 * a token logs the user in (again when it names another user), no token logs a custom-auth
 * user out. States: not-enabled, initial, loading, done, error.
 */
import { PorticoError, type PluginContext } from 'portico'
import * as calls from './calls'
import { toCustomAuthError } from './errors'
import { CUSTOM_AUTH_TEXTS } from './strings'

export type CustomAuthStatus = 'not-enabled' | 'initial' | 'loading' | 'done' | 'error'

export interface CustomAuthState {
  status: CustomAuthStatus
  error: PorticoError | null
}

export interface CustomAuthOptions {
  /** Returns the host's current JWT, or null/undefined when its user is logged out. */
  getCustomAccessToken?: () => Promise<string | null | undefined>
  /** True while the host's auth is still loading: sync waits. A boolean or a function. */
  isLoading?: boolean | (() => boolean)
}

export interface CustomAuth {
  getState(): CustomAuthState
  subscribe(listener: (s: CustomAuthState) => void): () => void
  /** Read the host's token and log in or out to match. Calls made while one runs are merged into one more run. */
  sync(): Promise<CustomAuthState>
  /** Replace the host callbacks (React hosts pass fresh ones on render); re-syncs when they changed. */
  setOptions(options: CustomAuthOptions): void
}

/** `sub` of a JWT, without verifying (the server verifies). */
export function jwtSubject(token: string): string | null {
  const part = token.split('.')[1]
  if (!part) return null
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')
    const sub = JSON.parse(atob(b64)).sub
    return typeof sub === 'string' ? sub : null
  } catch {
    return null
  }
}

export function createCustomAuth(
  ctx: Pick<PluginContext, 'api' | 'session' | 'completeLogin' | 'warn'>,
  initial: CustomAuthOptions = {},
  /** Resolves once the kernel restored its session; syncs wait for it. */
  ready: Promise<unknown> = Promise.resolve(),
): CustomAuth {
  let options = { ...initial }
  const enabled = () => typeof options.getCustomAccessToken === 'function'
  let state: CustomAuthState = { status: enabled() ? 'initial' : 'not-enabled', error: null }
  const listeners = new Set<(s: CustomAuthState) => void>()
  const set = (next: CustomAuthState) => {
    if (next.status === state.status && next.error === state.error) return
    state = Object.freeze(next)
    for (const l of [...listeners]) l(state)
  }
  const loading = () => (typeof options.isLoading === 'function' ? options.isLoading() : options.isLoading === true)

  let warned = false
  let running: Promise<CustomAuthState> | null = null
  let again = false

  async function once(): Promise<void> {
    if (!enabled()) {
      if (!warned) ctx.warn(CUSTOM_AUTH_TEXTS.notEnabled)
      warned = true
      return set({ status: 'not-enabled', error: null })
    }
    if (loading()) return set({ status: 'loading', error: null })
    await ready
    let token: string | null | undefined
    try {
      token = await options.getCustomAccessToken!()
    } catch (e) {
      return set({ status: 'error', error: toCustomAuthError(e).error })
    }
    const user = ctx.session.user
    const customUser = ctx.session.authenticated && user?.customAuth ? user.customAuth.customUserId : null
    if (!token) {
      // The host's user is gone: end a session that custom auth started.
      if (customUser) await ctx.session.logout()
      return set({ status: 'initial', error: null })
    }
    if (customUser && jwtSubject(token) === customUser) return set({ status: 'done', error: null })
    set({ status: 'loading', error: null })
    try {
      const res = await calls.authenticate(ctx.api, token)
      await ctx.completeLogin(res, { method: 'custom_auth', intent: 'login' })
      set({ status: 'done', error: null })
    } catch (e) {
      const { error, reset } = toCustomAuthError(e)
      set({ status: reset ? 'initial' : 'error', error })
    }
  }

  const api: CustomAuth = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    sync() {
      if (running) {
        again = true
        return running
      }
      running = (async () => {
        do {
          again = false
          await once()
        } while (again)
        return state
      })().finally(() => (running = null))
      return running
    },
    setOptions(next) {
      const changed =
        next.getCustomAccessToken !== options.getCustomAccessToken || loading() !== (typeof next.isLoading === 'function' ? next.isLoading() : next.isLoading === true)
      options = { ...options, ...next }
      if (changed) void api.sync()
    },
  }
  return api
}

const registry = new WeakMap<object, CustomAuth>()
export function registerCustomAuth(session: object, c: CustomAuth) {
  registry.set(session, c)
  return () => {
    if (registry.get(session) === c) registry.delete(session)
  }
}

/** The custom auth of a kernel; throws a message that says what to fix when customAuth() is not set up. */
export function customAuthOf(kernel: { session: object }): CustomAuth {
  const c = registry.get(kernel.session)
  if (!c) {
    throw new PorticoError(
      'invalid_plugin',
      "The custom-auth plugin is not set up: add customAuth({ getCustomAccessToken }) to config.plugins (import { customAuth } from 'portico/plugins/custom-auth').",
    )
  }
  return c
}
