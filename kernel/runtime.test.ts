/**
 * Contract v2: what the kernel holds for plugins (store, API, methods, errors, texts, fetch),
 * the start-up return path, start-up retries, and teardown that undoes everything.
 */
import { describe, expect, it, vi } from 'vitest'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createTestKernel, authResponse, wireUser, TEST_APP_ID } from '../test/kit/index'
import { createFetchDouble } from '../test/kit/fetch-double'
import { createPortico, definePlugin, PorticoError, createStore, memoryStorage, type PorticoPlugin } from './index'
import { TAPABLE_VERSION } from './tapable'

declare module './plugin' {
  interface PluginApis {
    counter: { increment(): number }
  }
}

const counter = (): PorticoPlugin<'counter'> =>
  definePlugin({
    id: 'counter',
    kind: 'feature',
    setup(ctx) {
      const store = ctx.store({ count: 0 })
      ctx.provide({ increment: () => (store.set((s) => ({ count: s.count + 1 })), store.get().count) })
    },
  })

describe('createStore', () => {
  it('merges patches, applies updaters, notifies only on change, resets', () => {
    const s = createStore({ a: 1, b: 'x' })
    const seen: unknown[] = []
    const off = s.subscribe((v) => seen.push(v))
    s.set({ a: 2 })
    s.set({ a: 2 }) // no change: no notification
    s.set((v) => ({ ...v, b: 'y' }))
    expect(s.get()).toEqual({ a: 2, b: 'y' })
    expect(Object.isFrozen(s.get())).toBe(true)
    s.reset()
    expect(s.get()).toEqual({ a: 1, b: 'x' })
    off()
    s.set({ a: 9 })
    expect(seen).toHaveLength(3)
  })
})

describe('plugin runtime', () => {
  it('hands out a plugin API and its state through the kernel', async () => {
    const { kernel } = await createTestKernel({ plugins: [counter()] })
    expect(kernel.plugin('counter').increment()).toBe(1)
    expect(kernel.pluginState<{ count: number }>('counter')?.get()).toEqual({ count: 1 })
    expect(() => kernel.plugin('sms')).toThrow("The sms plugin is not set up: add sms() to config.plugins (import it from 'portico/plugins/sms').")
  })

  it('refuses a second store for one plugin', async () => {
    const twice = definePlugin({ id: 'twice', kind: 'feature', setup: (ctx) => void (ctx.store(1), ctx.store(2)) })
    await expect(createTestKernel({ plugins: [twice] })).rejects.toThrow("Plugin 'twice' failed to set up: Plugin 'twice' asked for a second store")
  })

  it('undoes taps, screens, methods, state and APIs on destroy, so a restart is clean (StrictMode)', async () => {
    let setups = 0
    let teardowns = 0
    const p = definePlugin({
      id: 'probe',
      kind: 'login',
      setup(ctx) {
        setups++
        ctx.screens.register({ id: 'probe-screen', component: () => null })
        ctx.methods.declare({ id: 'probe', displayName: 'Probe' })
        ctx.hooks.loginMethods.tap('probe', (list) => [...list, { id: 'probe', label: 'Probe', group: 'web2', screen: 'probe-screen' }])
        ctx.declareErrors({ probe_error: { title: 'Probe failed' } })
        ctx.store({})
        ctx.provide({})
        return () => void teardowns++
      },
    })
    const { kernel } = await createTestKernel({ plugins: [p] })
    const taps = () => Object.values(kernel.hooks).reduce((n, h) => n + (h as unknown as { taps: unknown[] }).taps.length, 0)
    const before = taps()
    kernel.destroy()
    expect(taps()).toBe(before - 2)
    expect(kernel.screens.has('probe-screen')).toBe(false)
    expect(kernel.methods.get('probe')).toBeUndefined()
    expect(kernel.hasPlugin('probe')).toBe(false)
    kernel.start()
    expect(taps()).toBe(before)
    expect(kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })).toHaveLength(1)
    expect(kernel.screens.resolveError(new PorticoError('probe_error', 'x')).title).toBe('Probe failed')
    kernel.destroy()
    expect(setups).toBe(2)
    expect(teardowns).toBe(2)
  })

  it('does not set plugins up before start() when deferred (nothing to leak if discarded)', () => {
    const setup = vi.fn()
    const kernel = createPortico(
      { appId: TEST_APP_ID, skipServerConfig: true, loginMethods: ['x'], storage: memoryStorage(), plugins: [definePlugin({ id: 'p', kind: 'feature', setup })] },
      { deferStart: true, channel: null, locks: null },
    )
    expect(setup).not.toHaveBeenCalled()
    kernel.start()
    kernel.start()
    expect(setup).toHaveBeenCalledTimes(1)
    kernel.destroy()
  })

  it('gives plugins the host fetch for other hosts, so the test double sees those calls', async () => {
    let seen: typeof fetch | null = null
    const p = definePlugin({ id: 'remote', kind: 'feature', setup: (ctx) => void (seen = ctx.fetch) })
    const { net } = await createTestKernel({ plugins: [p] })
    net.on('GET', /^\/profile$/, { name: 'ana' })
    const res = await seen!('http://provider.test/profile')
    expect(await res.json()).toEqual({ name: 'ana' })
    expect(net.calls.at(-1)?.url).toBe('http://provider.test/profile')
  })

  it("merges the app's texts over a plugin's, ignoring unknown keys with a warning", async () => {
    const DEFAULTS = { title: 'Log in', body: 'Hello {name}', count: 3 }
    let texts: typeof DEFAULTS | null = null
    const p = definePlugin({ id: 'greeter', kind: 'feature', setup: (ctx) => void (texts = ctx.texts(DEFAULTS)) })
    const { kernel, warnings } = await createTestKernel({ plugins: [p], config: { texts: { greeter: { title: 'Anmelden', nope: 'x' } } } })
    expect(texts).toEqual({ title: 'Anmelden', body: 'Hello {name}', count: 3 })
    expect(warnings).toContain("texts: 'nope' is not a text of this namespace; it is ignored.")
    expect(kernel.screens.resolveError(new Error('x')).title).toBe('Something went wrong')
    kernel.setConfig({ texts: { kernel: { somethingWentWrong: 'Etwas ging schief' } } })
    expect(kernel.screens.resolveError(new Error('x')).title).toBe('Etwas ging schief')
  })

  it('declared errors: a plugin owns its codes; the kernel stays neutral for the rest', async () => {
    const p = definePlugin({
      id: 'refuser',
      kind: 'feature',
      setup: (ctx) => ctx.declareErrors({ refuser_nope: (e) => ({ title: 'Nope', detail: e.message, screen: 'error' }) }),
    })
    const { kernel } = await createTestKernel({ plugins: [p] })
    expect(kernel.screens.resolveError(new PorticoError('refuser_nope', 'because'))).toMatchObject({ title: 'Nope', detail: 'because' })
    expect(kernel.screens.hasOwnScreen(new PorticoError('refuser_nope', 'x'))).toBe(true)
    expect(kernel.screens.hasOwnScreen(new PorticoError('invalid_credentials', 'x'))).toBe(false)
    const neutral = kernel.screens.resolveError(new PorticoError('method_not_supported', 'This app cannot transfer that.'))
    expect(neutral).toMatchObject({ title: 'Not supported', detail: 'This app cannot transfer that.', screen: 'error' })
  })

  it('declared errors as a loader: kept out until loaded; every lazy screen and a claimed return path wait for them', async () => {
    let loads = 0
    let fail = true
    const p = definePlugin({
      id: 'lazy-errors',
      kind: 'feature',
      setup(ctx) {
        ctx.declareErrors(async () => {
          loads++
          if (fail) throw new Error('chunk failed')
          return { lazy_nope: { title: 'Lazy nope', screen: 'error' } }
        })
        ctx.screens.register({ id: 'lazy-errors-screen', load: async () => ({ default: () => null }) })
      },
    })
    const { kernel, warnings } = await createTestKernel({ plugins: [p] })
    const err = new PorticoError('lazy_nope', 'x')
    // Not loaded yet: the kernel's neutral view; a failed chunk warns and is tried again.
    expect(kernel.screens.resolveError(err).title).toBe('Something went wrong')
    await kernel.loadDeclarations()
    expect(warnings.join('\n')).toContain("Could not load the error views of plugin 'lazy-errors': chunk failed")
    fail = false
    const before = loads
    // Still the neutral view, and a new try starts; a lazy screen's load waits for it.
    expect(kernel.screens.resolveError(err).title).toBe('Something went wrong')
    await kernel.screens.get('lazy-errors-screen')!.load!()
    expect(loads).toBe(before + 1)
    expect(kernel.screens.resolveError(err)).toMatchObject({ title: 'Lazy nope', screen: 'error' })
    await kernel.loadDeclarations()
    expect(loads).toBe(before + 1) // loaded once
  })

  it("declared errors as a loader load after ready by themselves; the first open's screen does not wait for them", async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let loaded = false
    let started = false
    const p = definePlugin({
      id: 'slow-errors',
      kind: 'feature',
      setup(ctx) {
        ctx.declareErrors(async () => {
          started = true
          await gate
          loaded = true
          return { slow_nope: { title: 'Slow nope' } }
        })
        ctx.screens.register({ id: 'slow-first', firstOpen: true, load: async () => ({ default: () => null }) })
      },
    })
    const { kernel } = await createTestKernel({ plugins: [p] })
    // Ready: the load has started without any screen asking; the first-open screen loads at once.
    await expect(kernel.screens.get('slow-first')!.load!()).resolves.toBeTruthy()
    await vi.waitFor(() => expect(started).toBe(true))
    expect(loaded).toBe(false)
    release()
    await vi.waitFor(() => expect(kernel.screens.resolveError(new PorticoError('slow_nope', 'x')).title).toBe('Slow nope'))
  })

  it('PorticoError.walk goes through causes', () => {
    const inner = Object.assign(new Error('rejected'), { code: 4001 })
    const err = new PorticoError('x', 'outer', { cause: new Error('mid', { cause: inner }) })
    expect([...err.walk()].map((e) => (e as Error).message)).toEqual(['outer', 'mid', 'rejected'])
    expect([...PorticoError.walk(null)]).toEqual([])
  })

  it('refuses a login while a non-guest is logged in, with one code', async () => {
    const { kernel } = await createTestKernel({ user: wireUser() })
    expect(() => kernel.assertLoggedOut()).toThrow(expect.objectContaining({ code: 'already_logged_in' }))
    const guest = await createTestKernel({ user: wireUser({ is_guest: true }) })
    expect(() => guest.kernel.assertLoggedOut()).not.toThrow()
  })

  it('keeps the provider token and hands the OAuth tokens to the login event without storing them', async () => {
    const { kernel } = await createTestKernel()
    const onLogin = vi.fn()
    kernel.events.on('login', onLogin)
    const tokens = { provider: 'google', access_token: 'at', scopes: ['email'] }
    const result = await kernel.completeLogin(authResponse(wireUser(), { privy_access_token: 'pat', oauth_tokens: tokens }), { method: 'x' })
    expect(result.oauthTokens).toEqual(tokens)
    expect(onLogin).toHaveBeenCalledWith(expect.objectContaining({ oauthTokens: tokens }))
    expect(kernel.session.getProviderAccessToken()).toBe('pat')
  })

  it('posts analytics events through one helper, and none when the host opts out', async () => {
    const on = await createTestKernel()
    on.net.on('POST', '/analytics_events', {})
    await on.kernel.completeLogin(authResponse(), { method: 'x' })
    await vi.waitFor(() => expect(on.net.callsTo('POST', '/analytics_events')).toHaveLength(1))
    expect(on.net.callsTo('POST', '/analytics_events')[0].body).toMatchObject({ eventName: 'login_completed', payload: { method: 'x' } })
    const off = await createTestKernel({ config: { analytics: false } })
    off.kernel.analytics('anything')
    await off.kernel.completeLogin(authResponse(), { method: 'x' })
    expect(off.net.callsTo('POST', '/analytics_events')).toHaveLength(0)
  })
})

describe('start-up return path', () => {
  const claimer = (finish = vi.fn()) =>
    definePlugin({
      id: 'returner',
      kind: 'login',
      setup(ctx) {
        ctx.hooks.returnPath.tap('returner', ({ url }) =>
          url.searchParams.has('code') ? { params: ['code', 'state'], hashParams: ['tok'], finish: () => finish(url.searchParams.get('code')) } : undefined,
        )
      },
    })

  it('offers the page address after ready; the claimed parameters leave the address before the flow finishes', async () => {
    const finish = vi.fn()
    const { kernel, location } = await createTestKernel({ plugins: [claimer(finish)], url: 'https://app.test/cb?keep=1&code=abc&state=s1#tok=x&other=y' })
    expect(location.href).toBe('https://app.test/cb?keep=1#other=y')
    await kernel.returnFlow
    expect(finish).toHaveBeenCalledWith('abc')
  })

  it('leaves an address nobody claims alone', async () => {
    const { kernel, location } = await createTestKernel({ plugins: [claimer()], url: 'https://app.test/?page=2' })
    expect(location.href).toBe('https://app.test/?page=2')
    expect(kernel.returnFlow).toBeNull()
  })

  it("reports a failing return flow through the 'error' event, without failing ready()", async () => {
    const finish = vi.fn(() => Promise.reject(new PorticoError('oauth_unexpected', 'bad state')))
    const { kernel } = await createTestKernel({ plugins: [claimer(finish)], url: 'https://app.test/?code=1&state=2', ready: false })
    const onError = vi.fn()
    kernel.events.on('error', onError)
    await kernel.ready()
    await kernel.returnFlow
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'oauth_unexpected' }))
  })
})

describe('start-up resilience', () => {
  it('keeps retrying while the API is unreachable, reports it, and is ready without a reload', async () => {
    const net = createFetchDouble()
    let up = false
    net.on('GET', '/apps/:id', () => (up ? { id: TEST_APP_ID, name: 'ok', login_methods: ['email'] } : { status: 503, body: { code: 'unavailable', error: 'down' } }))
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'no' } })
    const listeners = new Map<string, () => void>()
    const wakeTarget = { addEventListener: (t: string, l: () => void) => listeners.set(t, l), removeEventListener: (t: string) => listeners.delete(t) }
    const kernel = createPortico(
      { appId: TEST_APP_ID, apiUrl: 'http://portico.test', storage: memoryStorage(), fetch: net.fetch },
      { locks: null, channel: null, sleep: async () => {}, location: null, wakeTarget, retryDelay: () => 60_000 },
    )
    const statuses: string[] = []
    kernel.events.on('status', (s) => statuses.push(s.status))
    const errors: string[] = []
    kernel.events.on('error', (e) => errors.push(e.code))
    const ready = kernel.ready()
    await vi.waitFor(() => expect(kernel.status).toBe('retrying'))
    expect(kernel.lastError?.code).toBe('api_unreachable')
    expect(errors).toEqual(['api_unreachable'])
    // The browser comes back online: the waiting retry runs at once (not after 60 s).
    up = true
    listeners.get('online')!()
    await ready
    expect(kernel.isReady).toBe(true)
    expect(kernel.lastError).toBeNull()
    expect(statuses).toEqual(['loading', 'retrying', 'ready'])
    kernel.destroy()
  })

  it('retryReady() wakes a waiting retry; a permanent failure rejects at once', async () => {
    const net = createFetchDouble()
    let reply: unknown = { status: 502, body: { code: 'bad_gateway', error: 'proxy' } }
    net.on('GET', '/apps/:id', () => reply)
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'no' } })
    const kernel = createPortico(
      { appId: TEST_APP_ID, apiUrl: 'http://portico.test', storage: memoryStorage(), fetch: net.fetch },
      { locks: null, channel: null, sleep: async () => {}, location: null, wakeTarget: null, retryDelay: () => 60_000 },
    )
    const ready = kernel.ready()
    await vi.waitFor(() => expect(kernel.status).toBe('retrying'))
    reply = { status: 404, body: { code: 'missing_or_invalid_privy_app_id', error: 'Unknown app' } }
    kernel.retryReady()
    await expect(ready).rejects.toMatchObject({ code: 'missing_or_invalid_privy_app_id' })
    expect(kernel.status).toBe('failed')
    kernel.destroy()
  })
})

describe('tapable private import', () => {
  it('is pinned exactly, and lib/Hook.js still has the shape the interpreter relies on', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(pkg.dependencies.tapable).toBe(TAPABLE_VERSION)
    const require = createRequire(import.meta.url)
    expect(require('tapable/package.json').version).toBe(TAPABLE_VERSION)
    const Hook = require('tapable/lib/Hook.js')
    const h = new Hook(['a'], 'probe')
    for (const m of ['tap', 'tapAsync', 'tapPromise', 'intercept', 'isUsed', '_resetCompilation', '_insert']) expect(typeof h[m]).toBe('function')
    expect(Array.isArray(h.taps)).toBe(true)
  })
})
