// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import {
  definePlugin,
  normaliseFields,
  PorticoError,
  type MethodDescriptor,
  type PorticoPlugin,
  type WireAccountTransferData,
  type WireLinkedAccount,
} from 'portico'
import { authResponse, createTestKernel, emailAccount, pluginContract, renderScreen, wireUser, type TestKernel } from 'portico/testing'
import { sms } from 'portico/plugins/sms'
import { account, transferData, ACCOUNT_SCREENS } from './index'
import { ACCOUNT_TEXTS } from './strings'

pluginContract(() => account())

afterEach(() => cleanup())

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

/**
 * A stand-in login plugin declaring the 'sms' method the way a real one does (label, account
 * type, transfer call) — and, like the SMS plugin, its region view for `not_supported`.
 */
const REGION_TITLE = 'This region is not supported'
function phoneMethod(over: Partial<MethodDescriptor> = {}): PorticoPlugin {
  return definePlugin({
    id: 'test-phone',
    kind: 'login',
    setup(ctx) {
      ctx.methods.declare({
        id: 'sms',
        displayName: 'SMS',
        accountTypes: ['phone'],
        userField: 'phone',
        normalise: (raw) => normaliseFields(raw, 'number:S'),
        transferLabel: 'Phone number',
        transfer: (api, d) => api.post('/passwordless_sms/transfer', { nonce: d.nonce, phoneNumber: d.account }, { fromUi: true }),
        ...over,
      })
      ctx.declareErrors({
        not_supported: { title: REGION_TITLE, detail: 'SMS authentication from this region is not available', screen: 'error' },
      })
    },
  })
}

describe('labels and data', () => {
  it("the heading label is the method's transferLabel, 'Account' when no method answers", async () => {
    const t = await createTestKernel({ plugins: [phoneMethod(), account()] })
    const accounts = t.kernel.plugin('account')
    expect(accounts.label('sms')).toBe('Phone number')
    expect(accounts.label('farcaster')).toBe('Account')
    expect(ACCOUNT_TEXTS.fallbackLabel).toBe('Account')
    expect(accounts.methodOf('sms')).toBe('sms')
  })
  it('a method answers the link methods it lists (linkMethods)', async () => {
    const t = await createTestKernel({ plugins: [phoneMethod({ id: 'phone-otp', linkMethods: ['sms'] }), account()] })
    expect(t.kernel.plugin('account').label('sms')).toBe('Phone number')
    expect(t.kernel.plugin('account').methodOf('sms')).toBe('phone-otp')
  })
  it('reads transfer data; none without a nonce', () => {
    expect(transferData(conflict())).toEqual(conflict())
    expect(transferData({ link_method: 'sms' })).toBeNull()
    expect(transferData(undefined)).toBeNull()
    expect(transferData({ ...conflict(), embedded_wallet_address: '' })?.embedded_wallet_address).toBeNull()
  })
})

describe('transfer calls', () => {
  it("calls the transfer of the method that answers link_method", async () => {
    const t = await createTestKernel({ plugins: [phoneMethod(), account()], user: wireUser({ accounts: [emailAccount('me@example.com')] }) })
    t.net.on('POST', '/passwordless_sms/transfer', { user: wireUser() })
    await t.kernel.plugin('account').transfer(conflict())
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')[0].body).toEqual({ nonce: 'nonce-1', phoneNumber: '+14155550100' })
  })
  it("refuses a method no plugin can transfer with the neutral method_not_supported and its own text", async () => {
    const t = await createTestKernel({ plugins: [phoneMethod({ id: 'custom_auth', linkMethods: ['custom_auth'], transfer: undefined }), account()] })
    const refused = (await t.kernel.plugin('account').transfer(conflict({ link_method: 'custom_auth' })).catch((e: unknown) => e)) as PorticoError
    expect(refused).toBeInstanceOf(PorticoError)
    expect(refused.code).toBe('method_not_supported')
    expect(refused.message).toBe("Transferring an account of this kind ('custom_auth') is not supported by this app.")
    await expect(t.kernel.plugin('account').transfer(conflict({ link_method: 'farcaster' }))).rejects.toMatchObject({ code: 'method_not_supported' })
    expect(t.net.calls.filter((c) => c.url.includes('/transfer'))).toHaveLength(0)
  })
})

describe('error declarations', () => {
  it("with the real SMS plugin: a refused transfer after an SMS link reads as the account plugin's text, not the region refusal", async () => {
    const t = await createTestKernel({ plugins: [sms(), account()], app: { login_methods: ['email', 'sms'] } })
    await t.kernel.loadDeclarations() // error views declared lazily (the modal's screens wait for them)
    const refused = await t.kernel.plugin('account').transfer(conflict({ link_method: 'farcaster' })).catch((e: unknown) => e)
    // The context of an SMS link (method 'sms', an sms-* screen) is where SMS's region view applies.
    for (const ctx of [{ method: 'sms' }, { screen: 'sms-code' }, { screen: ACCOUNT_SCREENS.linkConflict }]) {
      const view = t.kernel.screens.resolveError(refused, ctx)
      expect(view.title).toBe(ACCOUNT_TEXTS.unsupportedTitle)
      expect(view.detail).toBe("Transferring an account of this kind ('farcaster') is not supported by this app.")
      expect(view.title).not.toBe('This region is not supported')
    }
    // SMS's own not_supported keeps its region view.
    expect(t.kernel.screens.resolveError(new PorticoError('not_supported', 'region'), { method: 'sms' }).title).toBe('This region is not supported')
  })

  it('account_transfer_required has its own screen (declared by this plugin, not the kernel)', async () => {
    const err = new PorticoError('account_transfer_required', 'linked elsewhere', { data: { ...conflict() } })
    const withAccount = await createTestKernel({ plugins: [phoneMethod(), account()] })
    await withAccount.kernel.loadDeclarations() // error views declared lazily (the modal's screens wait for them)
    expect(withAccount.kernel.screens.resolveError(err)).toMatchObject({
      screen: ACCOUNT_SCREENS.linkConflict,
      title: 'Phone number is associated with another account',
    })
    expect(withAccount.kernel.screens.hasOwnScreen(err)).toBe(true)
    const without = await createTestKernel({ plugins: [phoneMethod()] })
    expect(without.kernel.screens.resolveError(err).screen).not.toBe(ACCOUNT_SCREENS.linkConflict)
  })
  it("its method_not_supported view is its own, another plugin's not_supported view stays theirs", async () => {
    const t = await createTestKernel({ plugins: [phoneMethod(), account()] })
    await t.kernel.loadDeclarations() // error views declared lazily (the modal's screens wait for them)
    const view = t.kernel.screens.resolveError(await t.kernel.plugin('account').transfer(conflict({ link_method: 'farcaster' })).catch((e) => e))
    expect(view).toMatchObject({ title: ACCOUNT_TEXTS.unsupportedTitle, screen: 'error' })
    expect(view.title).not.toBe(REGION_TITLE)
    expect(t.kernel.screens.resolveError(new PorticoError('not_supported', 'x')).title).toBe(REGION_TITLE)
    // Someone else's method_not_supported is left to its plugin or the kernel.
    expect(t.kernel.hooks.errorView.call(new PorticoError('method_not_supported', 'other'), {})).toBeUndefined()
  })
})

/** Logged in with e-mail; the link of a phone that belongs to another account hit a conflict. */
async function conflictFlow(data: WireAccountTransferData, opts: { sleep?: (ms: number) => Promise<void>; plugins?: PorticoPlugin[] } = {}) {
  const me = wireUser({ accounts: [emailAccount('me@example.com')] })
  const t: TestKernel = await createTestKernel({
    plugins: opts.plugins ?? [phoneMethod(), account()],
    app: { login_methods: ['email', 'sms'] },
    user: me,
  })
  t.net.on('POST', '/passwordless_sms/transfer', {
    ...authResponse({ ...me, linked_accounts: [...me.linked_accounts, phone('+14155550100')] }),
    token: null,
    refresh_token: null,
    session_update_action: 'ignore',
  })
  const view = await renderScreen(t.kernel, 'landing', {}, { intent: 'link', ui: { sleep: opts.sleep ?? (async () => {}) } })
  act(() => {
    t.kernel.screens.error(
      new PorticoError('account_transfer_required', 'This account has already been linked to another user.', { status: 400, data: { ...data } }),
      { method: 'sms' },
    )
  })
  return { ...t, view }
}

describe('link conflict screens', () => {
  it("prompt without an embedded wallet: 'Transfer and delete account' transfers, shows 'Success!', closes", async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const t = await conflictFlow(conflict(), { sleep: () => gate })
    // The screen is lazy: wait for it with findBy*.
    await screen.findByText('Phone number is associated with another account')
    expect(t.kernel.screens.getState().current?.id).toBe('account-link-conflict')
    expect(screen.getByText(/Your other account will be deleted\./)).toBeTruthy()
    expect(screen.queryByText('Continue')).toBeNull()
    expect(screen.getByText('No thanks')).toBeTruthy()
    expect(document.querySelector('[data-portico-back]')).toBeNull()
    fireEvent.click(screen.getByText('Transfer and delete account'))
    await screen.findByText('Success!')
    expect(screen.getByText('No thanks').closest('button')!.disabled).toBe(true)
    expect(document.querySelector('[data-portico-close]')).toBeNull()
    release()
    expect(await t.view.flow).toMatchObject({ ok: true, value: { method: 'sms' } })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')[0].body).toEqual({ nonce: 'nonce-1', phoneNumber: '+14155550100' })
    expect(t.kernel.session.user?.phone).toMatchObject({ number: '+14155550100' })
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
    expect(t.kernel.screens.getState().current?.id).toBe('account-check-assets')
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
    expect(await t.view.flow).toMatchObject({ ok: false, error: { code: 'exited_link_flow' } })
    expect(t.net.callsTo('POST', '/passwordless_sms/transfer')).toHaveLength(0)
    expect(t.kernel.session.user?.phone).toBeUndefined()
  })

  it("an account no method can transfer: 'Account' heading, and the refusal shows the account plugin's text, not SMS's region refusal", async () => {
    const t = await conflictFlow(conflict({ link_method: 'farcaster', account: '1234', display_name: 'fc-user', account_type: 'farcaster' }))
    await screen.findByText('Account is associated with another account')
    fireEvent.click(screen.getByText('Transfer and delete account'))
    await screen.findByText(ACCOUNT_TEXTS.unsupportedTitle)
    expect(screen.getByText("Transferring an account of this kind ('farcaster') is not supported by this app.")).toBeTruthy()
    expect(screen.queryByText(REGION_TITLE)).toBeNull()
    expect(screen.queryByText(/region/)).toBeNull()
    // Its button goes back to the prompt, where 'No thanks' ends the flow.
    const cta = [...document.querySelectorAll<HTMLButtonElement>('.portico-actions button')].find((b) => b.textContent === ACCOUNT_TEXTS.back)!
    fireEvent.click(cta)
    await screen.findByText('Account is associated with another account')
    expect(t.net.calls.filter((c) => c.url.includes('/transfer'))).toHaveLength(0)
  })

  it("takes the app's texts", async () => {
    const me = wireUser({ accounts: [emailAccount('me@example.com')] })
    const t = await createTestKernel({
      plugins: [phoneMethod(), account()],
      user: me,
      config: { texts: { account: { noThanks: 'Nein danke' } } },
    })
    await renderScreen(t.kernel, ACCOUNT_SCREENS.linkConflict, { transfer: conflict() }, { intent: 'link' })
    expect(await screen.findByText('Nein danke')).toBeTruthy()
  })
})
