// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { PorticoProvider, usePortico, useLinkAccount } from 'portico/ui'
import { authResponse, createTestKernel, emailAccount, wireUser, type TestKernel } from 'portico/testing'
import { pluginContract } from 'portico/testing'
import { email, useLoginWithEmail } from 'portico/plugins/email'
import { checkEmail } from './check'
import { codeErrorMessage } from './errors'
import { PorticoError } from 'portico'
import { INITIAL_CODE_STATE } from 'portico/kits/code'

pluginContract(() => email(), { loginMethods: ['email'] })

afterEach(() => cleanup())
const instant = { sleep: async () => {} }

describe('validation', () => {
  it('accepts standard addresses and applies the plus rule only when configured', () => {
    expect(checkEmail('ana@example.com', false)).toEqual({ valid: true, error: null })
    expect(checkEmail('ana@example', false).valid).toBe(false)
    expect(checkEmail('ana example.com', false).valid).toBe(false)
    expect(checkEmail('ana+x@example.com', false).valid).toBe(true)
    expect(checkEmail('ana+x@example.com', true)).toEqual({ valid: false, error: "Please enter a valid email address without a '+'." })
  })
  it('maps code errors word for word', () => {
    expect(codeErrorMessage(new PorticoError('invalid_credentials', 'x'))).toBe('Invalid or expired verification code')
    expect(codeErrorMessage(new PorticoError('cannot_link_more_of_type', 'Server says no'))).toBe('Server says no')
    expect(codeErrorMessage(new Error('boom'))).toBe('Issue verifying code')
  })
})

function App() {
  const { login, authenticated } = usePortico()
  const { link } = useLinkAccount()
  return (
    <>
      <p>{authenticated ? 'in' : 'out'}</p>
      <button onClick={() => void login()}>open</button>
      <button onClick={() => void link('email')}>link</button>
    </>
  )
}

async function open(t: TestKernel) {
  render(
    <PorticoProvider kernel={t.kernel} ui={instant}>
      <App />
    </PorticoProvider>,
  )
  await waitFor(() => expect(t.kernel.isReady).toBe(true))
  fireEvent.click(screen.getByText('open'))
  return (await screen.findByPlaceholderText('your@email.com')) as HTMLInputElement
}

const typeCode = (code: string) => {
  const boxes = screen.getAllByLabelText(/Digit \d of 6/) as HTMLInputElement[]
  fireEvent.paste(boxes[0], { clipboardData: { getData: () => code } })
}

describe('modal flow', () => {
  it('sends the code, submits at 6 digits with mode login-or-sign-up and logs in', async () => {
    const t = await createTestKernel({ plugins: [email()] })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', authResponse(wireUser({ accounts: [emailAccount('ana@example.com')] })))
    const input = await open(t)
    const submit = screen.getByText('Submit').closest('button')!
    expect(submit.disabled).toBe(true)
    fireEvent.change(input, { target: { value: 'ana@example.com' } })
    expect(submit.disabled).toBe(false)
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    expect(t.net.callsTo('POST', '/passwordless/init')[0].body).toEqual({ email: 'ana@example.com' })
    expect(screen.getByText('Code sent')).toBeTruthy()
    typeCode('123456')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless/authenticate')[0].body).toEqual({ email: 'ana@example.com', code: '123456', mode: 'login-or-sign-up' })
    expect(screen.getByText('in')).toBeTruthy()
    expect(t.kernel.recentLogin()?.method).toBe('email')
  })

  it("shows the plus-address rule inline when disablePlusEmails, and uses 'no-signup' with disableSignup", async () => {
    const t = await createTestKernel({ plugins: [email({ disableSignup: true })], app: { disable_plus_emails: true } })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', authResponse())
    const input = await open(t)
    fireEvent.change(input, { target: { value: 'ana+1@example.com' } })
    expect(screen.getByRole('alert').textContent).toBe("Please enter a valid email address without a '+'.")
    fireEvent.change(input, { target: { value: 'ana@example.com' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    typeCode('654321')
    await waitFor(() => expect(t.net.callsTo('POST', '/passwordless/authenticate')).toHaveLength(1))
    expect(t.net.callsTo('POST', '/passwordless/authenticate')[0].body.mode).toBe('no-signup')
  })

  it('a wrong code shows the inline message and resets the boxes after 1.4 s', async () => {
    const t = await createTestKernel({ plugins: [email()] })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', { status: 401, body: { code: 'invalid_credentials', error: 'Invalid code' } })
    const input = await open(t)
    fireEvent.change(input, { target: { value: 'ana@example.com' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      typeCode('111111')
      await screen.findByText('Invalid or expired verification code')
      const boxes = () => (screen.getAllByLabelText(/Digit \d of 6/) as HTMLInputElement[]).map((b) => b.value).join('')
      expect(boxes()).toBe('111111')
      await act(async () => void vi.advanceTimersByTime(1500))
      await waitFor(() => expect(boxes()).toBe(''))
    } finally {
      vi.useRealTimers()
    }
  })

  it("offers 'Resend code' only after the 30 s cooldown, and resends", async () => {
    const t = await createTestKernel({ plugins: [email()] })
    t.net.on('POST', '/passwordless/init', { success: true })
    const input = await open(t)
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      fireEvent.change(input, { target: { value: 'ana@example.com' } })
      // The code is sent between t0 and t1. The fake clock also moves with real time while the
      // screen loads (shouldAdvanceTime), so it stops at t1 and the checks count from t0 / t1:
      // 29 s after t0 is at most 29 s after the send, 31 s after t1 at least 31 s after it.
      const t0 = Date.now()
      fireEvent.submit(input.closest('form')!)
      await screen.findByText('Enter confirmation code')
      vi.setTimerTickMode('manual')
      const t1 = Date.now()
      expect(screen.getByText('Code sent')).toBeTruthy()
      expect(screen.queryByText('Resend code')).toBeNull()
      await act(async () => void vi.advanceTimersByTime(t0 + 29_000 - t1))
      expect(screen.queryByText('Resend code')).toBeNull()
      await act(async () => void vi.advanceTimersByTime(t1 - t0 + 2_000))
      expect(screen.getByText('Resend code')).toBeTruthy()
      vi.setTimerTickMode('interval')
      fireEvent.click(await screen.findByText('Resend code'))
      await screen.findByText('Code sent')
      expect(t.net.callsTo('POST', '/passwordless/init')).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('an allowlist rejection goes to the allowlist screen', async () => {
    const t = await createTestKernel({ plugins: [email()] })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', { status: 403, body: { code: 'allowlist_rejected', error: 'Not on the list' } })
    const input = await open(t)
    fireEvent.change(input, { target: { value: 'ana@example.com' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    typeCode('111111')
    await screen.findByText("You don't have access to this app")
  })

  it('links an e-mail with {email, code} when the intent is link', async () => {
    const me = wireUser()
    const t = await createTestKernel({ plugins: [email()], user: me })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/link', { user: { ...me, linked_accounts: [emailAccount('bo@example.com')] } })
    render(
      <PorticoProvider kernel={t.kernel} ui={instant}>
        <App />
      </PorticoProvider>,
    )
    await waitFor(() => expect(t.kernel.session.authenticated).toBe(true))
    fireEvent.click(screen.getByText('link'))
    const input = (await screen.findByPlaceholderText('your@email.com')) as HTMLInputElement
    expect(screen.getByText('Link your email')).toBeTruthy()
    fireEvent.change(input, { target: { value: 'bo@example.com' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    typeCode('222222')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless/link')[0].body).toEqual({ email: 'bo@example.com', code: '222222' })
    expect(t.kernel.session.user?.email?.address).toBe('bo@example.com')
  })
})

describe('useLoginWithEmail (headless)', () => {
  it('goes initial → awaiting-code-input → done and trims the code', async () => {
    const t = await createTestKernel({ plugins: [email()] })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', authResponse())
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PorticoProvider kernel={t.kernel} ui={instant}>
        {children}
      </PorticoProvider>
    )
    const onComplete = vi.fn()
    const { result } = renderHook(() => useLoginWithEmail({ onComplete }), { wrapper })
    expect(result.current.state.status).toBe('initial')
    await act(() => result.current.sendCode({ email: ' ana@example.com ' }))
    expect(result.current.state.status).toBe('awaiting-code-input')
    await act(() => result.current.loginWithCode({ code: ' 123 456 ' }))
    expect(result.current.state.status).toBe('done')
    expect(t.net.callsTo('POST', '/passwordless/authenticate')[0].body).toEqual({ email: 'ana@example.com', code: '123456', mode: 'login-or-sign-up' })
    expect(onComplete).toHaveBeenCalledWith(expect.objectContaining({ method: 'email' }))
  })

  it('reports invalid_credentials with the spec text', async () => {
    const t = await createTestKernel({ plugins: [email()] })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', { status: 401, body: { code: 'invalid_credentials', error: 'bad' } })
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PorticoProvider kernel={t.kernel} ui={instant}>
        {children}
      </PorticoProvider>
    )
    const { result } = renderHook(() => useLoginWithEmail(), { wrapper })
    await act(() => result.current.sendCode({ email: 'ana@example.com' }))
    await act(() => result.current.loginWithCode({ code: '000000' }).catch(() => {}))
    expect(result.current.state.status).toBe('error')
    expect(result.current.state.error?.message).toBe('Invalid or expired verification code')
  })
})

describe('headless refusal and the plugin API', () => {
  it('useLoginWithEmail refuses with already_logged_in while a non-guest is logged in', async () => {
    const t = await createTestKernel({ plugins: [email()], user: wireUser({ accounts: [emailAccount('me@example.com')] }) })
    t.net.on('POST', '/passwordless/init', { success: true })
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PorticoProvider kernel={t.kernel} ui={instant}>
        {children}
      </PorticoProvider>
    )
    const onError = vi.fn()
    const { result } = renderHook(() => useLoginWithEmail({ onError }), { wrapper })
    await act(() => expect(result.current.sendCode({ email: 'ana@example.com' })).rejects.toMatchObject({ code: 'already_logged_in' }))
    await act(() => expect(result.current.loginWithCode({ code: '123456', email: 'ana@example.com' })).rejects.toMatchObject({ code: 'already_logged_in' }))
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'already_logged_in' }))
    expect(result.current.state).toMatchObject({ status: 'error', error: { code: 'already_logged_in' } })
    expect(t.net.callsTo('POST', '/passwordless/init')).toHaveLength(0)
    expect(t.warnings.join('\n')).toMatch(/already logged in/)
  })

  it("kernel.plugin('email') keeps its state in the kernel store; a guest may log in", async () => {
    const guest = wireUser({ is_guest: true })
    const t = await createTestKernel({ plugins: [email()], user: guest })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', authResponse({ ...guest, is_guest: false, linked_accounts: [emailAccount('ana@example.com')] }))
    const api = t.kernel.plugin('email')
    await api.sendCode({ email: 'ana@example.com' })
    expect(t.kernel.pluginState('email')?.get()).toMatchObject({ status: 'awaiting-code-input', destination: 'ana@example.com', intent: 'login' })
    await api.loginWithCode({ code: '123456' })
    expect(api.getState().status).toBe('done')
    expect(t.kernel.session.user?.email?.address).toBe('ana@example.com')
  })
})

describe('method descriptor', () => {
  it("declares 'email': email accounts, user.email, 'e-mail', 'Email address'", async () => {
    const t = await createTestKernel({ plugins: [email()] })
    const d = t.kernel.methods.get('email')!
    expect(d).toMatchObject({ id: 'email', displayName: 'e-mail', accountTypes: ['email'], userField: 'email', transferLabel: 'Email address' })
    expect(t.kernel.methods.forAccountType('email')?.id).toBe('email')
    expect(d.normalise!({ type: 'email', address: 'ana@example.com', verified_at: 5, first_verified_at: null, latest_verified_at: 6 } as never)).toEqual({
      type: 'email',
      address: 'ana@example.com',
      verifiedAt: new Date(5000),
      firstVerifiedAt: null,
      latestVerifiedAt: new Date(6000),
    })
    const user = t.kernel.session.setUser(wireUser({ accounts: [emailAccount('ana@example.com')] }))
    expect(user.email).toMatchObject({ type: 'email', address: 'ana@example.com' })
  })

  it('transfer → POST /passwordless/transfer {nonce, email}; unlink → {address}', async () => {
    const me = wireUser({ accounts: [emailAccount('ana@example.com')] })
    const t = await createTestKernel({ plugins: [email()], user: me })
    t.net.on('POST', '/passwordless/transfer', { user: me })
    t.net.on('POST', '/passwordless/unlink', { user: me })
    const d = t.kernel.methods.get('email')!
    await d.transfer!(t.kernel.api, { nonce: 'n-1', account: 'ana@example.com', account_type: 'email', display_name: '', link_method: 'email' })
    expect(t.net.callsTo('POST', '/passwordless/transfer')[0].body).toEqual({ nonce: 'n-1', email: 'ana@example.com' })
    await d.unlink!(t.kernel.api, t.kernel.session.user!.email!)
    expect(t.net.callsTo('POST', '/passwordless/unlink')[0].body).toEqual({ address: 'ana@example.com' })
  })
})

describe('texts', () => {
  it("the API's texts() and codeErrorMessage() answer in the app's texts; a later texts change shows on an open screen", async () => {
    const t = await createTestKernel({ plugins: [email()], config: { texts: { email: { invalidCode: 'Falscher Code' } } } })
    const api = t.kernel.plugin('email')
    expect(api.texts().invalidCode).toBe('Falscher Code')
    expect(api.texts().resendCode).toBe('Resend code')
    expect(api.codeErrorMessage(new PorticoError('invalid_credentials', 'x'))).toBe('Falscher Code')
    expect(api.codeErrorMessage(new PorticoError('cannot_link_more_of_type', 'Server says no'))).toBe('Server says no')
    expect(api.codeErrorMessage(new Error('boom'))).toBe('Issue verifying code')
    await open(t)
    act(() => t.kernel.setConfig({ texts: { email: { placeholder: 'du@beispiel.de' } } }))
    expect(await screen.findByPlaceholderText('du@beispiel.de')).toBeTruthy()
  })

  it("an app's texts.email override shows on the screens", async () => {
    const t = await createTestKernel({
      plugins: [email()],
      config: { texts: { email: { placeholder: 'du@beispiel.de', submit: 'Weiter', codeTitle: 'Code eingeben', invalidCode: 'Falscher Code' } } },
    })
    t.net.on('POST', '/passwordless/init', { success: true })
    t.net.on('POST', '/passwordless/authenticate', { status: 401, body: { code: 'invalid_credentials', error: 'bad' } })
    render(
      <PorticoProvider kernel={t.kernel} ui={instant}>
        <App />
      </PorticoProvider>,
    )
    await waitFor(() => expect(t.kernel.isReady).toBe(true))
    fireEvent.click(screen.getByText('open'))
    const input = (await screen.findByPlaceholderText('du@beispiel.de')) as HTMLInputElement
    expect(screen.getByText('Weiter')).toBeTruthy()
    fireEvent.change(input, { target: { value: 'ana@example.com' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Code eingeben')
    typeCode('111111')
    await screen.findByText('Falscher Code')
  })
})

describe("the entry's inline code state", () => {
  it("is the code kit's initial state (the kit stays out of the first load)", async () => {
    const t = await createTestKernel({ plugins: [email()] })
    expect(t.kernel.plugin('email').getState()).toEqual(INITIAL_CODE_STATE)
  })
})
