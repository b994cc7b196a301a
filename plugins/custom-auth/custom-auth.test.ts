import { describe, expect, it, vi } from 'vitest'
import { createTestKernel, wireUser, authResponse, fakeJwt, emailAccount } from 'portico/testing'
import { pluginContract } from 'portico/testing'
import { type WireUser } from 'portico'
import { ERROR_TEXTS } from 'portico/ui/screens'
import { customAuth, jwtSubject } from './index'
import { CUSTOM_AUTH_TEXTS } from './strings'

pluginContract(() => customAuth({ getCustomAccessToken: async () => null }))

const customUser = (sub: string): WireUser =>
  wireUser({
    accounts: [{ type: 'custom_auth', custom_user_id: sub, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }],
  })

/** A kernel with customAuth() whose host token is whatever `host.token` holds. */
async function setup(opts: { token?: string | null; user?: WireUser; isLoading?: boolean } = {}) {
  const host = { token: opts.token ?? null as string | null }
  const getCustomAccessToken = vi.fn(async () => host.token)
  const t = await createTestKernel({
    plugins: [customAuth({ getCustomAccessToken, isLoading: opts.isLoading })],
    app: { login_methods: ['email'] },
    user: opts.user,
    ready: false,
  })
  t.net.on('POST', '/custom_jwt_account/authenticate', (call) => {
    const sub = jwtSubject(String((call.body as { token: string }).token))!
    return authResponse(customUser(sub))
  })
  await t.kernel.ready()
  const auth = t.kernel.plugin('custom-auth')
  await auth.sync() // the ready-time sync has settled
  return { ...t, host, auth, getCustomAccessToken }
}

describe('customAuth()', () => {
  it("is 'not-enabled' without getCustomAccessToken, with a warning that says what to pass", async () => {
    const t = await createTestKernel({ plugins: [customAuth()] })
    const auth = t.kernel.plugin('custom-auth')
    expect(auth.state.get().status).toBe('not-enabled')
    // At ready: the sync (its chunk loads first) warns.
    await vi.waitFor(() => expect(t.warnings.join('\n')).toMatch(/getCustomAccessToken/))
    await auth.sync()
    expect(t.net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(0)
  })

  it("stays 'initial' when the host has no token", async () => {
    const { auth, net } = await setup()
    expect(auth.state.get()).toEqual({ status: 'initial', error: null })
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(0)
  })

  it('logs in with the host token once the kernel is ready, and remembers custom_auth', async () => {
    const token = fakeJwt({ sub: 'alice' })
    const { kernel, auth, net } = await setup({ token })
    const calls = net.callsTo('POST', '/custom_jwt_account/authenticate')
    expect(calls).toHaveLength(1)
    expect(calls[0].body).toEqual({ token })
    expect(auth.state.get()).toEqual({ status: 'done', error: null })
    expect(kernel.session.user?.customAuth?.customUserId).toBe('alice')
    expect(kernel.recentLogin()?.method).toBe('custom_auth')
  })

  it('does not log in again for the same host user', async () => {
    const { auth, net, host } = await setup({ token: fakeJwt({ sub: 'alice' }) })
    host.token = fakeJwt({ sub: 'alice', iat: 1 }) // refreshed token, same user
    await auth.sync()
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(1)
  })

  it('re-syncs when the host token names another user', async () => {
    const { kernel, auth, net, host } = await setup({ token: fakeJwt({ sub: 'alice' }) })
    host.token = fakeJwt({ sub: 'bob' })
    await auth.sync()
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(2)
    expect(kernel.session.user?.customAuth?.customUserId).toBe('bob')
  })

  it('logs out when the host token disappears', async () => {
    const { kernel, auth, net, host } = await setup({ token: fakeJwt({ sub: 'alice' }) })
    host.token = null
    await auth.sync()
    expect(kernel.session.authenticated).toBe(false)
    expect(net.callsTo('POST', '/sessions/logout')).toHaveLength(1)
    expect(auth.state.get().status).toBe('initial')
  })

  it('leaves a custom JWT session another plugin started alone when there is no token', async () => {
    const { kernel, net } = await setup({ user: customUser('acme-user') })
    expect(kernel.session.user?.customAuth?.customUserId).toBe('acme-user')
    expect(kernel.session.authenticated).toBe(true)
    expect(net.callsTo('POST', '/sessions/logout')).toHaveLength(0)
  })

  it('leaves a session it did not start alone when there is no token', async () => {
    const { kernel, net } = await setup({ user: wireUser({ accounts: [emailAccount('a@example.com')] }) })
    expect(kernel.session.authenticated).toBe(true)
    expect(net.callsTo('POST', '/sessions/logout')).toHaveLength(0)
  })

  it("'User already exists with provided custom JWT account.' resets to initial", async () => {
    const { auth, net, host } = await setup()
    net.on('POST', '/custom_jwt_account/authenticate', {
      status: 400,
      body: { code: 'linked_to_another_user', error: 'This account has already been linked to another user.' },
    })
    host.token = fakeJwt({ sub: 'carol' })
    const state = await auth.sync()
    expect(state.status).toBe('initial')
    expect(state.error?.message).toBe(CUSTOM_AUTH_TEXTS.userAlreadyExists)
    expect(state.error?.message).toBe('User already exists with provided custom JWT account.')
  })

  it("other failures: 'Failed to sync with custom auth provider' in state error", async () => {
    const { auth, net, host } = await setup()
    net.on('POST', '/custom_jwt_account/authenticate', {
      status: 401,
      body: { code: 'invalid_credentials', error: 'Invalid custom auth token' },
    })
    host.token = fakeJwt({ sub: 'dave' })
    const state = await auth.sync()
    expect(state.status).toBe('error')
    expect(state.error?.message).toBe('Failed to sync with custom auth provider')
    expect(state.error?.code).toBe('invalid_credentials')
  })

  it('a throwing token getter is a sync failure, not a crash', async () => {
    const { auth, getCustomAccessToken } = await setup()
    getCustomAccessToken.mockRejectedValueOnce(new Error('provider down'))
    const state = await auth.sync()
    expect(state).toMatchObject({ status: 'error', error: { message: CUSTOM_AUTH_TEXTS.failedToSync } })
  })

  it("waits while the host is loading ('loading'), then syncs when loading ends", async () => {
    const token = fakeJwt({ sub: 'erin' })
    const { auth, net } = await setup({ token, isLoading: true })
    expect(auth.state.get().status).toBe('loading')
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(0)
    auth.setOptions({ isLoading: false })
    await auth.sync()
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(1)
    expect(auth.state.get().status).toBe('done')
  })

  it('merges overlapping sync calls into one more run', async () => {
    const { auth, net, host } = await setup()
    host.token = fakeJwt({ sub: 'frank' })
    await Promise.all([auth.sync(), auth.sync(), auth.sync()])
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(1)
  })

  it('says what to fix when the plugin is missing', async () => {
    const { kernel } = await createTestKernel({ plugins: [] })
    expect(() => kernel.plugin('custom-auth')).toThrow(/add customAuth\(\) to config.plugins/)
  })
})

describe('customAuth() on the contract', () => {
  it("declares the 'custom_auth' method: account type custom_auth on user.customAuth, display name 'custom'", async () => {
    const t = await createTestKernel({ plugins: [customAuth()], user: customUser('zoe') })
    const m = t.kernel.methods.get('custom_auth')
    expect(m).toMatchObject({ id: 'custom_auth', displayName: 'custom', accountTypes: ['custom_auth'], userField: 'customAuth' })
    expect(m?.transfer).toBeUndefined()
    expect(t.kernel.methods.forAccountType('custom_auth')?.id).toBe('custom_auth')
    expect(t.kernel.session.user?.customAuth).toMatchObject({ type: 'custom_auth', customUserId: 'zoe' })
    expect(t.kernel.session.user?.linkedAccounts[0]).toMatchObject({ customUserId: 'zoe' })
  })

  it('refuses to replace a non-custom login: already_logged_in in its state, no request', async () => {
    const { auth, net, host, kernel, warnings } = await setup({ user: wireUser({ accounts: [emailAccount('a@example.com')] }) })
    host.token = fakeJwt({ sub: 'gina' })
    const state = await auth.sync()
    expect(state).toMatchObject({ status: 'error', error: { code: 'already_logged_in', message: ERROR_TEXTS.alreadyLoggedIn } })
    expect(warnings).toContain(ERROR_TEXTS.alreadyLoggedIn)
    expect(net.callsTo('POST', '/custom_jwt_account/authenticate')).toHaveLength(0)
    expect(kernel.session.user?.customAuth).toBeUndefined()
    expect(kernel.session.authenticated).toBe(true)
  })

  it("keeps its state in the kernel's store and takes the app's texts", async () => {
    const t = await createTestKernel({
      plugins: [customAuth({ getCustomAccessToken: async () => fakeJwt({ sub: 'hal' }) })],
      config: { texts: { 'custom-auth': { failedToSync: 'Sync fehlgeschlagen' } } },
      ready: false,
    })
    t.net.on('POST', '/custom_jwt_account/authenticate', { status: 500, body: { code: 'unknown_auth_error', error: 'boom' } })
    await t.kernel.ready()
    const state = await t.kernel.plugin('custom-auth').sync()
    expect(state.error?.message).toBe('Sync fehlgeschlagen')
    expect(t.kernel.pluginState('custom-auth')?.get()).toBe(state)
  })
})

describe('jwtSubject', () => {
  it('reads sub without verifying, null for junk', () => {
    expect(jwtSubject(fakeJwt({ sub: 'x' }))).toBe('x')
    expect(jwtSubject('not-a-jwt')).toBeNull()
    expect(jwtSubject('a.!!!.c')).toBeNull()
  })
})
