import { createMethodRegistry } from './methods'
import { normaliseFields } from './user'
import { describe, expect, it, vi } from 'vitest'
import { authResponse, fakeJwt, wireUser, emailAccount } from '../test/kit/fixtures'
import { createFetchDouble, type FetchDouble } from '../test/kit/fetch-double'
import { createEvents } from './events'
import { createSession, memoryStorage, type LockManagerLike, type ChannelLike } from './session'
import { isTokenActive } from './token'
import { createTransport } from './transport'
import type { TokenStorage } from './config'

const APP = 'portico-test-app-00000001'
const K = { token: `portico:${APP}:token`, refresh: `portico:${APP}:refresh_token`, identity: `portico:${APP}:identity_token` }

/** A lock manager like navigator.locks: one holder per name, FIFO. */
function fakeLocks(): LockManagerLike {
  const tails = new Map<string, Promise<unknown>>()
  return {
    request<T>(name: string, cb: () => Promise<T>) {
      const prev = tails.get(name) ?? Promise.resolve()
      const run = prev.then(cb, cb)
      tails.set(name, run.catch(() => {}))
      return run
    },
  }
}

/** A BroadcastChannel stand-in that delivers to the other members of a group. */
function channelGroup() {
  const members = new Set<{ listeners: ((e: { data: unknown }) => void)[] }>()
  return (): ChannelLike => {
    const me = { listeners: [] as ((e: { data: unknown }) => void)[] }
    members.add(me)
    return {
      postMessage: (data) => {
        for (const m of members) if (m !== me) queueMicrotask(() => m.listeners.forEach((l) => l({ data })))
      },
      addEventListener: (_t, l) => void me.listeners.push(l),
      close: () => void members.delete(me),
    }
  }
}

/** The e-mail method as its plugin declares it (the kernel knows no account type). */
function emailMethod() {
  const registry = createMethodRegistry()
  registry.declare({ id: 'email', displayName: 'e-mail', accountTypes: ['email'], userField: 'email', normalise: (raw) => normaliseFields(raw, 'address:S') })
  return registry
}

function make(opts: { net?: FetchDouble; storage?: TokenStorage; locks?: LockManagerLike | null; channel?: ChannelLike | null } = {}) {
  const net = opts.net ?? createFetchDouble()
  const storage = opts.storage ?? memoryStorage()
  const events = createEvents()
  const logoutHook = vi.fn(async () => {})
  const session = createSession({
    appId: APP,
    api: () => api,
    events,
    storage,
    methods: emailMethod(),
    onLogout: logoutHook,
    locks: opts.locks ?? null,
    channel: opts.channel ?? null,
  })
  const api = createTransport({
    baseUrl: () => 'http://api.test',
    appId: APP,
    clientId: () => null,
    analyticsId: () => 'ca',
    accessToken: () => session.getAccessToken(),
    prepare: async (r) => r,
    fetch: net.fetch,
    sleep: async () => {},
  })
  session.connect()
  return { net, storage, events, session, logoutHook }
}

describe('session tokens', () => {
  it('treats a token as inactive within 30 s of expiry', () => {
    const now = Date.now()
    expect(isTokenActive(fakeJwt({}, 31), now)).toBe(true)
    expect(isTokenActive(fakeJwt({}, 29), now)).toBe(false)
    expect(isTokenActive(fakeJwt({}, -10), now)).toBe(false)
    expect(isTokenActive('not-a-jwt', now)).toBe(false)
    expect(isTokenActive(null, now)).toBe(false)
  })

  it("stores the tokens on a 'set' response and exposes the user", () => {
    const { session, storage, events } = make()
    const seen = vi.fn()
    events.on('user', seen)
    const res = authResponse(wireUser({ accounts: [emailAccount('a@b.co')] }), { is_new_user: true })
    const result = session.apply(res)
    expect(result?.isNewUser).toBe(true)
    expect(session.authenticated).toBe(true)
    expect(session.user?.email?.address).toBe('a@b.co')
    expect(storage.getItem(K.token)).toBe(res.token)
    expect(storage.getItem(K.refresh)).toBe(res.refresh_token)
    expect(session.getIdentityToken()).toBe(res.identity_token)
    expect(seen).toHaveBeenCalledTimes(1)
  })

  it("keeps the stored tokens on 'ignore' and clears everything on 'clear'", () => {
    const { session, storage, events } = make()
    const first = authResponse()
    session.apply(first)
    session.apply(authResponse(wireUser(), { session_update_action: 'ignore', token: null, refresh_token: null }))
    expect(storage.getItem(K.token)).toBe(first.token)
    expect(session.authenticated).toBe(true)
    const onLogout = vi.fn()
    events.on('logout', onLogout)
    expect(session.apply(authResponse(wireUser(), { session_update_action: 'clear' }))).toBeNull()
    expect(session.authenticated).toBe(false)
    expect(storage.getItem(K.token)).toBeNull()
    expect(storage.getItem(K.refresh)).toBeNull()
    expect(onLogout).toHaveBeenCalledWith({ reason: 'cleared' })
  })

  it('refuses a response without a user with invalid_response and keeps the session', () => {
    const { session, storage } = make()
    const first = authResponse()
    session.apply(first)
    expect(() => session.apply({ token: 'x' } as never)).toThrow(expect.objectContaining({ code: 'invalid_response' }))
    expect(storage.getItem(K.token)).toBe(first.token)
  })
})

describe('session refresh', () => {
  it('refreshes with the refresh token and the current bearer, and rotates the tokens', async () => {
    const { session, net, storage } = make()
    const first = authResponse(wireUser(), { token: fakeJwt({}, 10) })
    session.apply(first)
    const next = authResponse()
    net.on('POST', '/sessions', next)
    expect(await session.getAccessToken()).toBe(next.token)
    const [call] = net.callsTo('POST', '/sessions')
    expect(call.body).toEqual({ refresh_token: first.refresh_token })
    expect(call.headers.authorization).toBe(`Bearer ${first.token}`)
    expect(storage.getItem(K.refresh)).toBe(next.refresh_token)
  })

  it('makes exactly one refresh request for ten concurrent getAccessToken() calls on an expired token', async () => {
    const { session, net } = make()
    session.apply(authResponse(wireUser(), { token: fakeJwt({}, -60) }))
    const next = authResponse()
    net.on('POST', '/sessions', () => new Promise((r) => setTimeout(() => r(next), 20)))
    const tokens = await Promise.all(Array.from({ length: 10 }, () => session.getAccessToken()))
    expect(new Set(tokens)).toEqual(new Set([next.token]))
    expect(net.callsTo('POST', '/sessions')).toHaveLength(1)
  })

  it('makes one refresh request across two tabs sharing storage, a lock and a channel', async () => {
    const storage = memoryStorage()
    const locks = fakeLocks()
    const group = channelGroup()
    const net = createFetchDouble()
    const tabA = make({ net, storage, locks, channel: group() })
    const tabB = make({ net, storage, locks, channel: group() })
    const start = authResponse(wireUser(), { token: fakeJwt({}, -60) })
    tabA.session.apply(start)
    tabB.session.apply({ ...start, session_update_action: 'ignore' })
    const next = authResponse()
    net.on('POST', '/sessions', () => new Promise((r) => setTimeout(() => r(next), 20)))
    const tokens = await Promise.all([
      ...Array.from({ length: 10 }, () => tabA.session.getAccessToken()),
      ...Array.from({ length: 10 }, () => tabB.session.getAccessToken()),
    ])
    expect(new Set(tokens)).toEqual(new Set([next.token]))
    expect(net.callsTo('POST', '/sessions')).toHaveLength(1)
  })

  it('clears the session when the refresh answers missing_or_invalid_token', async () => {
    const { session, net, storage, events } = make()
    session.apply(authResponse(wireUser(), { token: fakeJwt({}, -60) }))
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'Invalid refresh token' } })
    const onLogout = vi.fn()
    events.on('logout', onLogout)
    await expect(session.getAccessToken()).rejects.toMatchObject({ code: 'missing_or_invalid_token' })
    expect(session.authenticated).toBe(false)
    expect(storage.getItem(K.refresh)).toBeNull()
    expect(onLogout).toHaveBeenCalledWith({ reason: 'invalid_token' })
  })

  it('keeps the session when the refresh fails for another reason (server down)', async () => {
    const { session, net, storage } = make()
    const first = authResponse(wireUser(), { token: fakeJwt({}, -60) })
    session.apply(first)
    net.on('POST', '/sessions', { status: 503, body: { code: 'unknown_auth_error', error: 'down' } })
    await expect(session.refresh()).rejects.toMatchObject({ status: 503 })
    expect(session.authenticated).toBe(true)
    expect(storage.getItem(K.refresh)).toBe(first.refresh_token)
  })

  it('returns null without a request when there is no session', async () => {
    const { session, net } = make()
    expect(await session.getAccessToken()).toBeNull()
    expect(await session.restore()).toBeNull()
    expect(net.calls).toHaveLength(0)
  })

  it('restores a stored session with one refresh request', async () => {
    const { session, net, storage } = make()
    storage.setItem(K.refresh, 'stored-refresh')
    const res = authResponse(wireUser({ accounts: [emailAccount('r@b.co')] }))
    net.on('POST', '/sessions', res)
    const user = await session.restore()
    expect(user?.email?.address).toBe('r@b.co')
    expect(net.calls).toHaveLength(1)
  })
})

describe('logout, fork and recover', () => {
  it('logs out: posts the refresh token, runs the logout hook, clears storage, tells other tabs', async () => {
    const group = channelGroup()
    const storage = memoryStorage()
    const net = createFetchDouble()
    const tabA = make({ net, storage, channel: group() })
    const tabB = make({ net, storage, channel: group() })
    const res = authResponse()
    tabA.session.apply(res)
    tabB.session.apply({ ...res, session_update_action: 'ignore' })
    net.on('POST', '/sessions/logout', {})
    const bLogout = vi.fn()
    tabB.events.on('logout', bLogout)
    await tabA.session.logout()
    expect(net.callsTo('POST', '/sessions/logout')[0].body).toEqual({ refresh_token: res.refresh_token })
    expect(tabA.logoutHook).toHaveBeenCalledTimes(1)
    expect(tabA.session.authenticated).toBe(false)
    expect(storage.getItem(K.token)).toBeNull()
    await new Promise((r) => setTimeout(r, 0))
    expect(tabB.session.authenticated).toBe(false)
    expect(bLogout).toHaveBeenCalledWith({ reason: 'other_tab' })
  })

  it('still logs out locally when the server cannot be reached', async () => {
    const { session, net, events } = make()
    session.apply(authResponse())
    net.on('POST', '/sessions/logout', { status: 404, body: { code: 'not_found', error: 'x' } })
    const warn = vi.fn()
    events.on('warning', warn)
    await session.logout()
    expect(session.authenticated).toBe(false)
    expect(warn).toHaveBeenCalled()
  })

  it('forks: keeps its own rotated tokens and returns the new session refresh token; recover takes it over', async () => {
    const { session, net, storage } = make()
    const res = authResponse()
    session.apply(res)
    const fork = { refresh_token: 'rotated', token: fakeJwt(), new_session_refresh_token: 'forked' }
    net.on('POST', '/sessions/fork', fork)
    expect(await session.fork()).toBe('forked')
    expect(net.callsTo('POST', '/sessions/fork')[0].body).toEqual({ refresh_token: res.refresh_token })
    expect(storage.getItem(K.refresh)).toBe('rotated')

    const other = make({ net })
    const recovered = authResponse(wireUser({ accounts: [emailAccount('f@b.co')] }))
    net.on('POST', '/sessions/fork/recover', recovered)
    const { user } = await other.session.recover('forked')
    expect(user.email?.address).toBe('f@b.co')
    const call = net.callsTo('POST', '/sessions/fork/recover')[0]
    expect(call.body).toEqual({ refresh_token: 'forked' })
    expect(call.headers.authorization).toBeUndefined()
  })

  it('refuses to fork without a session', async () => {
    await expect(make().session.fork()).rejects.toMatchObject({ code: 'must_be_authenticated' })
  })
})
