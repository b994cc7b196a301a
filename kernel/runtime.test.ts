/**
 * The plugin runtime (./runtime.ts, contract v2): what the kernel holds for plugins (store, API,
 * methods, errors, texts, fetch) and teardown that undoes everything; through the kernel and
 * `createRuntime` alone.
 */
import { describe, expect, it, vi } from 'vitest'
import { createTestKernel, authResponse, wireUser, TEST_APP_ID } from '../test/kit/index'
import { createPortico, definePlugin, PorticoError, memoryStorage, type PorticoPlugin } from './index'
import { createEvents } from './events'
import { createHooks } from './hooks'
import { createMethodRegistry } from './methods'
import { createRuntime, type RuntimeDeps } from './runtime'
import { createNavigator } from './screens'

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

describe('createRuntime alone', () => {
  const deps = (plugins: PorticoPlugin[], warnings: string[] = []): RuntimeDeps => {
    const hooks = createHooks()
    return {
      appId: TEST_APP_ID,
      plugins,
      hooks,
      events: createEvents(),
      api: {} as RuntimeDeps['api'],
      fetch: (() => Promise.reject(new Error('no fetch'))) as typeof fetch,
      session: {} as RuntimeDeps['session'],
      screens: createNavigator({ errorView: (e, c) => hooks.errorView.call(e, c) }),
      methods: createMethodRegistry(),
      storage: memoryStorage(),
      config: () => ({}) as ReturnType<RuntimeDeps['config']>,
      isReady: () => false,
      texts: (_ns, defaults) => defaults,
      warn: (m) => void warnings.push(m),
      assertLoggedOut: () => {},
      completeLogin: async () => ({}) as never,
      analytics: () => {},
    }
  }

  it('sets plugins up in order and tears them down last first; a failing setup undoes the ones before it', () => {
    const log: string[] = []
    const p = (id: string, fail = false) =>
      definePlugin({
        id,
        kind: 'feature',
        setup(ctx) {
          if (fail) throw new Error('boom')
          log.push(`up ${id}`)
          ctx.provide({ id })
          ctx.storage.set('k', id)
          return () => void log.push(`down ${id}`)
        },
      })
    const d = deps([p('a'), p('b')])
    const rt = createRuntime(d)
    rt.start()
    expect(rt.api('b')).toEqual({ id: 'b' })
    expect(d.storage.getItem(`portico:${TEST_APP_ID}:a:k`)).toBe('a')
    rt.stop()
    expect(log).toEqual(['up a', 'up b', 'down b', 'down a'])
    expect(rt.has('a')).toBe(false)

    const failing = createRuntime(deps([p('c'), p('d', true)]))
    expect(() => failing.start()).toThrow("Plugin 'd' failed to set up: boom")
    expect(failing.has('c')).toBe(false)
    expect(log.slice(-2)).toEqual(['up c', 'down c'])
    expect(() => failing.api('e')).toThrow("The e plugin is not set up: add e() to config.plugins (import it from 'portico/plugins/e').")
  })

  it('loads error declarations given as loaders once, and says whether there are any', async () => {
    let loads = 0
    const p = definePlugin({
      id: 'lazy',
      kind: 'feature',
      setup: (ctx) => ctx.declareErrors(async () => (loads++, { lazy_x: { title: 'Lazy x' } })),
    })
    const d = deps([p])
    const rt = createRuntime(d)
    expect(rt.hasLazyDeclarations()).toBe(false)
    rt.start()
    expect(rt.hasLazyDeclarations()).toBe(true)
    await Promise.all([rt.loadDeclarations(), rt.loadDeclarations()])
    await rt.loadDeclarations()
    expect(loads).toBe(1)
    expect(d.screens.resolveError(new PorticoError('lazy_x', 'x')).title).toBe('Lazy x')
    rt.stop()
    expect(rt.hasLazyDeclarations()).toBe(false)
  })
})


describe('plugin manifest', () => {
  const TEXTS = { displayName: 'greeting', rowLabel: 'Greet', failed: 'Greeting failed', transferLabel: 'Greeting address' }

  const greeter = (texts: () => Promise<typeof TEXTS>, extra: Partial<PorticoPlugin<'greeter', typeof TEXTS>> = {}) =>
    definePlugin({
      id: 'greeter',
      kind: 'login',
      texts,
      errors: async (t) => ({ greet_failed: { title: t().failed } }),
      screens: { 'greeter-screen': async () => ({ default: () => null }), 'greeter-sticky': { load: async () => ({ default: () => null }), canClose: false } },
      method: { displayName: (t) => t.displayName, transferLabel: (t) => t.transferLabel, accountTypes: ['greeting'] },
      setup(ctx) {
        ctx.hooks.loginMethods.tap('greeter', (list) => [...list, { id: 'greeter', label: ctx.texts().rowLabel, group: 'web2', screen: 'greeter-screen' }])
        ctx.provide({ label: () => ctx.texts().rowLabel })
      },
      ...extra,
    })

  it('loads texts before ready, merges the app overrides (unknown keys warn), and reads them synchronously after', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const kernel = createPortico(
      { appId: TEST_APP_ID, apiUrl: 'http://x.test', skipServerConfig: true, loginMethods: ['greeter'], storage: memoryStorage(), fetch: async () => new Response('{}', { status: 401 }), texts: { greeter: { rowLabel: 'Grüßen', nope: 'x' } }, plugins: [greeter(() => gate.then(() => TEXTS))] },
      { locks: null, channel: null, location: null },
    )
    const warnings: string[] = []
    kernel.events.on('warning', (w) => warnings.push(w.message))
    let ready = false
    const readyP = kernel.ready().then(() => (ready = true))
    await new Promise((r) => setTimeout(r, 0))
    expect(ready).toBe(false) // start-up waits for the texts
    expect(kernel.methods.get('greeter')?.displayName).toBe('greeter') // the id until they are in
    release()
    await readyP
    expect(kernel.plugin<{ label(): string }>('greeter').label()).toBe('Grüßen')
    expect(kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })[0].label).toBe('Grüßen')
    expect(kernel.methods.get('greeter')).toMatchObject({ displayName: 'greeting', transferLabel: 'Greeting address', accountTypes: ['greeting'] })
    expect(warnings).toContain("texts: 'nope' is not a text of this namespace; it is ignored.")
    expect(kernel.screens.get('greeter-sticky')?.canClose).toBe(false)
    await kernel.loadDeclarations()
    expect(kernel.screens.resolveError(new PorticoError('greet_failed', 'x')).title).toBe('Greeting failed')
    kernel.setConfig({ texts: { greeter: { displayName: 'hello' } } })
    expect(kernel.methods.get('greeter')?.displayName).toBe('hello')
    kernel.destroy()
  })

  it('a failing texts loader disables only its plugin, with a warning; start-up does not throw', async () => {
    const other = definePlugin({ id: 'other', kind: 'feature', setup: (ctx) => ctx.provide({ ok: true }) })
    const { kernel, warnings } = await createTestKernel({
      plugins: [greeter(() => Promise.reject(new Error('chunk failed'))), other],
      app: { login_methods: ['greeter', 'email'] } as never,
    })
    expect(kernel.isReady).toBe(true)
    expect(warnings).toContain("Plugin 'greeter' is disabled: its texts could not load (chunk failed).")
    expect(() => kernel.plugin('greeter')).toThrow("Plugin 'greeter' is disabled: its texts could not load (chunk failed).")
    expect(kernel.hasPlugin('greeter')).toBe(false)
    expect(kernel.screens.has('greeter-screen')).toBe(false)
    expect(kernel.methods.get('greeter')).toBeUndefined()
    expect(kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })).toEqual([])
    expect(kernel.plugin<{ ok: boolean }>('other').ok).toBe(true)
  })

  it('a lazy flow loads once (after the texts), forwards the named methods and is preloadable', async () => {
    const load = vi.fn(async () => ({ hello: (name: string) => `Hello ${name}`, reset: () => 'reset' }))
    let flowRef: { current: unknown } | undefined
    const p = definePlugin({
      id: 'lazy-flow',
      kind: 'feature',
      texts: async () => ({ title: 'Hi' }),
      setup(ctx) {
        const flow = ctx.lazy(load)
        flowRef = flow
        ctx.provide({ ...flow.methods('hello'), preload: flow })
      },
    })
    const { kernel } = await createTestKernel({ plugins: [p] })
    const api = kernel.plugin<{ hello(n: string): Promise<string>; preload(): Promise<unknown> }>('lazy-flow')
    expect(load).not.toHaveBeenCalled()
    expect(flowRef!.current).toBeUndefined()
    const [a, b] = await Promise.all([api.hello('Ada'), api.hello('Bob')])
    expect([a, b]).toEqual(['Hello Ada', 'Hello Bob'])
    await api.preload()
    expect(load).toHaveBeenCalledTimes(1)
    expect(flowRef!.current).toBeDefined()
  })

  it('a beforeReady load is in by ready', async () => {
    let value: { current: string | undefined } | undefined
    const p = definePlugin({
      id: 'eager',
      kind: 'feature',
      setup(ctx) {
        value = ctx.lazy(async () => 'in', { beforeReady: true })
      },
    })
    await createTestKernel({ plugins: [p] })
    expect(value!.current).toBe('in')
  })

  it('setup-only plugins (0.2.0) run unchanged; ctx.texts() without a manifest says what to add', async () => {
    let message = ''
    const p = definePlugin({
      id: 'plain',
      kind: 'feature',
      setup(ctx) {
        ctx.provide({ texts: ctx.texts({ a: 'A' }) })
        try {
          ctx.texts()
        } catch (e) {
          message = (e as Error).message
        }
      },
    })
    const { kernel } = await createTestKernel({ plugins: [p] })
    expect(kernel.plugin<{ texts: { a: string } }>('plain').texts).toEqual({ a: 'A' })
    expect(message).toBe("Plugin 'plain' has no texts loaded (manifest texts; after ready()).")
  })
})
