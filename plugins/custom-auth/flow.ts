/**
 * Custom auth, framework-free (part 1 sections 4 and 8). The host's own auth issues a JWT;
 * `sync()` reads it through `getCustomAccessToken()` and keeps the Portico session in step:
 * a token logs the user in (again when it names another user), no token logs a custom-auth
 * user out. States: not-enabled, initial, loading, done, error.
 */
import type { PluginContext, Store } from 'portico'
import { authenticateCustomJwt } from './calls'
import { toCustomAuthError } from './errors'
import { CUSTOM_AUTH_METHOD, jwtSubject, type CustomAuthApi, type CustomAuthOptions, type CustomAuthState } from './method'
import { CUSTOM_AUTH_TEXTS } from './strings'

/** Plugin storage key: the custom user id of the session this plugin started. */
const STARTED_KEY = 'started'

export {
  CUSTOM_AUTH_METHOD,
  customAuthMethod,
  jwtSubject,
  type CustomAuthApi,
  type CustomAuthOptions,
  type CustomAuthState,
  type CustomAuthStatus,
} from './method'

export function createCustomAuth(
  ctx: Pick<PluginContext, 'api' | 'session' | 'storage' | 'completeLogin' | 'assertLoggedOut' | 'analytics' | 'warn' | 'store' | 'texts'>,
  initial: CustomAuthOptions = {},
  /** Resolves once the kernel restored its session; syncs wait for it. */
  ready: Promise<unknown> = Promise.resolve(),
  /** The entry's store (default: a new store of the plugin). */
  store?: Store<CustomAuthState>,
): CustomAuthApi {
  let options = { ...initial }
  const enabled = () => typeof options.getCustomAccessToken === 'function'
  const state = store ?? ctx.store<CustomAuthState>({ status: enabled() ? 'initial' : 'not-enabled', error: null })
  const set = (next: CustomAuthState) => state.set(next)
  const texts = () => ctx.texts(CUSTOM_AUTH_TEXTS)
  texts() // now: an app's misspelt text override warns when custom auth starts (at ready)
  const loading = () => (typeof options.isLoading === 'function' ? options.isLoading() : options.isLoading === true)

  let warned = false
  let running: Promise<CustomAuthState> | null = null
  let again = false

  async function once(): Promise<void> {
    if (!enabled()) {
      if (!warned) ctx.warn(texts().notEnabled)
      warned = true
      return set({ status: 'not-enabled', error: null })
    }
    if (loading()) return set({ status: 'loading', error: null })
    await ready
    let token: string | null | undefined
    try {
      token = await options.getCustomAccessToken!()
    } catch (e) {
      return set({ status: 'error', error: toCustomAuthError(e, texts()).error })
    }
    const user = ctx.session.user
    const customUser = ctx.session.authenticated && user?.customAuth ? user.customAuth.customUserId : null
    if (!token) {
      // The host's user is gone: end a session that custom auth started (not another plugin's
      // custom JWT login, such as a third-party identity provider's).
      if (customUser && ctx.storage.get(STARTED_KEY) === customUser) await ctx.session.logout()
      ctx.storage.set(STARTED_KEY, null)
      return set({ status: 'initial', error: null })
    }
    if (customUser && jwtSubject(token) === customUser) return set({ status: 'done', error: null })
    set({ status: 'loading', error: null })
    try {
      // Another custom-auth user may replace a custom-auth session; any other login may not.
      if (!customUser) ctx.assertLoggedOut()
      ctx.analytics('custom_auth_login_started')
      const res = await authenticateCustomJwt(ctx.api, token)
      const result = await ctx.completeLogin(res, { method: CUSTOM_AUTH_METHOD, intent: 'login' })
      ctx.storage.set(STARTED_KEY, result.user.customAuth?.customUserId ?? jwtSubject(token))
      set({ status: 'done', error: null })
    } catch (e) {
      const { error, reset } = toCustomAuthError(e, texts())
      set({ status: reset ? 'initial' : 'error', error })
    }
  }

  const api: CustomAuthApi = {
    state,
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
        return state.get()
      })().finally(() => (running = null))
      return running
    },
    setOptions(next) {
      const changed =
        next.getCustomAccessToken !== options.getCustomAccessToken ||
        loading() !== (typeof next.isLoading === 'function' ? next.isLoading() : next.isLoading === true)
      options = { ...options, ...next }
      if (changed) void api.sync()
    },
  }
  return api
}
