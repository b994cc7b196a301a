import { normaliseFields } from './user'
import { describe, expect, it, vi } from 'vitest'
import { TEST_APP_ID, createTestKernel } from '../test/kit/index'
import { authResponse, emailAccount, wireUser } from '../test/kit/fixtures'
import { createFetchDouble } from '../test/kit/fetch-double'
import { createPortico, definePlugin, isRecentEntry, memoryStorage, PorticoError, type PorticoPlugin } from './index'

const noop = (id: string, kind: PorticoPlugin['kind'] = 'login') => definePlugin({ id, kind, setup() {} })
const create = (plugins: unknown) => () =>
  createPortico({ appId: TEST_APP_ID, plugins: plugins as PorticoPlugin[], storage: memoryStorage(), fetch: createFetchDouble().fetch })

describe('createPortico: plugins', () => {
  it('refuses a plugin without an id, naming it and saying what to fix', () => {
    expect(create([{ kind: 'login', setup() {} }])).toThrow("Plugin #1 has no id: give it a kebab-case id such as 'my-login'.")
  })
  it('refuses a duplicate id', () => {
    expect(create([noop('email'), noop('email')])).toThrow(
      "Plugin 'email' is added more than once: each plugin id may be used once; remove the duplicate from config.plugins.",
    )
  })
  it('refuses a factory passed uncalled, a bad id, a bad kind, a missing setup', () => {
    expect(create([() => ({})])).toThrow('did you pass the factory (email) instead of calling it (email())?')
    expect(create([noop('Email')])).toThrow("Plugin 'Email' has an invalid id: use kebab-case")
    expect(create([{ id: 'x', kind: 'magic', setup() {} }])).toThrow("Plugin 'x' has kind 'magic': use one of login, wallet")
    expect(create([{ id: 'x', kind: 'login' }])).toThrow("Plugin 'x' has no setup(ctx) function.")
    expect(create('email')).toThrow('config.plugins must be an array')
  })
  it('names the problem in production builds, where the texts that say what to fix are dropped', () => {
    vi.stubEnv('NODE_ENV', 'production')
    try {
      expect(create([{ kind: 'login', setup() {} }])).toThrow(expect.objectContaining({ code: 'invalid_plugin', message: 'Plugin #1: no-id' }))
      expect(create([noop('email'), noop('email')])).toThrow("Plugin 'email': duplicate")
    } finally {
      vi.unstubAllEnvs()
    }
  })
  it('wraps a throwing setup in invalid_plugin', () => {
    const bad = definePlugin({
      id: 'bad',
      kind: 'feature',
      setup() {
        throw new Error('kaput')
      },
    })
    try {
      create([bad])()
      throw new Error('expected failure')
    } catch (e) {
      expect(e).toBeInstanceOf(PorticoError)
      expect((e as PorticoError).code).toBe('invalid_plugin')
      expect((e as Error).message).toBe("Plugin 'bad' failed to set up: kaput")
    }
  })
  it('refuses a bad app id before anything else', () => {
    expect(() => createPortico({ appId: 'short' })).toThrow('The app ID must be a string of exactly 25 characters.')
    expect(() => createPortico(undefined as never)).toThrow('createPortico needs a config object')
  })
})

describe('createPortico: ready', () => {
  it('fetches the app config and restores the session side by side, merges and runs configure', async () => {
    const configured = vi.fn((c) => ({ ...c, name: `${c.name}!` }))
    const plugin = definePlugin({ id: 'p', kind: 'feature', setup: (ctx) => void ctx.hooks.configure.tap('p', configured) })
    const { kernel, net } = await createTestKernel({ plugins: [plugin], app: { name: 'Acme', login_methods: ['email', 'sms'] }, user: wireUser() })
    expect(kernel.isReady).toBe(true)
    expect(kernel.config.name).toBe('Acme!')
    expect(kernel.config.loginMethods).toEqual(['email', 'sms'])
    expect(kernel.session.authenticated).toBe(true)
    expect(net.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /apps/${TEST_APP_ID}`, 'POST /sessions'])
    expect(net.calls[0].headers.authorization).toBeUndefined()
  })

  it('fails ready() with a PorticoError when the server is unreachable or sends nonsense, and can retry', async () => {
    const { kernel, net } = await createTestKernel({ ready: false })
    net.on('GET', '/apps/:id', { status: 404, body: { code: 'missing_or_invalid_privy_app_id', error: 'Unknown app' } })
    const onError = vi.fn()
    kernel.events.on('error', onError)
    await expect(kernel.ready()).rejects.toMatchObject({ code: 'missing_or_invalid_privy_app_id' })
    expect(onError).toHaveBeenCalledTimes(1)
    net.on('GET', '/apps/:id', { surprise: true })
    await expect(kernel.ready()).rejects.toMatchObject({ code: 'invalid_response' })
    net.on('GET', '/apps/:id', { id: TEST_APP_ID, name: 'ok', login_methods: [] })
    await expect(kernel.ready()).rejects.toThrow('You must enable at least one login method')
    net.on('GET', '/apps/:id', { id: TEST_APP_ID, name: 'ok', login_methods: ['email'] })
    await expect(kernel.ready()).resolves.toBeUndefined()
  })

  it('asks for the app config as ready() is called, before its start-up code has loaded, and only once', async () => {
    const { kernel, net } = await createTestKernel({ ready: false })
    const order: string[] = []
    net.on('GET', '/apps/:id', () => (order.push('config request'), { id: TEST_APP_ID, name: 'ok', login_methods: ['email'] }))
    kernel.events.on('status', ({ status }) => void order.push(status))
    expect(kernel.status).toBe('idle')
    await kernel.ready()
    // 'loading' is the first thing ./startup.ts (a chunk of its own in a host's bundle) does.
    expect(order).toEqual(['config request', 'loading', 'ready'])
    expect(net.callsTo('GET', `/apps/${TEST_APP_ID}`)).toHaveLength(1)
  })

  it('a prefetched config lost to the network is asked for again on the retry', async () => {
    const net = createFetchDouble()
    let n = 0
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/apps/') && ++n === 1) throw new TypeError('Failed to fetch')
      return net.fetch(input, init)
    }) as typeof globalThis.fetch
    net.on('GET', '/apps/:id', { id: TEST_APP_ID, name: 'ok', login_methods: ['email'] })
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'no session' } })
    const kernel = createPortico(
      { appId: TEST_APP_ID, apiUrl: 'http://portico.test', storage: memoryStorage(), fetch },
      { locks: null, channel: null, location: null, wakeTarget: null, retryDelay: () => 1 },
    )
    const statuses: string[] = []
    kernel.events.on('status', ({ status }) => void statuses.push(status))
    await kernel.ready()
    expect(n).toBe(2)
    expect(statuses).toEqual(['loading', 'retrying', 'ready'])
  })

  it('sends warnings to listeners (or the console) instead of failing', async () => {
    const { warnings } = await createTestKernel({ app: { login_methods: ['email', 'email'] } })
    expect(warnings).toEqual(["Login method 'email' is listed more than once; the duplicate is ignored."])
  })
})

describe('completeLogin', () => {
  it('stores the session, emits login, runs the authenticated chain in stage order and remembers the method', async () => {
    const order: string[] = []
    const plugin = definePlugin({
      id: 'chain',
      kind: 'feature',
      setup(ctx) {
        ctx.methods.declare({ id: 'email', displayName: 'e-mail', accountTypes: ['email'], userField: 'email', normalise: (raw) => normaliseFields(raw, 'address:S') })
        ctx.hooks.authenticated.tapPromise({ name: 'chain', stage: 0 }, async () => void order.push('wallet'))
        ctx.hooks.authenticated.tapPromise({ name: 'chain', stage: -10 }, async (c) => void order.push(`consent:${c.method}:${c.intent}`))
      },
    })
    const { kernel } = await createTestKernel({ plugins: [plugin] })
    const onLogin = vi.fn()
    kernel.events.on('login', onLogin)
    const res = authResponse(wireUser({ accounts: [emailAccount('a@b.co')] }), { is_new_user: true })
    const result = await kernel.completeLogin(res, { method: 'email' })
    expect(result.isNewUser).toBe(true)
    expect(result.user.email?.address).toBe('a@b.co')
    expect(order).toEqual(['consent:email:login', 'wallet'])
    expect(onLogin).toHaveBeenCalledWith(expect.objectContaining({ method: 'email', isNewUser: true }))
    expect(kernel.recentLogin()).toEqual({ method: 'email', walletClientType: null, chainType: null })
  })

  it('does not remember a method whose descriptor says remembered: false (passkey, cross-app, the embedded wallet)', async () => {
    const methods = definePlugin({
      id: 'methods',
      kind: 'feature',
      setup(ctx) {
        ctx.methods.declare({ id: 'signed', displayName: 'wallet' })
        for (const id of ['key', 'other-app', 'embedded']) ctx.methods.declare({ id, displayName: id, remembered: false })
      },
    })
    const { kernel } = await createTestKernel({ plugins: [methods] })
    await kernel.completeLogin(authResponse(), { method: 'signed', walletClientType: 'metamask', chainType: 'ethereum' })
    for (const method of ['key', 'other-app', 'embedded']) await kernel.completeLogin(authResponse(), { method })
    expect(kernel.recentLogin()).toEqual({ method: 'signed', walletClientType: 'metamask', chainType: 'ethereum' })
  })

  it("refuses a 'clear' response as a login", async () => {
    const { kernel } = await createTestKernel()
    await expect(kernel.completeLogin(authResponse(wireUser(), { session_update_action: 'clear' }))).rejects.toMatchObject({
      code: 'missing_or_invalid_token',
    })
  })
})

describe('plugin context', () => {
  it('gives a namespaced storage, format, warn, and teardown on destroy', async () => {
    const teardown = vi.fn()
    let ctxRef: Parameters<NonNullable<PorticoPlugin['setup']>>[0] | undefined
    const plugin = definePlugin({
      id: 'ctx-test',
      kind: 'feature',
      setup(ctx) {
        ctxRef = ctx
        const off = ctx.screens.register({ id: 'ctx-screen', component: 'x' })
        return () => {
          off()
          teardown()
        }
      },
    })
    const { kernel, warnings } = await createTestKernel({ plugins: [plugin] })
    ctxRef!.storage.set('k', 'v')
    expect(ctxRef!.storage.get('k')).toBe('v')
    expect(ctxRef!.format('{method} is associated with another account', { method: 'Email address' })).toBe(
      'Email address is associated with another account',
    )
    ctxRef!.warn('careful')
    expect(warnings).toContain('careful')
    expect(kernel.screens.has('ctx-screen')).toBe(true)
    kernel.destroy()
    expect(teardown).toHaveBeenCalledTimes(1)
    expect(kernel.screens.has('ctx-screen')).toBe(false)
  })
})

describe('isRecentEntry', () => {
  it('matches the entry id or a method the entry covers', () => {
    expect(isRecentEntry({ id: 'email' }, 'email')).toBe(true)
    expect(isRecentEntry({ id: 'wallet', covers: ['siwe', 'siws'] }, 'siws')).toBe(true)
    expect(isRecentEntry({ id: 'wallet', covers: ['siwe'] }, 'email')).toBe(false)
    expect(isRecentEntry({ id: 'email' }, null)).toBe(false)
  })
})
