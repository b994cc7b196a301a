/**
 * The session (part 1 sections 3, 4 and 7): tokens and their storage, `session_update_action`,
 * the user record and the single-flight `getAccessToken()`. Its network calls (refresh, one
 * request however many callers, in this tab and across tabs; logout, fork, recover, the user
 * record) are in ./session-calls.ts and load when first needed: a visitor without a session
 * needs none of them until they log in.
 */
import type { TokenStorage } from './config'
import { PorticoError, isPorticoError } from './errors'
import type { PorticoEmitter } from './events'
import { lazyOnce } from './lazy'
import { safeStorage } from './recent'
import type { Api } from './transport'
import { toUser, type AccountTypes, type User } from './user'
import type { WireAuthResponse, WireOAuthTokens, WireUser } from './wire'

/** The refresh-marker cookie lives 30 days. */
export const REFRESH_MARKER_MAX_AGE_S = 30 * 24 * 60 * 60
export const REFRESH_MARKER_COOKIE = 'portico-session'

export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>
}
export interface ChannelLike {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void
  close(): void
}

export interface SessionDeps {
  appId: string
  api: () => Api
  events: PorticoEmitter
  storage: TokenStorage
  /** The declared login methods: they normalise their account types and fill the user record. */
  methods: AccountTypes
  /** The `logout` hook's call: plugins clear their state. */
  onLogout: () => Promise<void>
  /** Cross-tab lock manager; default `navigator.locks` when the browser has it. */
  locks?: LockManagerLike | null
  /** Cross-tab channel; default a `BroadcastChannel` when the platform has one. */
  channel?: ChannelLike | null
  now?: () => number
}

export interface AuthResult {
  user: User
  isNewUser: boolean
  /**
   * The provider's tokens an OAuth login returned (part 1 section 3), handed to the app once
   * (the 'login' event, the OAuth plugin's hook) and never stored by Portico.
   */
  oauthTokens?: WireOAuthTokens | null
}

export interface Session {
  /** True when a user is known and a session exists. */
  readonly authenticated: boolean
  readonly user: User | null
  /** The access token, refreshed first when it is missing or within 30 s of expiry. */
  getAccessToken(): Promise<string | null>
  getIdentityToken(): string | null
  /** The provider access token (`privy_access_token`) of the last login or refresh, if the server sent one. */
  getProviderAccessToken(): string | null
  /** Start-up: restore a stored session (one refresh request when a refresh token exists). */
  restore(): Promise<User | null>
  /** Refresh now (single-flight). Clears the session on `missing_or_invalid_token`. */
  refresh(): Promise<User | null>
  /** Apply a login, link or refresh response. Returns null when the action was 'clear'. */
  apply(response: WireAuthResponse): AuthResult | null
  /** Replace the user record from a `{ user }` response (link, unlink, accept terms). */
  setUser(raw: WireUser): User
  /** GET /users/me */
  refreshUser(): Promise<User | null>
  logout(): Promise<void>
  /** POST /sessions/fork: returns the refresh token of the new, forked session. */
  fork(): Promise<string>
  /** POST /sessions/fork/recover: take over a forked session from its refresh token. */
  recover(forkedRefreshToken: string): Promise<AuthResult>
  /** Listen to other tabs (the kernel calls it when it starts; nothing opens before). */
  connect(): void
  /** Stop listening to other tabs. */
  destroy(): void
}

export function memoryStorage(): TokenStorage {
  const m = new Map<string, string>()
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
  }
}

/** localStorage when the browser has a working one, else memory. Never touches `window` at import. */
export function defaultStorage(): TokenStorage {
  try {
    const ls = (globalThis as { localStorage?: Storage }).localStorage
    if (ls) {
      const probe = '__portico_probe__'
      ls.setItem(probe, '1')
      ls.removeItem(probe)
      return ls
    }
  } catch {
    /* storage disabled (private mode, sandboxed frame): fall through */
  }
  return memoryStorage()
}

function setMarkerCookie(on: boolean) {
  const doc = (globalThis as { document?: Document }).document
  if (!doc) return
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : ''
  doc.cookie = on
    ? `${REFRESH_MARKER_COOKIE}=t; Max-Age=${REFRESH_MARKER_MAX_AGE_S}; Path=/; SameSite=Lax${secure}`
    : `${REFRESH_MARKER_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure}`
}

/** What ./session-calls.ts works with: the session's storage, user record and announcements. */
export interface SessionCore {
  deps: SessionDeps
  keys: { token: string; refresh: string; identity: string; provider: string }
  /** The clock (`deps.now`, else `Date.now`). */
  now(): number
  locks: LockManagerLike | null
  read(key: string): string | null
  write(key: string, value: string | null | undefined): void
  readonly user: User | null
  /** Apply a login, link or refresh response (without telling other tabs). */
  apply(response: WireAuthResponse): AuthResult | null
  /** Replace the user record from the wire (the 'user' event fires). */
  setUser(raw: WireUser): User
  clearLocal(reason: 'logout' | 'cleared' | 'invalid_token' | 'other_tab', announce?: boolean): void
  broadcast(type: 'login' | 'logout' | 'refresh'): void
}

export function createSession(deps: SessionDeps): Session {
  const keys = {
    token: `portico:${deps.appId}:token`,
    refresh: `portico:${deps.appId}:refresh_token`,
    identity: `portico:${deps.appId}:identity_token`,
    provider: `portico:${deps.appId}:provider_token`,
  }
  const now = deps.now ?? Date.now
  let channel: ChannelLike | null = null
  let user: User | null = null

  const read = safeStorage(deps.storage).get
  const write = (k: string, v: string | null | undefined) => {
    try {
      if (v) deps.storage.setItem(k, v)
      else deps.storage.removeItem(k)
    } catch (e) {
      throw new PorticoError('session_storage_unavailable', 'The session could not be stored in this browser.', { cause: e })
    }
  }
  const broadcast = (type: 'login' | 'logout' | 'refresh') => {
    try {
      channel?.postMessage({ type })
    } catch {
      /* closed channel */
    }
  }

  function setUserRecord(next: User | null) {
    user = next
    deps.events.emit('user', next)
  }
  const setUser = (raw: WireUser) => (setUserRecord(toUser(raw, deps.methods)), user!)

  function clearLocal(reason: 'logout' | 'cleared' | 'invalid_token' | 'other_tab', announce = true) {
    const had = user !== null || read(keys.refresh) !== null
    write(keys.token, null)
    write(keys.refresh, null)
    write(keys.identity, null)
    write(keys.provider, null)
    setMarkerCookie(false)
    if (user !== null) setUserRecord(null)
    deps.events.emit('session', { authenticated: false })
    if (had) deps.events.emit('logout', { reason })
    if (announce) broadcast('logout')
  }

  function apply(res: WireAuthResponse): AuthResult | null {
    if (!res || typeof res !== 'object' || !res.user || typeof res.user !== 'object') {
      if (res?.session_update_action === 'clear') {
        clearLocal('cleared')
        return null
      }
      throw new PorticoError('invalid_response', 'The server sent a session without a user.', { kind: 'api_error' })
    }
    switch (res.session_update_action) {
      case 'clear':
        clearLocal('cleared')
        return null
      case 'ignore':
        break
      default: // 'set', and servers that omit it
        if (res.token) write(keys.token, res.token)
        if (res.refresh_token) write(keys.refresh, res.refresh_token)
        if (res.identity_token) write(keys.identity, res.identity_token)
        if (res.privy_access_token) write(keys.provider, res.privy_access_token)
        setMarkerCookie(true)
    }
    setUser(res.user)
    deps.events.emit('session', { authenticated: true })
    const result: AuthResult = { user: user!, isNewUser: res.is_new_user === true }
    if (res.oauth_tokens) result.oauthTokens = res.oauth_tokens
    return result
  }

  const core: SessionCore = {
    deps,
    keys,
    now,
    locks:
      deps.locks !== undefined ? deps.locks : ((globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ?? null),
    read,
    write,
    get user() {
      return user
    },
    apply,
    setUser,
    clearLocal,
    broadcast,
  }
  /** The network calls (./session-calls.ts), loaded once when first needed. */
  const calls = lazyOnce(() => import('./session-calls').then((m) => m.sessionCalls(core)))
  const refresh = async () => (await calls()).refresh()
  const refreshUser = async () => (await calls()).refreshUser()

  const onMessage = (e: { data: unknown }) => {
    const type = (e.data as { type?: string } | null)?.type
    if (type === 'logout' && user) clearLocal('other_tab', false)
    else if (type === 'login' && !user && read(keys.refresh)) {
      refreshUser().then(
        (u) => u && deps.events.emit('session', { authenticated: true }),
        () => {},
      )
    }
  }

  return {
    get authenticated() {
      return user !== null
    },
    get user() {
      return user
    },
    // No token and no refresh token: no session, and nothing to load. Otherwise the expiry
    // check (./token.ts) and the refresh are in ./session-calls.ts.
    getAccessToken: async () => (read(keys.token) || read(keys.refresh) ? (await calls()).getAccessToken() : null),
    getIdentityToken: () => read(keys.identity),
    getProviderAccessToken: () => read(keys.provider),
    async restore() {
      if (!read(keys.refresh)) {
        if (read(keys.token)) write(keys.token, null)
        return null
      }
      try {
        return await refresh()
      } catch (e) {
        if (isPorticoError(e, 'missing_or_invalid_token')) return null
        // A network failure at start-up keeps the stored session for the next try.
        deps.events.emit('warning', { message: `Could not restore the session: ${(e as Error).message}`, source: 'session' })
        return null
      }
    },
    refresh,
    apply(res) {
      const result = apply(res)
      if (result) broadcast('login')
      return result
    },
    setUser,
    refreshUser,
    logout: async () => (await calls()).logout(),
    fork: async () => (await calls()).fork(),
    recover: async (forkedRefreshToken) => (await calls()).recover(forkedRefreshToken),
    connect() {
      if (channel) return
      // Browsers only: in Node an open channel would keep the process alive.
      channel =
        deps.channel !== undefined
          ? deps.channel
          : typeof BroadcastChannel !== 'undefined' && typeof document !== 'undefined'
            ? (new BroadcastChannel(`portico:${deps.appId}`) as ChannelLike)
            : null
      channel?.addEventListener('message', onMessage)
    },
    destroy() {
      channel?.close()
      channel = null
    },
  }
}
