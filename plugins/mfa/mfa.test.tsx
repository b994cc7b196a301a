// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { WireLinkedAccount, WireUser } from 'portico'
import { PorticoProvider } from 'portico/ui'
import { createTestKernel, emailAccount, pluginContract, renderScreen, wireUser } from 'portico/testing'
import { validateMfaCode } from 'portico/kits/mfa'
import { mfa } from './index'
import { MFA_CODE_WAIT_MS, MFA_FRESH_MS, MFA_MAX_ATTEMPTS, type MfaSettings } from './state'
import { MFA_TEXTS } from './strings'
import { mfaTotp } from 'portico/plugins/mfa-totp'
import { mfaSms } from 'portico/plugins/mfa-sms'
import { mfaPasskey } from 'portico/plugins/mfa-passkey'

afterEach(cleanup)

pluginContract(() => mfa())

const T = MFA_TEXTS
const INVALID = { status: 403, body: { code: 'missing_or_invalid_mfa', error: 'Invalid MFA code' } }

const withMfa = (types: ('totp' | 'sms' | 'passkey')[], accounts: WireLinkedAccount[] = [emailAccount('a@example.com')]): WireUser =>
  wireUser({ accounts, mfa_methods: types.map((type) => ({ type, verified_at: 1 })) })


async function setup(o: { user?: WireUser; settings?: MfaSettings; methods?: boolean } = {}) {
  const timers: (() => void)[] = []
  const t = await createTestKernel({
    user: o.user ?? withMfa(['totp']),
    plugins: [
      mfa({ ...o.settings, ...({ setTimer: (fn: () => void) => (timers.push(fn), timers.length), clearTimer: () => {} } as object) }),
      ...(o.methods === false ? [] : [mfaTotp(), mfaSms(), mfaPasskey({ relyingParty: 'localhost' })]),
    ],
  })
  const api = t.kernel.plugin('mfa')
  return { ...t, api, timers }
}

const tick = () => new Promise((r) => setTimeout(r, 0))
const action = (kernel: Awaited<ReturnType<typeof setup>>['kernel']) =>
  kernel.hooks.sensitiveAction.promise({ action: 'sign_transaction', user: kernel.session.user })
/** Ask for a sensitive action and let the hook reach the MFA tap. */
async function asked(kernel: Awaited<ReturnType<typeof setup>>['kernel']) {
  const p = action(kernel)
  p.catch(() => {})
  // The verification engine loads on first use: wait until the verification is pending.
  await vi.waitFor(() => expect(kernel.plugin('mfa').state.get().pending).toBe(true))
  return { p }
}

describe('code rules (part 2 section 5)', () => {
  it("the MFA kit's code-rule texts (a method's entry checks codes without the texts chunk) are MFA_TEXTS' own", () => {
    expect(() => validateMfaCode('12a456')).toThrow(MFA_TEXTS.codeNumeric)
    expect(() => validateMfaCode('12345')).toThrow(MFA_TEXTS.codeLength)
  })
})

describe('verification (headless listener)', () => {
  it('nothing to verify without methods: the action goes on at once', async () => {
    const { kernel, net } = await setup({ user: wireUser() })
    await action(kernel)
    expect(net.calls.filter((c) => c.url.includes('/mfa/'))).toEqual([])
  })

  it('asks the listener, submits the code, resolves the action', async () => {
    const { kernel, api, net } = await setup()
    net.on('POST', '/mfa/totp/verify', { success: true })
    const seen: string[][] = []
    api.registerListener({ onMfaRequired: (m) => seen.push(m) })
    const { p } = await asked(kernel)
    expect(seen).toEqual([['totp']])
    await api.submit('totp', ' 123 456 ')
    await p
    expect(net.callsTo('POST', '/mfa/totp/verify')[0].body).toEqual({ code: '123456' })
    expect(api.state.get()).toMatchObject({ status: 'success', pending: false, blocking: null })
  })

  it('a code-rule error is not an attempt and calls nothing', async () => {
    const { kernel, api, net } = await setup()
    api.registerListener({ onMfaRequired: () => {} })
    await asked(kernel)
    await expect(api.submit('totp', '12ab56')).rejects.toThrow(T.codeNumeric)
    expect(api.state.get()).toMatchObject({ error: T.codeNumeric, attempts: 0 })
    expect(net.callsTo('POST', '/mfa/totp/verify')).toHaveLength(0)
  })

  it(`${MFA_MAX_ATTEMPTS} invalid codes: 'Max MFA verification attempts reached', input blocked`, async () => {
    const { kernel, api, net } = await setup()
    net.on('POST', '/mfa/totp/verify', INVALID)
    api.registerListener({ onMfaRequired: () => {} })
    const caught = (await asked(kernel)).p.catch((e) => e)
    for (let i = 1; i < MFA_MAX_ATTEMPTS; i++) {
      await expect(api.submit('totp', '000000')).rejects.toMatchObject({ code: 'missing_or_invalid_mfa' })
      expect(api.state.get()).toMatchObject({ attempts: i, error: T.invalidCodeInline, blocking: null })
    }
    await expect(api.submit('totp', '000000')).rejects.toBeTruthy()
    expect(await caught).toMatchObject({ code: 'mfa_verification_max_attempts_reached', message: 'Max MFA verification attempts reached' })
    expect(api.state.get()).toMatchObject({ blocking: 'max_attempts', error: T.maxAttemptsBlocking })
    await expect(api.submit('totp', '123456')).rejects.toMatchObject({ code: 'mfa_verification_max_attempts_reached' })
    expect(net.callsTo('POST', '/mfa/totp/verify')).toHaveLength(MFA_MAX_ATTEMPTS)
  })

  it("the server's max-attempts answer blocks at once", async () => {
    const { kernel, api, net } = await setup()
    net.on('POST', '/mfa/totp/verify', { status: 429, body: { code: 'mfa_verification_max_attempts_reached', error: 'Max MFA verification attempts reached' } })
    api.registerListener({ onMfaRequired: () => {} })
    const caught = (await asked(kernel)).p.catch((e) => e)
    await expect(api.submit('totp', '123456')).rejects.toBeTruthy()
    expect((await caught).code).toBe('mfa_verification_max_attempts_reached')
    expect(api.state.get().blocking).toBe('max_attempts')
  })

  it(`times out after ${MFA_CODE_WAIT_MS} ms: 'Timed out waiting for MFA code' and the time-limit text`, async () => {
    const { kernel, api, timers } = await setup()
    api.registerListener({ onMfaRequired: () => {} })
    const caught = (await asked(kernel)).p.catch((e) => e)
    expect(timers).toHaveLength(1)
    timers[0]()
    expect(await caught).toMatchObject({ code: 'mfa_timeout', message: 'Timed out waiting for MFA code' })
    expect(api.state.get()).toMatchObject({ blocking: 'timeout', error: T.timeLimitBlocking })
  })

  it("cancel rejects with 'MFA canceled'", async () => {
    const { kernel, api } = await setup()
    api.registerListener({ onMfaRequired: () => {} })
    const caught = (await asked(kernel)).p.catch((e) => e)
    api.cancel()
    expect(await caught).toMatchObject({ code: 'mfa_canceled', message: 'MFA canceled' })
  })

  it('actions asked together share one verification', async () => {
    const { kernel, api, net } = await setup()
    net.on('POST', '/mfa/totp/verify', { success: true })
    let count = 0
    api.registerListener({ onMfaRequired: () => count++ })
    const { p: a } = await asked(kernel)
    const { p: b } = await asked(kernel)
    await api.submit('totp', '123456')
    await Promise.all([a, b])
    expect(count).toBe(1)
  })

  it('a verification covers the wallet actions that follow within MFA_FRESH_MS; export always asks; so does an action the server refused (issue 25)', async () => {
    let clock = 1_000_000
    const { kernel, api, net } = await setup({ settings: { now: () => clock } })
    net.on('POST', '/mfa/totp/verify', { success: true })
    let asks = 0
    api.registerListener({ onMfaRequired: () => asks++ })
    const { p } = await asked(kernel)
    await api.submit('totp', '123456')
    await p
    expect(asks).toBe(1)
    // The next signature and a send right after: no new code (the loop of issue 25).
    await action(kernel)
    await kernel.hooks.sensitiveAction.promise({ action: 'send_transaction', user: kernel.session.user })
    clock += MFA_FRESH_MS - 1
    await action(kernel)
    expect(asks).toBe(1)
    // Export always asks; so does an action the frame was refused for (details.mfaRequired).
    const exp = kernel.hooks.sensitiveAction.promise({ action: 'export_wallet', user: kernel.session.user })
    await vi.waitFor(() => expect(api.state.get().pending).toBe(true))
    await api.submit('totp', '123456')
    await exp
    expect(asks).toBe(2)
    const refused = kernel.hooks.sensitiveAction.promise({ action: 'sign_message', user: kernel.session.user, details: { mfaRequired: true } })
    await vi.waitFor(() => expect(api.state.get().pending).toBe(true))
    await api.submit('totp', '123456')
    await refused
    expect(asks).toBe(3)
    // Past the window: asked again.
    clock += MFA_FRESH_MS
    const later = action(kernel)
    await vi.waitFor(() => expect(api.state.get().pending).toBe(true))
    await api.submit('totp', '123456')
    await later
    expect(asks).toBe(4)
  })

  it("an enrolment does not cover wallet actions: the first one asks for a code (then none within the window)", async () => {
    const { kernel, api } = await setup()
    api.enrolled('totp', { user: withMfa(['totp']) })
    expect(api.state.get().lastVerifiedAt).not.toBeNull()
    api.registerListener({ onMfaRequired: () => {} })
    const { p } = await asked(kernel)
    api.cancel()
    await expect(p).rejects.toMatchObject({ code: 'mfa_canceled' })
  })

  it("a right code of a step already used: 'This code has already been used. Wait for a new code.' (counts as an attempt)", async () => {
    const { kernel, api, net } = await setup()
    net.on('POST', '/mfa/totp/verify', {
      status: 403,
      body: { code: 'missing_or_invalid_mfa', error: 'This code has already been used. Wait for a new code.', data: { reason: 'code_already_used' } },
    })
    api.registerListener({ onMfaRequired: () => {} })
    const { p } = await asked(kernel)
    p.catch(() => {})
    await expect(api.submit('totp', '123456')).rejects.toMatchObject({ code: 'missing_or_invalid_mfa' })
    expect(api.state.get()).toMatchObject({ attempts: 1, status: 'awaiting-code', error: T.codeAlreadyUsed })
    expect(T.codeAlreadyUsed).toBe('This code has already been used. Wait for a new code.')
    api.cancel()
  })

  it('SMS: init sends the code to the enrolled number', async () => {
    const { kernel, api, net } = await setup({ user: withMfa(['sms']) })
    net.on('POST', '/mfa/passwordless_sms/init', { success: true })
    net.on('POST', '/mfa/passwordless_sms/verify', { success: true })
    api.registerListener({ onMfaRequired: () => {} })
    const { p } = await asked(kernel)
    await api.init('sms')
    expect(net.callsTo('POST', '/mfa/passwordless_sms/init')[0].body).toEqual({ action: 'verify' })
    await api.submit('sms', '654321')
    await p
  })

  it('SMS: one init at a time; inside the resend cooldown the last code is awaited', async () => {
    const { kernel, api, net } = await setup({ user: withMfa(['sms']) })
    net.on('POST', '/mfa/passwordless_sms/init', { success: true })
    api.registerListener({ onMfaRequired: () => {} })
    await asked(kernel)
    await Promise.all([api.init('sms'), api.init('sms')])
    expect(net.callsTo('POST', '/mfa/passwordless_sms/init')).toHaveLength(1)
    net.on('POST', '/mfa/passwordless_sms/init', { status: 429, body: { code: 'too_many_requests', error: 'A code was sent recently.' } })
    await api.init('sms')
    expect(api.state.get()).toMatchObject({ status: 'awaiting-code', error: null })
  })

  it('passkey: initialised and submitted by itself', async () => {
    const got: unknown[] = []
    const { kernel, api, net } = await setup({
      user: withMfa(['passkey']),
      settings: { loadWebAuthn: async () => ({ startAuthentication: async (o: unknown) => (got.push(o), { id: 'cred-1' }) }) },
    })
    net.on('POST', '/mfa/passkeys/init', { relying_party: 'localhost', options: { challenge: 'c1' } })
    net.on('POST', '/mfa/passkeys/verify', { success: true })
    api.registerListener({ onMfaRequired: () => {} })
    const { p } = await asked(kernel)
    await api.init('passkey')
    await p
    expect(got).toEqual([{ optionsJSON: { challenge: 'c1' } }])
    expect(net.callsTo('POST', '/mfa/passkeys/verify')[0].body).toEqual({ relying_party: 'localhost', challenge: 'c1', authenticator_response: { id: 'cred-1' } })
  })

  it('method changes: no verification without methods, or right after one', async () => {
    const { api, net } = await setup({ user: wireUser() })
    await api.requireFresh()
    const b = await setup()
    b.net.on('POST', '/mfa/totp/verify', { success: true })
    b.api.registerListener({ onMfaRequired: () => {} })
    const first = b.api.requireFresh()
    await vi.waitFor(() => expect(b.api.state.get().pending).toBe(true))
    await b.api.submit('totp', '123456')
    await first
    await b.api.requireFresh() // verified just now: nothing asked
    expect(b.net.callsTo('POST', '/mfa/totp/verify')).toHaveLength(1)
    expect(net.calls.filter((c) => c.url.includes('/mfa/'))).toEqual([])
  })

  it("enrolment fires the app's success callback", async () => {
    const seen: string[] = []
    const { api, kernel } = await setup({ settings: { onEnrollmentSuccess: ({ method }) => seen.push(method) } })
    const user = api.enrolled('sms', { user: withMfa(['totp', 'sms']) })
    expect(seen).toEqual(['sms'])
    expect(user.mfaMethods.map((m) => m.type)).toEqual(['totp', 'sms'])
    expect(kernel.session.user?.mfaMethods).toHaveLength(2)
  })
})

describe("'Verify your identity' screen", () => {
  const boxes = () => screen.getAllByLabelText(/^Digit \d of 6$/) as HTMLInputElement[]

  async function open(user = withMfa(['totp'])) {
    const t = await setup({ user })
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }} />)
    let p!: Promise<void>
    act(() => {
      p = action(t.kernel)
    })
    const caught = p.then(
      () => 'ok',
      (e) => e,
    )
    await screen.findByText(T.verifyTitle)
    return { ...t, caught }
  }

  it('preselects the first method; a wrong code shows the invalid text; the right one closes and resolves', async () => {
    const { net, caught, kernel } = await open()
    net.on('POST', '/mfa/totp/verify', INVALID)
    await waitFor(() => expect(boxes()).toHaveLength(6))
    expect(screen.getByText(T.codeHelpTotp)).toBeTruthy()
    expect(screen.getByRole('button', { name: T.notNow })).toBeTruthy()
    expect(screen.queryByRole('button', { name: T.chooseAnother })).toBeNull()
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => '111111' } })
    await screen.findByText(T.invalidCodeInline)
    net.on('POST', '/mfa/totp/verify', { success: true })
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => '222222' } })
    expect(await caught).toBe('ok')
    await waitFor(() => expect(kernel.screens.getState().open).toBe(false))
  })

  it("paste rules: 'Passcode can only be numbers', 'Passcode must be exactly 6 numbers', fills from the position, Backspace moves back", async () => {
    await open()
    await waitFor(() => expect(boxes()).toHaveLength(6))
    // The boxes (portico/kits/mfa) carry MFA_TEXTS' label.
    expect(screen.getAllByLabelText(new RegExp(T.codeLabel)).length).toBeGreaterThan(0)
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => '12ab' } })
    await screen.findByText(T.codeNumeric)
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => '1234567' } })
    await screen.findByText(T.codeLength)
    fireEvent.paste(boxes()[2], { clipboardData: { getData: () => ' 3 4 ' } })
    await waitFor(() => expect(boxes().map((b) => b.value)).toEqual(['', '', '3', '4', '', '']))
    fireEvent.keyDown(boxes()[3], { key: 'Backspace' })
    await waitFor(() => expect(boxes()[3].value).toBe(''))
    expect(document.activeElement).toBe(boxes()[2])
  })

  it("asked while another flow shows (a login's): when that flow closes, the verification is canceled, never left pending", async () => {
    const t = await setup()
    render(<PorticoProvider kernel={t.kernel} ui={{ sleep: async () => {} }} />)
    // Another flow is open (the login's modal, about to close by itself).
    let login!: Promise<unknown>
    act(() => {
      login = t.kernel.screens.open('mfa-intro', {}, { intent: 'login' })
    })
    let p!: Promise<void>
    act(() => {
      p = action(t.kernel)
    })
    const caught = p.then(
      () => 'ok',
      (e) => e,
    )
    // The prompt is pushed into that flow...
    await screen.findByText(T.verifyTitle)
    // ... which then closes (its owner's close): nobody can answer the prompt any more.
    act(() => t.kernel.screens.close({ done: true }))
    await login
    expect(await caught).toMatchObject({ code: 'mfa_canceled' })
    expect(t.api.state.get().pending).toBe(false)
  })

  it("'Not now' cancels: the action is rejected with 'MFA canceled'", async () => {
    const { caught, kernel } = await open()
    fireEvent.click(await screen.findByRole('button', { name: T.notNow }))
    expect(await caught).toMatchObject({ code: 'mfa_canceled' })
    await waitFor(() => expect(kernel.screens.getState().open).toBe(false))
  })

  it("four wrong codes: the blocking text and disabled boxes", async () => {
    const { net, caught } = await open()
    net.on('POST', '/mfa/totp/verify', INVALID)
    await waitFor(() => expect(boxes()).toHaveLength(6))
    for (let i = 0; i < MFA_MAX_ATTEMPTS; i++) {
      await waitFor(() => expect(boxes()[0].disabled).toBe(false))
      fireEvent.paste(boxes()[0], { clipboardData: { getData: () => '000000' } })
      await waitFor(() => expect(net.callsTo('POST', '/mfa/totp/verify')).toHaveLength(i + 1))
    }
    await screen.findByText(T.maxAttemptsBlocking)
    expect(boxes().every((b) => b.disabled)).toBe(true)
    expect((await caught).code).toBe('mfa_verification_max_attempts_reached')
  })

  it("'Choose another method' only with more than one method; SMS initialised on open", async () => {
    const { net } = await open(withMfa(['sms', 'totp']))
    await waitFor(() => expect(net.callsTo('POST', '/mfa/passwordless_sms/init')).toHaveLength(1))
    fireEvent.click(await screen.findByRole('button', { name: T.chooseAnother }))
    fireEvent.click(await screen.findByRole('button', { name: new RegExp(T.totpLabel) }))
    await screen.findByText(T.codeHelpTotp)
  })
})

describe("'Choose a verification method'", () => {
  it("Authenticator app 'Recommended', enabled methods 'Enabled' with a remove control, SMS 'Disabled' for an SMS-login user", async () => {
    const phone = { type: 'phone', number: '+14155550100', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 } as unknown as WireLinkedAccount
    const { kernel } = await setup({ user: withMfa(['passkey'], [phone]) })
    await renderScreen(kernel, 'mfa-methods')
    await screen.findByText(T.chooseTitle, { selector: 'h2, h1, [id]' }).catch(() => {})
    await waitFor(() => expect(document.querySelector('[data-mfa-method="totp"]')).toBeTruthy())
    const totp = document.querySelector('[data-mfa-method="totp"]')!
    expect(totp.textContent).toContain(T.recommended)
    const sms = document.querySelector('[data-mfa-method="sms"]')!
    expect(sms.textContent).toContain(T.disabled)
    expect((sms.querySelector('button') as HTMLButtonElement).disabled).toBe(true)
    const pk = document.querySelector('[data-mfa-method="passkey"]')!
    expect(pk.textContent).toContain(T.enabled)
    expect(screen.getByRole('button', { name: 'Remove Passkey' })).toBeTruthy()
  })

  it('only the methods whose plugins are set up', async () => {
    const { kernel } = await setup({ user: wireUser(), methods: false })
    await renderScreen(kernel, 'mfa-methods')
    await waitFor(() => expect(document.querySelector('[data-mfa-methods]')).toBeTruthy())
    expect(document.querySelectorAll('[data-mfa-method]')).toHaveLength(0)
  })
})
