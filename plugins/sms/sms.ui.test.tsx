// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { PorticoProvider, usePortico } from 'portico/ui'
import { authResponse, createTestKernel, emailAccount, wireUser, type TestKernel } from 'portico/testing'
import type { WireLinkedAccount } from 'portico'
import { sms, useLoginWithSms, usePhoneAccount } from './index'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})
const instant = { sleep: async () => {} }
const phone = (number: string): WireLinkedAccount => ({ type: 'phone', number, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 })

function App() {
  const { login, authenticated } = usePortico()
  const phoneAccount = usePhoneAccount()
  return (
    <>
      <p>{authenticated ? 'in' : 'out'}</p>
      <button onClick={() => void login()}>open</button>
      <button onClick={() => void phoneAccount.update()}>update phone</button>
    </>
  )
}

async function mount(t: TestKernel) {
  render(
    <PorticoProvider kernel={t.kernel} ui={instant}>
      <App />
    </PorticoProvider>,
  )
  await waitFor(() => expect(t.kernel.isReady).toBe(true))
}

async function openLanding(t: TestKernel) {
  await mount(t)
  fireEvent.click(screen.getByText('open'))
  return (await screen.findByRole('textbox', { name: 'Phone number' })) as HTMLInputElement
}

const typeCode = (code: string) => {
  const boxes = screen.getAllByLabelText(/Digit \d of 6/) as HTMLInputElement[]
  fireEvent.paste(boxes[0], { clipboardData: { getData: () => code } })
}

async function kernelWithSms(user?: ReturnType<typeof wireUser>) {
  const t = await createTestKernel({ plugins: [sms()], app: { login_methods: ['sms'], name: 'Acme' }, user, ready: false })
  t.net.on('POST', '/passwordless_sms/init', { success: true })
  return t
}

describe('landing phone input', () => {
  it('formats as typed, Submit disabled while invalid, consent names the app', async () => {
    const t = await kernelWithSms()
    const input = await openLanding(t)
    expect(screen.getByText('By providing your phone number, you agree to receive SMS messages from Acme.')).toBeTruthy()
    const submit = screen.getByText('Submit').closest('button')!
    expect(submit.disabled).toBe(true)
    fireEvent.change(input, { target: { value: '415555' } })
    expect(submit.disabled).toBe(true)
    fireEvent.change(input, { target: { value: '4155550100' } })
    expect(input.value).toBe('(415) 555-0100')
    expect(submit.disabled).toBe(false)
    // Default country US; changing it clears the number.
    const country = screen.getByLabelText('Country') as HTMLSelectElement
    expect(country.value).toBe('US')
    fireEvent.change(country, { target: { value: 'GB' } })
    expect(input.value).toBe('')
    expect(submit.disabled).toBe(true)
  })

  it('defaults the country to intl.defaultCountry', async () => {
    const t = await createTestKernel({ plugins: [sms()], app: { login_methods: ['sms'] }, config: { intl: { defaultCountry: 'GB' } }, ready: false })
    await openLanding(t)
    expect((screen.getByLabelText('Country') as HTMLSelectElement).value).toBe('GB')
  })
})

describe('code screen', () => {
  it('sends the code, shows Code sent, logs in at 6 digits and closes', async () => {
    const t = await kernelWithSms()
    t.net.on('POST', '/passwordless_sms/authenticate', authResponse(wireUser({ accounts: [phone('+14155550100')] })))
    const input = await openLanding(t)
    fireEvent.change(input, { target: { value: '4155550100' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    expect(t.net.callsTo('POST', '/passwordless_sms/init')[0].body).toEqual({ phoneNumber: '+14155550100' })
    expect(screen.getByText('Code sent')).toBeTruthy()
    expect(screen.queryByText('Resend code')).toBeNull()
    await screen.findByText('+1 415 555 0100')
    typeCode('123456')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless_sms/authenticate')[0].body).toEqual({
      phoneNumber: '+14155550100',
      code: '123456',
      mode: 'login-or-sign-up',
    })
    expect(screen.getByText('in')).toBeTruthy()
    expect(t.kernel.recentLogin()?.method).toBe('sms')
  })

  it("a wrong code shows 'Invalid or expired verification code' and the boxes reset after 1.4 s", async () => {
    const t = await kernelWithSms()
    t.net.on('POST', '/passwordless_sms/authenticate', { status: 401, body: { code: 'invalid_credentials', error: 'nope' } })
    const input = await openLanding(t)
    fireEvent.change(input, { target: { value: '4155550100' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    const started = Date.now()
    typeCode('111111')
    await screen.findByText('Invalid or expired verification code')
    const boxes = () => screen.getAllByLabelText(/Digit \d of 6/) as HTMLInputElement[]
    expect(boxes().map((b) => b.value).join('')).toBe('111111')
    await waitFor(() => expect(boxes().map((b) => b.value).join('')).toBe(''))
    expect(Date.now() - started).toBeGreaterThanOrEqual(1300)
    expect(screen.queryByText('Invalid or expired verification code')).toBeNull()
  })

  it("other failures: 'Issue verifying code'; not_supported opens the region screen", async () => {
    const t = await kernelWithSms()
    t.net.on('POST', '/passwordless_sms/authenticate', { status: 400, body: { code: 'invalid_data', error: 'bad' } })
    const input = await openLanding(t)
    fireEvent.change(input, { target: { value: '4155550100' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    typeCode('222222')
    await screen.findByText('Issue verifying code')

    t.net.on('POST', '/passwordless_sms/init', { status: 400, body: { code: 'not_supported', error: 'Region blocked' } })
    await waitFor(() => expect(screen.queryByText('Issue verifying code')).toBeNull())
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 31_000)
    fireEvent.click(await screen.findByText('Resend code'))
    await screen.findByText('This region is not supported')
    expect(screen.queryByText('Not supported')).toBeNull()
    expect(screen.getByText('SMS authentication from this region is not available')).toBeTruthy()
    expect(screen.getByText('Try another method')).toBeTruthy()
  })

  it("'Resend code' appears after the 30 s cooldown and sends again", async () => {
    const t = await kernelWithSms()
    const input = await openLanding(t)
    fireEvent.change(input, { target: { value: '4155550100' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    const t0 = Date.now()
    const now = vi.spyOn(Date, 'now').mockReturnValue(t0 + 29_000)
    await new Promise((r) => setTimeout(r, 1100))
    expect(screen.queryByText('Resend code')).toBeNull()
    now.mockReturnValue(t0 + 30_500)
    fireEvent.click(await screen.findByText('Resend code'))
    await waitFor(() => expect(t.net.callsTo('POST', '/passwordless_sms/init')).toHaveLength(2))
    await screen.findByText('Code sent')
  })
})

describe('manage the phone number', () => {
  it('update opens the phone screen, the code goes to the new number, update call has both numbers', async () => {
    const me = wireUser({ accounts: [phone('+14155550100')] })
    const t = await kernelWithSms(me)
    t.net.on('POST', '/passwordless_sms/update', { user: { ...me, linked_accounts: [phone('+14155550199')] }, session_update_action: 'ignore' })
    await mount(t)
    fireEvent.click(screen.getByText('update phone'))
    await screen.findByText('Update your phone number')
    const input = screen.getByRole('textbox', { name: 'Phone number' })
    fireEvent.change(input, { target: { value: '4155550199' } })
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Enter confirmation code')
    typeCode('333333')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless_sms/update')[0].body).toEqual({
      old_phone_number: '+14155550100',
      new_phone_number: '+14155550199',
      code: '333333',
    })
    expect(t.kernel.session.user?.phone?.number).toBe('+14155550199')
  })

  it("update without a phone: 'User is required to have a phone number to update it.'", async () => {
    const t = await kernelWithSms(wireUser({ accounts: [emailAccount('a@example.com')] }))
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PorticoProvider kernel={t.kernel} ui={instant}>
        {children}
      </PorticoProvider>
    )
    const { result } = renderHook(() => usePhoneAccount(), { wrapper })
    await waitFor(() => expect(t.kernel.isReady).toBe(true))
    const r = await result.current.update()
    expect(r).toMatchObject({ ok: false, error: { message: 'User is required to have a phone number to update it.' } })
  })
})

describe('texts', () => {
  it("an app's texts.sms override shows on the screens", async () => {
    const t = await createTestKernel({
      plugins: [sms()],
      app: { login_methods: ['sms'], name: 'Acme' },
      config: { texts: { sms: { consent: 'SMS from {app} only.', codeHeading: 'Code eingeben', submit: 'Weiter' } } },
      ready: false,
    })
    t.net.on('POST', '/passwordless_sms/init', { success: true })
    const input = await openLanding(t)
    expect(screen.getByText('SMS from Acme only.')).toBeTruthy()
    fireEvent.change(input, { target: { value: '4155550100' } })
    expect(screen.getByText('Weiter')).toBeTruthy()
    fireEvent.submit(input.closest('form')!)
    await screen.findByText('Code eingeben')
    expect(screen.queryByText('Enter confirmation code')).toBeNull()
  })
})

describe('useLoginWithSms (headless)', () => {
  it('sendCode → awaiting-code-input → loginWithCode → done', async () => {
    const t = await kernelWithSms()
    t.net.on('POST', '/passwordless_sms/authenticate', authResponse(wireUser({ accounts: [phone('+14155550100')] })))
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PorticoProvider kernel={t.kernel} ui={instant}>
        {children}
      </PorticoProvider>
    )
    const { result } = renderHook(() => useLoginWithSms(), { wrapper })
    await waitFor(() => expect(t.kernel.isReady).toBe(true))
    expect(result.current.state.status).toBe('initial')
    await act(() => result.current.sendCode({ phoneNumber: '+14155550100' }))
    expect(result.current.state.status).toBe('awaiting-code-input')
    await act(async () => void (await result.current.loginWithCode({ code: '123456' })))
    expect(result.current.state.status).toBe('done')
    expect(t.kernel.session.authenticated).toBe(true)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('useLoginWithSms refuses while logged in', () => {
  it('sendCode rejects with already_logged_in for a non-guest user', async () => {
    const t = await kernelWithSms(wireUser({ accounts: [emailAccount('a@example.com')] }))
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PorticoProvider kernel={t.kernel} ui={instant}>
        {children}
      </PorticoProvider>
    )
    const { result } = renderHook(() => useLoginWithSms(), { wrapper })
    await waitFor(() => expect(t.kernel.session.authenticated).toBe(true))
    await act(() => expect(result.current.sendCode({ phoneNumber: '+14155550100' })).rejects.toMatchObject({ code: 'already_logged_in' }))
    expect(result.current.state).toMatchObject({ status: 'error', error: { code: 'already_logged_in' } })
    expect(t.net.callsTo('POST', '/passwordless_sms/init')).toHaveLength(0)
  })
})
