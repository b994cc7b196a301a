// @vitest-environment happy-dom
/**
 * The recovery screens with the test kit: a small plugin registers them with a fake wallet
 * host (its frame records the requests), so every rule and step is driven through the DOM.
 */
import { StrictMode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen as dom, waitFor } from '@testing-library/react'
import { PorticoProvider } from 'portico/ui'
import { definePlugin, type PorticoError } from 'portico'
import { createTestKernel, renderScreen, wireUser } from 'portico/testing'
import { RECOVERY_SCREENS, registerRecovery, type RecoveryApi, type RecoveryHost } from './index'
import { RECOVERY_TEXTS as T } from './strings'
import { RECOVERY_FRAME_TIMEOUT_MS } from './ids'

afterEach(cleanup)

const ETH = '0x1111111111111111111111111111111111111111'

function fakeHost(o: { method?: string; fail?: (type: string, payload: any) => unknown; answer?: (type: string) => Promise<unknown> | undefined } = {}) {
  const requests: { type: string; payload: any; options?: unknown }[] = []
  const created: unknown[] = []
  const host: RecoveryHost = {
    frame: () => ({
      async request(type: string, payload: Record<string, unknown>, options?: unknown) {
        requests.push({ type, payload, ...(options ? { options } : {}) })
        const err = o.fail?.(type, payload)
        if (err) throw err
        await o.answer?.(type)
        return { ok: true } as never
      },
    }),
    wallets: () => [{ address: ETH, chainType: 'ethereum', walletIndex: 0, recoveryMethod: o.method ?? 'privy' }],
    refresh: async () => undefined,
    create: async (x) => void created.push(x),
  }
  return { host, requests, created }
}

async function setup(o: Parameters<typeof fakeHost>[0] = {}) {
  const f = fakeHost(o)
  let api!: RecoveryApi
  const plugin = definePlugin({
    id: 'embedded-wallet',
    kind: 'wallet',
    setup(ctx) {
      api = registerRecovery(ctx, () => f.host, () => undefined)
    },
  })
  const { kernel } = await createTestKernel({ plugins: [plugin], user: wireUser() })
  return { kernel, api, ...f }
}

const input = (label: string) => dom.getByLabelText(label) as HTMLInputElement
const button = (name: string | RegExp) => dom.getByRole('button', { name }) as HTMLButtonElement
/** A body button (the header has its own 'Close' icon button). */
const action = (name: string) => dom.getAllByRole('button', { name }).find((b) => b.classList.contains('portico-button')) as HTMLButtonElement

describe('password create flow screen', () => {
  it('runs the four steps with the rules and texts, then Success and Close', async () => {
    const { kernel, api, requests } = await setup()
    const view = await renderScreen(kernel, RECOVERY_SCREENS.password, { controller: await api.controller(), purpose: 'set', initiatedBy: 'user' })
    await dom.findByText(T.createTitle)
    // Creating: no back button unless the user came from the selection.
    expect(dom.queryByRole('button', { name: 'Back' })).toBeNull()
    const continueBtn = () => button(T.continue)
    expect(continueBtn().disabled).toBe(true)
    fireEvent.change(input(T.passwordLabel), { target: { value: 'ab c' } })
    expect(await dom.findByText('Invalid characters used ( SPACE )')).toBeTruthy()
    fireEvent.change(input(T.passwordLabel), { target: { value: 'abc' } })
    expect(await dom.findByText('Password must be at least 6 characters')).toBeTruthy()
    expect(continueBtn().disabled).toBe(true)
    fireEvent.change(input(T.passwordLabel), { target: { value: 'abcdef' } })
    expect(dom.getByText('Strength: Weak')).toBeTruthy()
    fireEvent.change(input(T.passwordLabel), { target: { value: 'Abcdef12' } })
    expect(dom.getByText('Strength: Medium')).toBeTruthy()
    // Show / hide.
    expect(input(T.passwordLabel).type).toBe('password')
    fireEvent.click(button(T.showPassword))
    expect(input(T.passwordLabel).type).toBe('text')
    // Generate: a 4-word passphrase.
    fireEvent.click(button(T.generate))
    await waitFor(() => expect(input(T.passwordLabel).value.split('-')).toHaveLength(4))
    const pw = input(T.passwordLabel).value
    fireEvent.click(continueBtn())
    // Saving: the password, Copy ('Copied'), Download with the file-name rule.
    await dom.findByText(T.saveTitle)
    expect((dom.getByTestId('recovery-password-value') as HTMLInputElement).value).toBe(pw)
    const download = button(T.download)
    expect(download.getAttribute('data-filename')).toBe('this-app-privy-wallet-recovery.txt'.replace('this-app', kernel.config.name.toLowerCase().replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '')))
    fireEvent.click(button(T.copy))
    expect(await dom.findByText(T.copied)).toBeTruthy()
    fireEvent.click(continueBtn())
    // Confirming: a mismatch shows the text and disables Continue; Enter submits.
    await dom.findByText(T.confirmTitle)
    fireEvent.change(input(T.confirmLabel), { target: { value: `${pw}x` } })
    expect(await dom.findByText('Passwords do not match')).toBeTruthy()
    expect(continueBtn().disabled).toBe(true)
    // Back returns one step, and forward again keeps the password.
    fireEvent.click(button('Back'))
    await dom.findByText(T.saveTitle)
    fireEvent.click(continueBtn())
    await dom.findByText(T.confirmTitle)
    fireEvent.change(input(T.confirmLabel), { target: { value: pw } })
    fireEvent.submit(input(T.confirmLabel).closest('form')!)
    // Finalizing: the acknowledgement box gates Set Password.
    await dom.findByText(T.acknowledgement)
    expect(button(T.setPassword).disabled).toBe(true)
    fireEvent.click(dom.getByRole('checkbox'))
    fireEvent.click(button(T.setPassword))
    await dom.findByText(T.success)
    expect(requests).toEqual([
      {
        type: 'wallets:set-recovery',
        payload: expect.objectContaining({ recoveryMethod: 'user-passcode', recoveryPassword: pw, entropyId: ETH, entropyIdVerifier: 'ethereum-address-verifier' }),
        // A frame that never answers ends in a clear error after this time, not in an endless spinner.
        options: { timeoutMs: RECOVERY_FRAME_TIMEOUT_MS, timeoutMessage: T.tryAgainError },
      },
    ])
    fireEvent.click(action(T.close))
    expect(await view.flow).toEqual({ ok: true, value: { recoveryMethod: 'user-passcode' } })
  })

  it("shows 'Something went wrong' when the frame refuses, with Close", async () => {
    const { kernel, api } = await setup({ fail: () => ({ type: 'error', message: 'nope' }) })
    await renderScreen(kernel, RECOVERY_SCREENS.password, { controller: await api.controller(), purpose: 'set', initiatedBy: 'user', fromSelection: true })
    await dom.findByText(T.createTitle)
    expect(dom.getByRole('button', { name: 'Back' })).toBeTruthy()
    fireEvent.change(input(T.passwordLabel), { target: { value: 'abcdef' } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('button', { name: T.continue }))
    fireEvent.change(await dom.findByLabelText(T.confirmLabel), { target: { value: 'abcdef' } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('checkbox'))
    fireEvent.click(button(T.setPassword))
    expect(await dom.findByText(T.failed)).toBeTruthy()
    expect(action(T.close)).toBeTruthy()
  })

  /** Through the four steps to a ticked box, then Set Password. */
  async function toSetPassword(pw = 'Abcdef12') {
    await dom.findByText(T.createTitle)
    fireEvent.change(input(T.passwordLabel), { target: { value: pw } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('button', { name: T.continue }))
    fireEvent.change(await dom.findByLabelText(T.confirmLabel), { target: { value: pw } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('checkbox'))
    fireEvent.click(button(T.setPassword))
  }

  it("under React's StrictMode (the demo's dev server) Set Password ends in 'Success', not an endless spinner", async () => {
    const { kernel, api, requests } = await setup()
    const controller = await api.controller()
    render(
      <StrictMode>
        <PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />
      </StrictMode>,
    )
    let flow!: Promise<unknown>
    act(() => {
      flow = kernel.screens.open(RECOVERY_SCREENS.password, { controller, purpose: 'set', initiatedBy: 'user' }, { intent: 'update' })
    })
    await toSetPassword()
    expect(await dom.findByText(T.success)).toBeTruthy()
    expect(requests.map((r) => r.type)).toEqual(['wallets:set-recovery'])
    fireEvent.click(action(T.close))
    expect(await flow).toEqual({ ok: true, value: { recoveryMethod: 'user-passcode' } })
  })

  it('each step and the busy Set Password keep focus inside the dialog (Escape and Tab keep working)', async () => {
    let answer!: () => void
    const { kernel, api } = await setup({ answer: () => new Promise<void>((r) => (answer = r)) })
    const view = await renderScreen(kernel, RECOVERY_SCREENS.password, { controller: await api.controller(), purpose: 'set', initiatedBy: 'user' }, { intent: 'update' })
    const inside = () => view.dialog.contains(document.activeElement)
    await dom.findByText(T.createTitle)
    fireEvent.change(input(T.passwordLabel), { target: { value: 'Abcdef12' } })
    button(T.continue).focus()
    fireEvent.click(button(T.continue))
    await dom.findByText(T.saveTitle)
    await waitFor(() => expect(inside()).toBe(true))
    const cont = await dom.findByRole('button', { name: T.continue })
    cont.focus()
    fireEvent.click(cont)
    fireEvent.change(await dom.findByLabelText(T.confirmLabel), { target: { value: 'Abcdef12' } })
    button(T.continue).focus()
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('checkbox'))
    button(T.setPassword).focus()
    fireEvent.click(button(T.setPassword))
    await waitFor(() => expect(button(T.setPassword).disabled).toBe(true))
    await waitFor(() => expect(inside() && !(document.activeElement as HTMLButtonElement).disabled).toBe(true))
    act(() => answer())
    await dom.findByText(T.success)
    await waitFor(() => expect(inside()).toBe(true))
  })

  it('while Set Password works, × stays; × on Success reports the password as set', async () => {
    let answer!: () => void
    const { kernel, api } = await setup({ answer: () => new Promise<void>((r) => (answer = r)) })
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    let flow!: Promise<unknown>
    act(() => {
      // Password is the app's only method: the create flow opens at once (useSetWalletRecovery).
      flow = api.setWalletRecovery({ options: ['user-passcode'] })
    })
    await toSetPassword()
    await waitFor(() => expect(button(T.setPassword).getAttribute('aria-busy')).toBe('true'))
    // Busy: the header's × is still there (and Escape, since the screen can close).
    const headerClose = () => dom.getAllByRole('button', { name: 'Close' }).find((b) => b.hasAttribute('data-portico-close'))
    expect(headerClose()).toBeTruthy()
    expect(kernel.screens.canClose).toBe(true)
    act(() => answer())
    await dom.findByText(T.success)
    // The header's × (not the body's Close button): the backup went through, so the flow says so.
    fireEvent.click(headerClose()!)
    expect(await flow).toEqual({ ok: true, value: { recoveryMethod: 'user-passcode' } })
  })

  it('automatic: cannot be closed or cancelled, closes 1.4 s after done', async () => {
    const { kernel, api, created } = await setup()
    const view = await renderScreen(kernel, RECOVERY_SCREENS.passwordRequired, { controller: await api.controller(), purpose: 'create', initiatedBy: 'automatic' })
    await dom.findByText(T.createTitle)
    expect(kernel.screens.canClose).toBe(false)
    expect(dom.queryByRole('button', { name: T.cancel })).toBeNull()
    fireEvent.change(input(T.passwordLabel), { target: { value: 'abcdef' } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('button', { name: T.continue }))
    fireEvent.change(await dom.findByLabelText(T.confirmLabel), { target: { value: 'abcdef' } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('checkbox'))
    fireEvent.click(button(T.setPassword))
    await dom.findByText(T.success)
    expect(dom.queryAllByRole('button', { name: T.close }).filter((b) => b.classList.contains('portico-button'))).toEqual([])
    const t0 = Date.now()
    expect(await view.flow).toEqual({ ok: true, value: { recoveryMethod: 'user-passcode' } })
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1300)
    expect(created).toEqual([{ recoveryMethod: 'user-passcode', recoveryPassword: 'abcdef' }])
  })

  it('user-initiated can be cancelled', async () => {
    const { kernel, api } = await setup()
    const view = await renderScreen(kernel, RECOVERY_SCREENS.password, { controller: await api.controller(), purpose: 'set', initiatedBy: 'user' })
    fireEvent.click(await dom.findByRole('button', { name: T.cancel }))
    const r = await view.flow
    expect(r.ok).toBe(false)
  })
})

describe('password update, the update splash and automatic recovery (setWalletRecovery)', () => {
  async function mounted(o: Parameters<typeof fakeHost>[0] & { config?: RecoveryHost['recoveryConfig']; app?: Record<string, unknown> } = {}) {
    const f = fakeHost(o)
    if (o.config) f.host.recoveryConfig = o.config
    let api!: RecoveryApi
    const plugin = definePlugin({ id: 'embedded-wallet', kind: 'wallet', setup: (ctx) => void (api = registerRecovery(ctx, () => f.host, () => undefined)) })
    const { kernel } = await createTestKernel({ plugins: [plugin], user: wireUser(), ...(o.app ? { app: o.app as never } : {}) })
    const { render } = await import('@testing-library/react')
    const { PorticoProvider } = await import('portico/ui/screens')
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    return { kernel, api, ...f }
  }
  const throughSteps = async (pw: string) => {
    fireEvent.change(input(T.passwordLabel), { target: { value: pw } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('button', { name: T.continue }))
    fireEvent.change(await dom.findByLabelText(T.confirmLabel), { target: { value: pw } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('checkbox'))
    fireEvent.click(button(T.setPassword))
  }

  it('a wallet with a password, password the only method: the splash, then the update flow reseals with the new password', async () => {
    const { api, requests } = await mounted({ method: 'user-passcode' })
    const flow = api.setWalletRecovery({ options: ['user-passcode'] })
    await dom.findByText(T.splashTitle)
    expect(dom.getByText(T.splashDescription)).toBeTruthy()
    fireEvent.click(button(T.splashContinue))
    await dom.findByText(T.updateTitle)
    expect(dom.getByText(T.updateDescription)).toBeTruthy()
    // Reached from the splash, not the selection: no back button on the first step.
    expect(dom.queryByRole('button', { name: 'Back' })).toBeNull()
    await throughSteps('New-pass-42')
    await dom.findByText(T.success)
    expect(requests).toEqual([{ type: 'wallets:set-recovery', payload: expect.objectContaining({ recoveryMethod: 'user-passcode', recoveryPassword: 'New-pass-42' }), options: expect.any(Object) }])
    fireEvent.click(action(T.close))
    expect(await flow).toEqual({ ok: true, value: { recoveryMethod: 'user-passcode' } })
  })

  it('the splash is skipped when resetting', async () => {
    const { api } = await mounted({ method: 'user-passcode' })
    void api.setWalletRecovery({ options: ['user-passcode'], resetting: true })
    await dom.findByText(T.updateTitle)
    expect(dom.queryByText(T.splashTitle)).toBeNull()
  })

  it("the splash's Cancel ends the flow and changes nothing", async () => {
    const { api, requests } = await mounted({ method: 'user-passcode', app: { embedded_wallet_config: { create_on_login: 'off', user_owned_recovery_options: ['user-passcode'] } } })
    const flow = api.setWalletRecovery()
    fireEvent.click(await dom.findByRole('button', { name: T.cancel }))
    expect((await flow).ok).toBe(false)
    expect(requests).toEqual([])
  })

  it('a wallet without a password, password the only method: the create flow, no splash', async () => {
    const { api } = await mounted({ method: 'privy' })
    void api.setWalletRecovery({ options: ['user-passcode'] })
    await dom.findByText(T.createTitle)
    expect(dom.queryByText(T.splashTitle)).toBeNull()
  })

  it("automatic recovery enabled: 'Automatically secure your account' comes first and moves the wallet to privy", async () => {
    const { api, requests } = await mounted({ method: 'user-passcode', config: () => ({ automatic: true }) })
    const flow = api.setWalletRecovery()
    await dom.findByText('Automatically secure your account')
    expect(dom.getByText(T.automaticDescription)).toBeTruthy()
    fireEvent.click(button(T.automaticConfirm))
    await dom.findByText(T.automaticDone)
    expect(requests).toEqual([{ type: 'wallets:set-recovery', payload: expect.objectContaining({ recoveryMethod: 'privy', entropyId: ETH }), options: expect.any(Object) }])
    // Closes by itself 1.4 s after success.
    expect(await flow).toEqual({ ok: true, value: { recoveryMethod: 'privy' } })
  })

  it("the app's embeddedWallets.automaticRecovery enables it; a refusal shows 'Something went wrong' and Try again", async () => {
    const { api, requests } = await mounted({ method: 'google-drive', app: { embedded_wallet_config: { create_on_login: 'off', automatic_recovery: true } }, fail: (_t, p) => (p.recoveryMethod === 'privy' && requests.length === 1 ? { type: 'error', message: 'nope' } : undefined) })
    expect(api.recoveryConfig().automatic).toBe(true)
    void api.setWalletRecovery()
    fireEvent.click(await dom.findByRole('button', { name: T.automaticConfirm }))
    await dom.findByText(T.automaticFailed)
    expect(dom.getByText(T.failed)).toBeTruthy()
    fireEvent.click(button(T.tryAgain))
    await dom.findByText(T.automaticDone)
    expect(requests.map((r) => r.payload.recoveryMethod)).toEqual(['privy', 'privy'])
  })

  it('a wallet already on automatic recovery: says so, with Close, and sends nothing', async () => {
    const { api, requests } = await mounted({ method: 'privy', config: () => ({ automatic: true }) })
    const flow = api.setWalletRecovery()
    await dom.findByText(T.automaticDone)
    fireEvent.click(action(T.close))
    expect((await flow).ok).toBe(true)
    expect(requests).toEqual([])
  })
})

describe('password recovery screen', () => {
  it("Recover is enabled only when typed; a wrong password shows the spec text and allows a retry", async () => {
    let attempts = 0
    const { kernel, api, requests } = await setup({
      method: 'user-passcode',
      fail: (type, p) => (type === 'wallets:recover' && p.recoveryPassword !== 'right-password' ? (attempts++, { type: 'invalid_recovery_pin', message: 'wrong' }) : undefined),
    })
    const view = await renderScreen(kernel, RECOVERY_SCREENS.recoverPassword, { controller: await api.controller() })
    await dom.findByText(T.enterPassword)
    const recover = () => button(T.recoverTitle)
    expect(recover().disabled).toBe(true)
    fireEvent.change(input(T.passwordLabel), { target: { value: 'wrong-password' } })
    expect(recover().disabled).toBe(false)
    fireEvent.click(recover())
    expect(await dom.findByText('Invalid recovery password, please try again.')).toBeTruthy()
    fireEvent.change(input(T.passwordLabel), { target: { value: 'right-password' } })
    expect(dom.queryByText('Invalid recovery password, please try again.')).toBeNull()
    fireEvent.click(recover())
    expect(await view.flow).toEqual({ ok: true, value: { recovered: true } })
    expect(attempts).toBe(1)
    expect(requests.map((r) => r.payload.recoveryMethod)).toEqual(['user-passcode', 'user-passcode'])
  })
})

describe('recovery selection', () => {
  it('lists Google Drive, Apple iCloud and password without the cloud method in use; password opens the flow and back returns', async () => {
    const { kernel, api } = await setup({ method: 'google-drive' })
    void api.setWalletRecovery()
    const { render } = await import('@testing-library/react')
    const { PorticoProvider } = await import('portico/ui/screens')
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    await dom.findByText(T.selectTitle)
    expect(dom.queryByText(T.googleDrive)).toBeNull()
    expect(dom.getByText(T.icloud)).toBeTruthy()
    fireEvent.click(dom.getByText(T.password))
    await dom.findByText(T.createTitle)
    fireEvent.click(button('Back'))
    await dom.findByText(T.selectTitle)
  })

  it('connect-time: user-passcode → password recovery, cloud → the cloud screen, unknown → failure with Close', async () => {
    const { kernel, api } = await setup()
    const { render } = await import('@testing-library/react')
    const { PorticoProvider } = await import('portico/ui/screens')
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    expect(await api.recoverOnConnect('privy')).toBeNull()
    void api.recoverOnConnect('user-passcode')
    await dom.findByText(T.enterPassword)
    kernel.screens.dismiss()
    void api.recoverOnConnect('icloud')
    await dom.findByRole('button', { name: 'Continue with Apple iCloud' })
    kernel.screens.dismiss()
    const failed = api.recoverOnConnect('dropbox')
    await dom.findByText(T.recoveryFailedTitle)
    fireEvent.click(action(T.close))
    expect((await failed)?.ok).toBe(false)
  })

  it("under StrictMode 'Recover your account' ends in 'Wallet recovered' and resolves", async () => {
    const { kernel, api } = await setup({ method: 'user-passcode' })
    render(
      <StrictMode>
        <PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />
      </StrictMode>,
    )
    const got: unknown[] = []
    let r!: Promise<unknown>
    act(() => {
      r = api.recoverOnConnect('user-passcode', async (i) => void got.push(i))
    })
    fireEvent.change(await dom.findByLabelText(T.passwordLabel), { target: { value: 'Correct-horse-42' } })
    fireEvent.click(button(T.recoverTitle))
    expect(await dom.findByText(T.cloudRecovered)).toBeTruthy()
    expect(await r).toMatchObject({ ok: true })
    expect(got).toEqual([{ recoveryMethod: 'user-passcode', recoveryPassword: 'Correct-horse-42' }])
  })

  it('connect-time inside a flow that closes first (the login modal): resolves as exited, never waits forever', async () => {
    const { kernel, api } = await setup({ method: 'user-passcode' })
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    act(() => void kernel.screens.open('landing', {}, { intent: 'login' }))
    let r!: Promise<unknown>
    act(() => {
      r = api.recoverOnConnect('user-passcode')
    })
    await dom.findByText(T.enterPassword)
    // The flow's owner closes it (a login completing) before the user answered.
    act(() => kernel.screens.close())
    expect(await r).toMatchObject({ ok: false, error: { code: 'exited_update_flow' } })
  })

  it("the cloud screen's failure title: 'Recovery with {provider} unsuccessful', and without a popup 'An error has occurred'", async () => {
    const { kernel, api } = await setup({ method: 'google-drive' })
    const { render } = await import('@testing-library/react')
    const { PorticoProvider } = await import('portico/ui/screens')
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    void api.recoverOnConnect('google-drive')
    fireEvent.click(await dom.findByRole('button', { name: 'Continue with Google Drive' }))
    expect(await dom.findByText('Recovery with Google Drive unsuccessful')).toBeTruthy()
    expect(dom.getByText('An error has occurred, please try again.')).toBeTruthy()
  })

  it("a backup failure: 'Back up with {provider} unsuccessful'", async () => {
    const { kernel, api } = await setup()
    const run = Promise.reject(Object.assign(new Error('User denied confirmation during OAuth flow'), { code: 'oauth_user_denied' }) as PorticoError)
    run.catch(() => {})
    await renderScreen(kernel, RECOVERY_SCREENS.cloud, { controller: await api.controller(), method: 'icloud', action: 'backup', run })
    expect(await dom.findByText('Back up with Apple iCloud unsuccessful')).toBeTruthy()
    expect(dom.getByText('User denied confirmation during OAuth flow')).toBeTruthy()
  })
})

describe('creation on login when recovery must be user-owned', () => {
  it('opens the password flow before the wallet exists (automatic: no close) and creates the wallet with it', async () => {
    const f = fakeHost()
    f.host.wallets = () => []
    const plugin = definePlugin({
      id: 'embedded-wallet',
      kind: 'wallet',
      setup(ctx) {
        registerRecovery(ctx, () => f.host, () => undefined)
      },
    })
    const { kernel } = await createTestKernel({
      plugins: [plugin],
      user: wireUser(),
      app: { embedded_wallet_config: { create_on_login: 'users-without-wallets', require_user_owned_recovery_on_create: true, user_owned_recovery_options: ['user-passcode'] } } as never,
    })
    const { render } = await import('@testing-library/react')
    const { PorticoProvider } = await import('portico/ui/screens')
    render(<PorticoProvider kernel={kernel} ui={{ sleep: async () => {} }} />)
    const chain = kernel.hooks.authenticated.promise({ intent: 'login', session: kernel.session, screens: kernel.screens, config: kernel.config, user: kernel.session.user!, isNewUser: true } as never)
    await dom.findByText(T.createTitle)
    expect(kernel.screens.canClose).toBe(false)
    fireEvent.change(input(T.passwordLabel), { target: { value: 'abcdef' } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('button', { name: T.continue }))
    fireEvent.change(await dom.findByLabelText(T.confirmLabel), { target: { value: 'abcdef' } })
    fireEvent.click(button(T.continue))
    fireEvent.click(await dom.findByRole('checkbox'))
    fireEvent.click(button(T.setPassword))
    await chain
    expect(f.created).toEqual([{ recoveryMethod: 'user-passcode', recoveryPassword: 'abcdef' }])
  })

  it('does nothing unless the app requires it', async () => {
    const f = fakeHost()
    f.host.wallets = () => []
    const plugin = definePlugin({ id: 'embedded-wallet', kind: 'wallet', setup: (ctx) => void registerRecovery(ctx, () => f.host, () => undefined) })
    const { kernel } = await createTestKernel({ plugins: [plugin], user: wireUser(), app: { embedded_wallet_config: { create_on_login: 'users-without-wallets' } } as never })
    await kernel.hooks.authenticated.promise({ intent: 'login', session: kernel.session, screens: kernel.screens, config: kernel.config, user: kernel.session.user!, isNewUser: true } as never)
    expect(kernel.screens.getState().open).toBe(false)
    expect(f.created).toEqual([])
  })
})

describe('the popup return', () => {
  it('the popup page posts the code and state to its opener and strips them', async () => {
    const posted: unknown[] = []
    const closed = vi.fn()
    const opener = { postMessage: (m: unknown, o: string) => posted.push([m, o]) }
    const plugin = definePlugin({
      id: 'embedded-wallet',
      kind: 'wallet',
      setup(ctx) {
        registerRecovery(ctx, () => fakeHost().host, () => ({ opener, close: closed, location: { origin: 'http://localhost:5173', href: '', assign() {} } }) as never)
      },
    })
    const url = 'http://localhost:5173/?portico_recovery_popup=google-drive&privy_oauth_code=4%2Fabc&privy_oauth_state=st-123&privy_oauth_provider=google-drive&keep=1'
    const { location } = await createTestKernel({ plugins: [plugin], url })
    await waitFor(() => expect(posted).toHaveLength(1))
    expect(posted[0]).toEqual([{ type: 'portico:recovery-oauth-return', provider: 'google-drive', code: '4/abc', state: 'st-123', error: null }, 'http://localhost:5173'])
    expect(closed).toHaveBeenCalled()
    expect(location.href).toBe('http://localhost:5173/?keep=1')
  })
})
