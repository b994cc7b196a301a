import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel, wireUser, authResponse, emailAccount } from 'portico/testing'
import { pluginContract } from 'portico/testing'
import { PorticoError, type WireLinkedAccount, type WireUser } from 'portico'
import { INITIAL_CODE_STATE, normaliseCode } from 'portico/kits/code'
import { RESEND_COOLDOWN_MS } from 'portico/ui'
import { sms, toE164, SMS_SCREENS } from './index'
import { codeErrorMessage } from './errors'
import { SMS_TEXTS } from './strings'

afterEach(() => vi.restoreAllMocks())

pluginContract(() => sms(), { loginMethods: ['sms'] })

const phoneAccount = (number: string): WireLinkedAccount => ({
  type: 'phone',
  number,
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
})

async function setup(user?: WireUser, app: Record<string, unknown> = {}) {
  const t = await createTestKernel({ plugins: [sms()], app: { login_methods: ['email', 'sms'], ...app }, user })
  t.net.on('POST', '/passwordless_sms/init', { success: true })
  return { ...t, flow: t.kernel.plugin('sms') }
}

describe('sms calls', () => {
  it('init {phoneNumber} in E.164, then authenticate {phoneNumber, code, mode} and remember sms', async () => {
    const { kernel, net, flow } = await setup()
    const newUser = wireUser({ accounts: [phoneAccount('+14155550100')] })
    net.on('POST', '/passwordless_sms/authenticate', () => authResponse(newUser, { is_new_user: true }))
    await flow.sendCode({ phoneNumber: '(415) 555-0100' })
    expect(net.callsTo('POST', '/passwordless_sms/init')[0].body).toEqual({ phoneNumber: '+14155550100' })
    expect(flow.getState()).toMatchObject({ status: 'awaiting-code-input', destination: '+14155550100' })
    expect(flow.getState().codeSentAt).toBeGreaterThan(0)
    const result = await flow.loginWithCode({ code: ' 123 456 ' })
    expect(net.callsTo('POST', '/passwordless_sms/authenticate')[0].body).toEqual({
      phoneNumber: '+14155550100',
      code: '123456',
      mode: 'login-or-sign-up',
    })
    expect(result).toMatchObject({ isNewUser: true })
    expect(kernel.session.user?.phone?.number).toBe('+14155550100')
    expect(kernel.recentLogin()?.method).toBe('sms')
    expect(flow.getState().status).toBe('done')
  })

  it("sends the captcha token and 'no-signup' when asked", async () => {
    const { net, flow } = await setup()
    net.on('POST', '/passwordless_sms/authenticate', () => authResponse())
    await flow.sendCode({ phoneNumber: '+442071838750', token: 'captcha-token' })
    expect(net.callsTo('POST', '/passwordless_sms/init')[0].body).toEqual({ phoneNumber: '+442071838750', token: 'captcha-token' })
    await flow.loginWithCode({ code: '000000', disableSignup: true })
    expect(net.callsTo('POST', '/passwordless_sms/authenticate')[0].body.mode).toBe('no-signup')
  })

  it('reads national numbers in the default country (intl.defaultCountry)', async () => {
    const t = await createTestKernel({ plugins: [sms()], app: { login_methods: ['sms'] }, config: { intl: { defaultCountry: 'GB' } } })
    t.net.on('POST', '/passwordless_sms/init', { success: true })
    await t.kernel.plugin('sms').sendCode({ phoneNumber: '020 7183 8750' })
    expect(t.net.callsTo('POST', '/passwordless_sms/init')[0].body.phoneNumber).toBe('+442071838750')
  })

  it('refuses an invalid number or a non-numeric code before any request', async () => {
    const { net, flow } = await setup()
    await expect(flow.sendCode({ phoneNumber: '123' })).rejects.toThrow(SMS_TEXTS.invalidPhone)
    expect(net.callsTo('POST', '/passwordless_sms/init')).toHaveLength(0)
    await flow.sendCode({ phoneNumber: '+14155550100' })
    await expect(flow.loginWithCode({ code: '12a456' })).rejects.toThrow('Code should be numeric')
    expect(net.callsTo('POST', '/passwordless_sms/authenticate')).toHaveLength(0)
  })

  it('a wrong code puts the flow in error with the server code', async () => {
    const { net, flow, kernel } = await setup()
    net.on('POST', '/passwordless_sms/authenticate', {
      status: 401,
      body: { code: 'invalid_credentials', error: 'Invalid or expired verification code' },
    })
    await flow.sendCode({ phoneNumber: '+14155550100' })
    await expect(flow.loginWithCode({ code: '111111' })).rejects.toMatchObject({ code: 'invalid_credentials' })
    expect(flow.getState()).toMatchObject({ status: 'error', error: { code: 'invalid_credentials' } })
    expect(kernel.session.authenticated).toBe(false)
  })

  it('resendCode sends to the same number with the same intent, after the 30 s cooldown', async () => {
    const { net, flow } = await setup()
    await flow.sendCode({ phoneNumber: '+14155550100' })
    await expect(flow.resendCode()).rejects.toMatchObject({ code: 'too_many_requests' })
    expect(flow.getState().status).toBe('awaiting-code-input')
    const t0 = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(t0 + RESEND_COOLDOWN_MS + 1)
    await flow.resendCode()
    const calls = net.callsTo('POST', '/passwordless_sms/init')
    expect(calls.map((c) => c.body.phoneNumber)).toEqual(['+14155550100', '+14155550100'])
  })

  it('refuses to log in (already_logged_in, with a warning) while a non-guest is logged in', async () => {
    const { net, flow, warnings } = await setup(wireUser({ accounts: [emailAccount('a@example.com')] }))
    await expect(flow.sendCode({ phoneNumber: '+14155550100' })).rejects.toMatchObject({ code: 'already_logged_in' })
    await expect(flow.loginWithCode({ code: '123456', phoneNumber: '+14155550100' })).rejects.toMatchObject({ code: 'already_logged_in' })
    expect(net.callsTo('POST', '/passwordless_sms/init')).toHaveLength(0)
    expect(net.callsTo('POST', '/passwordless_sms/authenticate')).toHaveLength(0)
    expect(warnings.join('\n')).toMatch(/already logged in/)
  })

  it('a guest may log in with SMS (the server keeps the account)', async () => {
    const guestUser = wireUser({ is_guest: true })
    const { net, flow, kernel } = await setup(guestUser)
    net.on('POST', '/passwordless_sms/authenticate', () =>
      authResponse({ ...guestUser, is_guest: false, linked_accounts: [phoneAccount('+14155550100')] }),
    )
    await flow.sendCode({ phoneNumber: '+14155550100' })
    await flow.loginWithCode({ code: '123456' })
    expect(kernel.session.user).toMatchObject({ id: guestUser.id, isGuest: false })
  })
})

describe('sms account management', () => {
  it('link {phoneNumber, code} updates the user without a new session', async () => {
    const me = wireUser({ accounts: [emailAccount('a@example.com')] })
    const { net, flow, kernel } = await setup(me)
    net.on('POST', '/passwordless_sms/link', () => ({
      ...authResponse({ ...me, linked_accounts: [...me.linked_accounts, phoneAccount('+14155550100')] }),
      token: null,
      refresh_token: null,
      session_update_action: 'ignore',
    }))
    await flow.sendCode({ phoneNumber: '+14155550100', intent: 'link' })
    const user = await flow.submitCode('123456')
    expect(net.callsTo('POST', '/passwordless_sms/link')[0].body).toEqual({ phoneNumber: '+14155550100', code: '123456' })
    expect(user.phone?.number).toBe('+14155550100')
    expect(kernel.session.user?.phone?.number).toBe('+14155550100')
    expect(kernel.recentLogin()).toBeNull()
  })

  it("linking needs a logged-in user: 'User must be authenticated before linking an account.'", async () => {
    const { flow } = await setup()
    await expect(flow.sendCode({ phoneNumber: '+14155550100', intent: 'link' })).rejects.toThrow(
      'User must be authenticated before linking an account.',
    )
  })

  it("one phone per user: 'User already has an account of type phone linked.' before any request", async () => {
    const { flow, net } = await setup(wireUser({ accounts: [phoneAccount('+14155550100')] }))
    await expect(flow.sendCode({ phoneNumber: '+14155550199', intent: 'link' })).rejects.toMatchObject({
      code: 'cannot_link_more_of_type',
      message: 'User already has an account of type phone linked.',
    })
    expect(net.callsTo('POST', '/passwordless_sms/init')).toHaveLength(0)
  })

  it('update {old_phone_number, new_phone_number, code}; the code goes to the new number', async () => {
    const me = wireUser({ accounts: [phoneAccount('+14155550100')] })
    const { net, flow, kernel } = await setup(me)
    net.on('POST', '/passwordless_sms/update', () => ({
      ...authResponse({ ...me, linked_accounts: [phoneAccount('+14155550199')] }),
      session_update_action: 'ignore',
    }))
    await flow.sendCode({ phoneNumber: '+1 415 555 0199', intent: 'update' })
    expect(net.callsTo('POST', '/passwordless_sms/init')[0].body.phoneNumber).toBe('+14155550199')
    await flow.submitCode('654321')
    expect(net.callsTo('POST', '/passwordless_sms/update')[0].body).toEqual({
      old_phone_number: '+14155550100',
      new_phone_number: '+14155550199',
      code: '654321',
    })
    expect(kernel.session.user?.phone?.number).toBe('+14155550199')
  })

  it("update without a phone: 'User is required to have a phone number to update it.'", async () => {
    const { flow, net } = await setup(wireUser({ accounts: [emailAccount('a@example.com')] }))
    await expect(flow.sendCode({ phoneNumber: '+14155550199', intent: 'update' })).rejects.toThrow(
      'User is required to have a phone number to update it.',
    )
    expect(net.callsTo('POST', '/passwordless_sms/init')).toHaveLength(0)
  })

  it('unlink {phoneNumber} and transfer {nonce, phoneNumber}', async () => {
    const me = wireUser({ accounts: [emailAccount('a@example.com'), phoneAccount('+14155550100')] })
    const { net, flow, kernel } = await setup(me)
    net.on('POST', '/passwordless_sms/unlink', () => ({ ...authResponse({ ...me, linked_accounts: [emailAccount('a@example.com')] }), session_update_action: 'ignore' }))
    net.on('POST', '/passwordless_sms/transfer', () => ({ ...authResponse(me), session_update_action: 'ignore' }))
    await flow.unlink('+14155550100')
    expect(net.callsTo('POST', '/passwordless_sms/unlink')[0].body).toEqual({ phoneNumber: '+14155550100' })
    expect(kernel.session.user?.phone).toBeUndefined()
    await flow.transfer({ nonce: 'n-1', phoneNumber: '+14155550100' })
    expect(net.callsTo('POST', '/passwordless_sms/transfer')[0].body).toEqual({ nonce: 'n-1', phoneNumber: '+14155550100' })
    expect(kernel.session.user?.phone?.number).toBe('+14155550100')
  })
})

describe('sms errors', () => {
  it("maps not_supported of SMS to 'This region is not supported'; the kernel's neutral view stays 'Not supported'", async () => {
    const { kernel } = await setup()
    await kernel.loadDeclarations() // error views declared lazily (the modal's screens wait for them)
    const err = new PorticoError('not_supported', 'Region blocked', { status: 400 })
    const view = kernel.screens.resolveError(err, { method: 'sms' })
    expect(view).toMatchObject({
      title: 'This region is not supported',
      detail: 'SMS authentication from this region is not available',
      cta: 'Try another method',
      action: 'landing',
    })
    expect(kernel.screens.hasOwnScreen(err, { method: 'sms' })).toBe(true)
    expect(kernel.screens.resolveError(err, { screen: 'sms-code' }).title).toBe('This region is not supported')
    // Another method's (or no method's) not_supported: the kernel's neutral view.
    expect(kernel.screens.resolveError(err, { method: 'email' })).toMatchObject({ title: 'Not supported', detail: 'Region blocked' })
    expect(kernel.screens.resolveError(err).title).toBe('Not supported')
    expect(kernel.hooks.errorView.call(new PorticoError('invalid_credentials', 'x'), { method: 'sms' })).toBeUndefined()
  })

  it('the region texts are overridable (texts.sms)', async () => {
    const t = await createTestKernel({
      plugins: [sms()],
      app: { login_methods: ['sms'] },
      config: { texts: { sms: { regionNotSupported: 'Région non prise en charge' } } },
    })
    await t.kernel.loadDeclarations()
    const view = t.kernel.screens.resolveError(new PorticoError('not_supported', 'x'), { method: 'sms' })
    expect(view.title).toBe('Région non prise en charge')
    expect(view.detail).toBe('SMS authentication from this region is not available')
  })

  it('code messages: invalid, cannot link more (server message), anything else', () => {
    expect(codeErrorMessage(new PorticoError('invalid_credentials', 'whatever'))).toBe('Invalid or expired verification code')
    expect(codeErrorMessage(new PorticoError('cannot_link_more_of_type', 'User already has an account of type phone linked.'))).toBe(
      'User already has an account of type phone linked.',
    )
    expect(codeErrorMessage(new PorticoError('network_error', 'offline'))).toBe('Issue verifying code')
  })
})

describe('helpers', () => {
  it('toE164 (libphonenumber-js loads on first use) and the shared normaliseCode', async () => {
    await expect(toE164('415 555 0100')).resolves.toBe('+14155550100')
    await expect(toE164('415 555 0100', 'GB')).rejects.toThrow(SMS_TEXTS.invalidPhone)
    expect(normaliseCode(' 12 34 56 ')).toBe('123456')
    expect(() => normaliseCode('12345')).toThrow()
  })

  it('adds the SMS landing entry only when sms is enabled, with an inline input and a screen', async () => {
    const { kernel } = await setup()
    const [entry] = kernel.hooks.loginMethods.call([], { config: kernel.config, recent: null })
    expect(entry).toMatchObject({ id: 'sms', label: 'SMS', group: 'web2', screen: 'sms-phone' })
    expect(SMS_SCREENS).toEqual({ phone: 'sms-phone', code: 'sms-code' })
    expect(kernel.screens.has('sms-phone')).toBe(true)
    expect(typeof entry.input).toBe('function')
    expect(kernel.screens.has('sms-code')).toBe(true)
    const off = await createTestKernel({ plugins: [sms()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
  })
})

describe('sms method descriptor', () => {
  it("declares 'sms': phone accounts, user.phone, 'SMS', 'Phone number'", async () => {
    const { kernel } = await setup()
    const d = kernel.methods.get('sms')!
    expect(d).toMatchObject({ id: 'sms', displayName: 'SMS', accountTypes: ['phone'], userField: 'phone', transferLabel: 'Phone number' })
    expect(kernel.methods.forAccountType('phone')?.id).toBe('sms')
    expect(kernel.methods.forLinkMethod('sms')?.id).toBe('sms')
    expect(d.normalise!({ type: 'phone', number: '+14155550100', verified_at: 10, first_verified_at: 10, latest_verified_at: 20 })).toEqual({
      type: 'phone',
      number: '+14155550100',
      verifiedAt: new Date(10_000),
      firstVerifiedAt: new Date(10_000),
      latestVerifiedAt: new Date(20_000),
    })
    // The older wire field name still reads.
    expect(d.normalise!({ type: 'phone', phone_number: '+14155550111' } as never)).toMatchObject({ number: '+14155550111' })
  })

  it('fills user.phone from a wire user (kernel.session.setUser)', async () => {
    const { kernel } = await setup()
    const user = kernel.session.setUser(wireUser({ accounts: [emailAccount('a@example.com'), phoneAccount('+14155550100')] }))
    expect(user.phone).toMatchObject({ type: 'phone', number: '+14155550100' })
    expect(user.phone?.verifiedAt).toBeInstanceOf(Date)
  })

  it('transfer → POST /passwordless_sms/transfer {nonce, phoneNumber}; unlink → {phoneNumber}', async () => {
    const me = wireUser({ accounts: [phoneAccount('+14155550100')] })
    const { kernel, net } = await setup(me)
    net.on('POST', '/passwordless_sms/transfer', { user: me })
    net.on('POST', '/passwordless_sms/unlink', { user: me })
    const d = kernel.methods.get('sms')!
    await d.transfer!(kernel.api, { nonce: 'n-2', account: '+14155550100', account_type: 'phone', display_name: '', link_method: 'sms' })
    expect(net.callsTo('POST', '/passwordless_sms/transfer')[0].body).toEqual({ nonce: 'n-2', phoneNumber: '+14155550100' })
    await d.unlink!(kernel.api, kernel.session.user!.phone!)
    expect(net.callsTo('POST', '/passwordless_sms/unlink')[0].body).toEqual({ phoneNumber: '+14155550100' })
  })

  it('keeps its state in the kernel store and tears it down', async () => {
    const { kernel, flow } = await setup()
    await flow.sendCode({ phoneNumber: '+14155550100' })
    expect(kernel.pluginState('sms')?.get()).toMatchObject({ status: 'awaiting-code-input', destination: '+14155550100' })
    kernel.destroy()
    expect(kernel.hasPlugin('sms')).toBe(false)
    expect(kernel.methods.get('sms')).toBeUndefined()
  })
})

describe("the entry's inline code state", () => {
  it("is the code kit's initial state (the kit stays out of the first load)", async () => {
    const t = await createTestKernel({ plugins: [sms()] })
    expect(t.kernel.plugin('sms').getState()).toEqual(INITIAL_CODE_STATE)
  })
})
