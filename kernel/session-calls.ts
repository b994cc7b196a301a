/**
 * The session's network calls (./session.ts loads this module when first needed): refresh, one
 * request however many callers (in this tab, and across tabs with the lock and a re-read of
 * storage), the user record (`GET /users/me`), logout, fork and recover.
 */
// Through the kernel's entry, as the plugins' lazy chunks do: importing its modules one by one
// would split them into chunks of their own for the bundler (one more request, worse gzip).
import { PorticoError, toPorticoError } from './index'
import type { SessionCore } from './session'
// Only this chunk needs the expiry check (not through ./index: it is no module of the kernel's entry).
import { isTokenActive } from './token'
import type { User } from './user'
import type { WireAuthResponse, WireForkResponse, WireUser } from './wire'

export function sessionCalls(core: SessionCore) {
  const { deps, keys, read, write } = core
  let inFlight: Promise<User | null> | null = null

  async function doRefresh(): Promise<User | null> {
    const refreshToken = read(keys.refresh)
    if (!refreshToken) {
      if (core.user) core.clearLocal('invalid_token')
      return null
    }
    const current = read(keys.token)
    try {
      const res = await deps.api().post<WireAuthResponse>('/sessions', { refresh_token: refreshToken }, { auth: current ?? 'none' })
      const result = core.apply(res)
      core.broadcast('refresh')
      return result?.user ?? null
    } catch (e) {
      const err = toPorticoError(e)
      // Part 1 section 8: missing_or_invalid_token on refresh clears the session.
      if (err.code === 'missing_or_invalid_token') core.clearLocal('invalid_token')
      throw err
    }
  }

  /** One refresh for any number of callers; across tabs, the lock and a re-read of storage. */
  function refresh(): Promise<User | null> {
    if (inFlight) return inFlight
    const before = read(keys.token)
    const { locks } = core
    const run = async () => {
      if (!locks) return doRefresh()
      return locks.request(`portico:${deps.appId}:refresh`, async () => {
        const stored = read(keys.token)
        // Another tab refreshed while we waited for the lock: use its tokens.
        if (stored && stored !== before && isTokenActive(stored, core.now())) return core.user ?? refreshUser()
        return doRefresh()
      })
    }
    inFlight = run().finally(() => {
      inFlight = null
    })
    return inFlight
  }

  async function refreshUser(): Promise<User | null> {
    if (!read(keys.refresh) && !read(keys.token)) return null
    const res = await deps.api().get<{ user: WireUser }>('/users/me')
    if (!res?.user) throw new PorticoError('invalid_response', 'The server sent no user.', { kind: 'api_error' })
    return core.setUser(res.user)
  }

  return {
    async getAccessToken() {
      const token = read(keys.token)
      if (isTokenActive(token, core.now())) return token
      if (!read(keys.refresh)) return null
      await refresh()
      const fresh = read(keys.token)
      return isTokenActive(fresh, core.now()) ? fresh : null
    },
    refresh,
    refreshUser,
    async logout() {
      const refreshToken = read(keys.refresh)
      if (refreshToken) {
        try {
          await deps.api().post('/sessions/logout', { refresh_token: refreshToken })
        } catch (e) {
          deps.events.emit('warning', { message: `Logout request failed: ${(e as Error).message}`, source: 'session' })
        }
      }
      try {
        await deps.onLogout()
      } finally {
        core.clearLocal('logout')
      }
    },
    async fork() {
      const refreshToken = read(keys.refresh)
      if (!refreshToken || !core.user) throw new PorticoError('must_be_authenticated', 'User must be authenticated to fork the session.')
      const res = await deps.api().post<WireForkResponse>('/sessions/fork', { refresh_token: refreshToken })
      if (!res?.new_session_refresh_token) {
        throw new PorticoError('invalid_response', 'The server sent no forked session.', { kind: 'api_error' })
      }
      if (res.token) write(keys.token, res.token)
      if (res.refresh_token) write(keys.refresh, res.refresh_token)
      return res.new_session_refresh_token
    },
    async recover(forkedRefreshToken: string) {
      const res = await deps.api().post<WireAuthResponse>('/sessions/fork/recover', { refresh_token: forkedRefreshToken }, { auth: 'none' })
      const result = core.apply(res)
      if (!result) throw new PorticoError('missing_or_invalid_token', 'The forked session could not be recovered.')
      core.broadcast('login')
      return result
    },
  }
}
