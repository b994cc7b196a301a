// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { PorticoProvider, useLinkAccount, usePortico } from 'portico/ui'
import { authResponse, createTestKernel, emailAccount, wireUser, type TestKernel } from 'portico/testing'
import type { WireAccountTransferData, WireLinkedAccount } from 'portico'
import { pluginContract } from 'portico/testing'
import { sms } from 'portico/plugins/sms'
import { account, methodLabel, transfer, transferData, ACCOUNT_TEXTS } from './index'

pluginContract(() => account())

afterEach(() => cleanup())
const instant = { sleep: async () => {} }

const phone = (number: string): WireLinkedAccount => ({ type: 'phone', number, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 })
const conflict = (over: Partial<WireAccountTransferData> = {}): WireAccountTransferData => ({
  nonce: 'nonce-1',
  account: '+14155550100',
  account_type: 'phone',
  display_name: '+14155550100',
  link_method: 'sms',
  embedded_wallet_address: null,
  ...over,
})

describe('labels and data', () => {
  it('method labels word for word', () => {
    expect(methodLabel('sms')).toBe('Phone number')
    expect(methodLabel('email')).toBe('Email address')
    expect(methodLabel('siwe')).toBe('Wallet address')
    expect(methodLabel('linkedin')).toBe('LinkedIn profile')
    expect(methodLabel('google')).toBe('Google profile')
    expect(methodLabel('github_oauth')).toBe('GitHub profile')
    expect(methodLabel('telegram')).toBe('Telegram profile')
    expect(methodLabel('farcaster')).toBe('Farcaster profile')
  })
  it('reads transfer data; none without a nonce', () => {
    expect(transferData(conflict())).toEqual(conflict())
    expect(transferData({ link_method: 'sms' })).toBeNull()
    expect(transferData(undefined)).toBeNull()
    expect(transferData({ ...conflict(), embedded_wallet_address: '' })?.embedded_wallet_address).toBeNull()
  })
})

describe('transfer calls', () => {
  it('email → /passwordless/transfer {nonce, email}; sms → /passwordless_sms/transfer {nonce, phoneNumber}', async () => {
    const t = await createTestKernel({ plugins: [account()], user: wireUser({ accounts: [emailAccount('me@example.com')] }) })
    t.net.on('POST', '/passwordless/transfer', { user: wireUser() })
    t.net.on('POST', '/passwordless_sms/transfer', { user: wireUser() })
    await transfer(t.kernel.api, conflict({ link_method: 'email', account: 'other@example.com', account_type: 'email' }))
    await transfer(t.kernel.api, conflict())
    expect(t.net.callsTo('POST', '/passwordless/transfer')[0].body).toEqual({ nonce: 'nonce-1', email: 'other@example.com' })
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')[0].body).toEqual({ nonce: 'nonce-1', phoneNumber: '+14155550100' })
  })
  it('refuses kinds it has no call for, and takes extra calls from options', async () => {
    const t = await createTestKernel({ plugins: [account()] })
    await expect(transfer(t.kernel.api, conflict({ link_method: 'custom_auth' }))).rejects.toMatchObject({ code: 'not_supported' })
    const extra = vi.fn(async () => authResponse())
    await transfer(t.kernel.api, conflict({ link_method: 'farcaster' }), { farcaster: extra })
    expect(extra).toHaveBeenCalledOnce()
  })
})

function App() {
  const { authenticated, user } = usePortico()
  const { link } = useLinkAccount()
  return (
    <>
      <p>{authenticated ? `in ${user?.phone?.number ?? 'no-phone'}` : 'out'}</p>
      <button onClick={() => void link('sms')}>link phone</button>
    </>
  )
}

/** Logged in with e-mail, linking a phone that belongs to another account. */
async function conflictFlow(data: WireAccountTransferData, ui: { sleep: (ms: number) => Promise<void> } = instant): Promise<TestKernel> {
  const me = wireUser({ accounts: [emailAccount('me@example.com')] })
  const t = await createTestKernel({ plugins: [sms(), account()], app: { login_methods: ['email', 'sms'] }, user: me })
  t.net.on('POST', '/passwordless_sms/init', { success: true })
  t.net.on('POST', '/passwordless_sms/link', {
    status: 400,
    body: { code: 'account_transfer_required', error: 'This account has already been linked to another user.', data },
  })
  t.net.on('POST', '/passwordless_sms/transfer', {
    ...authResponse({ ...me, linked_accounts: [...me.linked_accounts, phone('+14155550100')] }),
    token: null,
    refresh_token: null,
    session_update_action: 'ignore',
  })
  render(
    <PorticoProvider kernel={t.kernel} ui={ui}>
      <App />
    </PorticoProvider>,
  )
  await waitFor(() => expect(t.kernel.isReady).toBe(true))
  fireEvent.click(screen.getByText('link phone'))
  const input = (await screen.findByRole('textbox', { name: 'Phone number' }, { timeout: 5000 })) as HTMLInputElement
  fireEvent.change(input, { target: { value: '4155550100' } })
  fireEvent.submit(input.closest('form')!)
  await screen.findByText('Enter confirmation code')
  const boxes = screen.getAllByLabelText(/Digit \d of 6/) as HTMLInputElement[]
  fireEvent.paste(boxes[0], { clipboardData: { getData: () => '123456' } })
  return t
}

describe('link conflict screens', () => {
  it("prompt without an embedded wallet: 'Transfer and delete account' transfers, shows 'Success!', closes", async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const t = await conflictFlow(conflict(), { sleep: () => gate })
    await screen.findByText('Phone number is associated with another account')
    expect(screen.getByText(/Your other account will be deleted\./)).toBeTruthy()
    expect(screen.queryByText('Continue')).toBeNull()
    expect(screen.getByText('No thanks')).toBeTruthy()
    // The spent code screen is not a way back.
    expect(document.querySelector('[data-portico-back]')).toBeNull()
    fireEvent.click(screen.getByText('Transfer and delete account'))
    await screen.findByText('Success!')
    expect(screen.getByText('No thanks').closest('button')!.disabled).toBe(true)
    expect(document.querySelector('[data-portico-close]')).toBeNull()
    release()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')[0].body).toEqual({ nonce: 'nonce-1', phoneNumber: '+14155550100' })
    expect(screen.getByText('in +14155550100')).toBeTruthy()
  })

  it("with an embedded wallet: 'Continue' → check assets (copy confirmation 2 s) → transfer", async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const t = await conflictFlow(conflict({ embedded_wallet_address: address }))
    await screen.findByText('Phone number is associated with another account')
    expect(screen.queryByText('Transfer and delete account')).toBeNull()
    fireEvent.click(screen.getByText('Continue'))
    await screen.findByText('Check account assets before transferring')
    expect(screen.getByText(ACCOUNT_TEXTS.checkAssetsBody)).toBeTruthy()
    expect(screen.getByText(address)).toBeTruthy()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      await act(async () => fireEvent.click(screen.getByText('Copy')))
      expect(writeText).toHaveBeenCalledWith(address)
      expect(screen.getByText('Copied')).toBeTruthy()
      await act(async () => vi.advanceTimersByTime(1900))
      expect(screen.getByText('Copied')).toBeTruthy()
      await act(async () => vi.advanceTimersByTime(200))
      expect(screen.queryByText('Copied')).toBeNull()
    } finally {
      vi.useRealTimers()
    }
    fireEvent.click(screen.getByText('Transfer and delete account'))
    await screen.findByText('Success!')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')).toHaveLength(1)
  })

  it("'No thanks' ends the link flow without transferring", async () => {
    const t = await conflictFlow(conflict())
    await screen.findByText('Phone number is associated with another account')
    fireEvent.click(screen.getByText('No thanks'))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')).toHaveLength(0)
    expect(screen.getByText('in no-phone')).toBeTruthy()
  })
})
