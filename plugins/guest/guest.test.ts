import { describe, expect, it } from 'vitest'
import { memoryStorage } from 'portico'
import { ERROR_TEXTS } from 'portico/ui/screens'
import { createTestKernel, wireUser, authResponse, emailAccount, TEST_APP_ID } from 'portico/testing'
import { pluginContract } from 'portico/testing'
import { guest, GUEST_TEXTS } from './index'
import { base64url, newGuestCredential } from './credential'

pluginContract(() => guest(), { loginMethods: ['guest'] })

const fromB64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

describe('guest credential', () => {
  it('is 32 random bytes, base64url without padding', () => {
    const a = newGuestCredential()
    const b = newGuestCredential()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(fromB64url(a)).toHaveLength(32)
    expect(a).not.toBe(b)
  })
  it('encodes bytes the way the server decodes them', () => {
    expect(base64url(new Uint8Array([251, 255, 191]))).toBe('-_-_')
  })
})

describe('guest()', () => {
  async function setup() {
    const t = await createTestKernel({ plugins: [guest()], app: { login_methods: ['email', 'guest'] } })
    const guestUser = wireUser({ is_guest: true })
    t.net.on('POST', '/guest/authenticate', () => authResponse(guestUser, { is_new_user: true }))
    return { ...t, guestUser }
  }

  it('logs in with a stored credential and remembers guest as the recent method', async () => {
    const { kernel, net, guestUser } = await setup()
    const result = await kernel.plugin('guest').createGuestAccount()
    expect(result.user.id).toBe(guestUser.id)
    expect(result.user.isGuest).toBe(true)
    expect(kernel.session.authenticated).toBe(true)
    const [call] = net.callsTo('POST', '/guest/authenticate')
    expect(Object.keys(call.body)).toEqual(['guest_credential'])
    expect(fromB64url(call.body.guest_credential)).toHaveLength(32)
    expect(kernel.plugin('guest').credential()).toBe(call.body.guest_credential)
    expect(kernel.recentLogin()?.method).toBe('guest')
    expect(kernel.plugin('guest').state.get().status).toBe('done')
    expect(kernel.pluginState('guest')?.get()).toMatchObject({ status: 'done' })
  })

  it('sends the same credential again after the session ended (same account)', async () => {
    const { kernel, net } = await setup()
    await kernel.plugin('guest').createGuestAccount()
    const first = net.callsTo('POST', '/guest/authenticate')[0].body.guest_credential
    // The session lapses (cleared by the server), not a logout.
    kernel.session.apply({ ...authResponse(), session_update_action: 'clear' })
    expect(kernel.session.authenticated).toBe(false)
    await kernel.plugin('guest').createGuestAccount()
    expect(net.callsTo('POST', '/guest/authenticate')[1].body.guest_credential).toBe(first)
  })

  it('keeps the credential per app id in the browser storage', async () => {
    const storage = memoryStorage()
    const t = await createTestKernel({ plugins: [guest()], app: { login_methods: ['guest'] }, config: { storage } })
    t.net.on('POST', '/guest/authenticate', () => authResponse(wireUser({ is_guest: true })))
    await t.kernel.plugin('guest').createGuestAccount()
    const sent = t.net.callsTo('POST', '/guest/authenticate')[0].body.guest_credential
    expect(storage.getItem(`portico:${TEST_APP_ID}:guest:credential`)).toBe(sent)
  })

  it('one request when pressed twice', async () => {
    const { kernel, net } = await setup()
    await Promise.all([kernel.plugin('guest').createGuestAccount(), kernel.plugin('guest').createGuestAccount()])
    expect(net.callsTo('POST', '/guest/authenticate')).toHaveLength(1)
  })

  it('refuses with already_logged_in and a warning when a non-guest is logged in', async () => {
    const t = await createTestKernel({
      plugins: [guest()],
      app: { login_methods: ['email', 'guest'] },
      user: wireUser({ accounts: [emailAccount('a@example.com')] }),
    })
    await expect(t.kernel.plugin('guest').createGuestAccount()).rejects.toMatchObject({
      code: 'already_logged_in',
      message: ERROR_TEXTS.alreadyLoggedIn,
    })
    expect(t.warnings).toContain(ERROR_TEXTS.alreadyLoggedIn)
    expect(t.net.callsTo('POST', '/guest/authenticate')).toHaveLength(0)
  })

  it('drops the credential when the guest logs out', async () => {
    const { kernel } = await setup()
    await kernel.plugin('guest').createGuestAccount()
    await kernel.session.logout()
    expect(kernel.plugin('guest').credential()).toBeNull()
  })

  it('drops the credential once the guest became a full user (e-mail linked or logged in)', async () => {
    const { kernel, guestUser } = await setup()
    await kernel.plugin('guest').createGuestAccount()
    kernel.session.setUser({ ...guestUser, is_guest: false, linked_accounts: [emailAccount('g@example.com')] })
    expect(kernel.session.user?.id).toBe(guestUser.id)
    expect(kernel.plugin('guest').credential()).toBeNull()
  })

  it('reports server errors in its state', async () => {
    const { kernel, net } = await setup()
    net.on('POST', '/guest/authenticate', { status: 403, body: { code: 'disallowed_login_method', error: 'Login with guest is not allowed for this app.' } })
    await expect(kernel.plugin('guest').createGuestAccount()).rejects.toMatchObject({ code: 'disallowed_login_method' })
    expect(kernel.plugin('guest').state.get()).toMatchObject({ status: 'error' })
  })

  it("adds 'Continue as guest' only when guest is enabled, and its start logs in", async () => {
    const { kernel, net } = await setup()
    const entries = kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ id: 'guest', label: GUEST_TEXTS.continueAsGuest, group: 'web2' })
    expect(GUEST_TEXTS.continueAsGuest).toBe('Continue as guest')
    await entries[0].start!()
    expect(net.callsTo('POST', '/guest/authenticate')).toHaveLength(1)
    expect(kernel.session.user?.isGuest).toBe(true)

    const off = await createTestKernel({ plugins: [guest()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
  })

  it('says what to fix when the plugin is missing', async () => {
    const { kernel } = await createTestKernel({ plugins: [] })
    expect(() => kernel.plugin('guest')).toThrow(/add guest\(\) to config.plugins/)
  })

  it("declares the 'guest' method: display name 'guest', no account types, remembered", async () => {
    const { kernel } = await setup()
    expect(kernel.methods.get('guest')).toMatchObject({ id: 'guest', displayName: 'guest' })
    expect(kernel.methods.get('guest')?.accountTypes ?? []).toEqual([])
    expect(kernel.methods.get('guest')?.remembered).not.toBe(false)
    kernel.destroy()
    expect(kernel.methods.get('guest')).toBeUndefined()
  })

  it("takes the app's texts for the landing row", async () => {
    const t = await createTestKernel({
      plugins: [guest()],
      app: { login_methods: ['guest'] },
      config: { texts: { guest: { continueAsGuest: 'Als Gast fortfahren' } } },
    })
    expect(t.kernel.hooks.loginMethods.call([], { config: t.kernel.config, recent: null })[0].label).toBe('Als Gast fortfahren')
  })

  it('keeps its state in the kernel: set up again (StrictMode), it starts clean', async () => {
    const { kernel } = await setup()
    await kernel.plugin('guest').createGuestAccount()
    kernel.destroy()
    expect(kernel.hasPlugin('guest')).toBe(false)
    expect(kernel.methods.get('guest')).toBeUndefined()
    kernel.start()
    expect(kernel.plugin('guest').state.get()).toEqual({ status: 'initial', error: null })
    expect(kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })).toHaveLength(1)
  })
})
