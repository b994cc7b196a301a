// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fireEvent, waitFor } from '@testing-library/react'
import type { WireLinkedAccount } from 'portico'
import { authResponse, createTestKernel, emailAccount, pluginContract, renderScreen, wireUser } from 'portico/testing'
import { MAX_PASSKEYS, passkey, passkeyTitle, type PasskeySettings } from './index'
import { PASSKEY_TEXTS } from './strings'

afterEach(cleanup)

pluginContract(() => passkey({ supported: () => true, load: async () => fakeBrowser() }), { loginMethods: ['passkey'] })

const T = PASSKEY_TEXTS
const OPTIONS = { challenge: 'chal-1', rp: { id: 'localhost' } }

function wirePasskey(id: string, extra: Record<string, unknown> = {}): WireLinkedAccount {
  return {
    type: 'passkey',
    credential_id: id,
    authenticator_name: null,
    created_with_browser: 'Chrome',
    created_with_os: 'Linux',
    enrolled_in_mfa: false,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
    ...extra,
  } as unknown as WireLinkedAccount
}

/** What @simplewebauthn/browser's two calls return, or how they fail. */
function fakeBrowser(fail?: string) {
  const calls: { kind: string; optionsJSON: unknown }[] = []
  const run = (kind: string) => async ({ optionsJSON }: { optionsJSON: unknown }) => {
    calls.push({ kind, optionsJSON })
    if (fail) throw Object.assign(new Error('The operation either timed out or was not allowed.'), { name: fail })
    return { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {}, clientExtensionResults: {} }
  }
  return { calls, startRegistration: run('create') as never, startAuthentication: run('get') as never }
}

async function setup(o: { signup?: boolean; settings?: PasskeySettings; fail?: string; user?: ReturnType<typeof wireUser> } = {}) {
  const browser = fakeBrowser(o.fail)
  const t = await createTestKernel({
    plugins: [passkey({ supported: () => true, load: async () => browser, relyingParty: 'localhost', ...o.settings })],
    app: { login_methods: ['email', 'passkey'], passkeys_for_signup_enabled: o.signup ?? true },
  })
  const user = o.user ?? wireUser({ accounts: [wirePasskey('cred-1')] })
  for (const p of ['/passkeys/register/init', '/passkeys/authenticate/init', '/passkeys/link/init']) {
    t.net.on('POST', p, () => ({ relying_party: 'localhost', options: OPTIONS }))
  }
  t.net.on('POST', '/passkeys/register', () => authResponse(user, { is_new_user: true }))
  t.net.on('POST', '/passkeys/authenticate', () => authResponse(user))
  return { ...t, browser, user }
}

describe('passkey() descriptor', () => {
  it('normalises passkey accounts and is not remembered as the recent method', async () => {
    const { kernel } = await setup()
    const d = kernel.methods.get('passkey')!
    expect(d).toMatchObject({ displayName: 'passkey', accountTypes: ['passkey'], remembered: false })
    const r = await kernel.plugin('passkey').logIn()
    expect(r.user.linkedAccounts[0]).toMatchObject({
      type: 'passkey',
      credentialId: 'cred-1',
      authenticatorName: null,
      createdWithBrowser: 'Chrome',
      createdWithOs: 'Linux',
      enrolledInMfa: false,
    })
    expect(kernel.session.authenticated).toBe(true)
    expect(kernel.recentLogin()).toBeNull()
  })
})

describe('passkey ceremonies', () => {
  it('log in: init with the relying party, the browser dialogue, then /authenticate with relying_party, challenge, authenticator_response', async () => {
    const { kernel, net, browser } = await setup()
    await kernel.plugin('passkey').logIn()
    expect(net.callsTo('POST', '/passkeys/authenticate/init')[0].body).toEqual({ relying_party: 'localhost' })
    expect(browser.calls).toEqual([{ kind: 'get', optionsJSON: OPTIONS }])
    const [call] = net.callsTo('POST', '/passkeys/authenticate')
    expect(call.body).toEqual({ relying_party: 'localhost', challenge: 'chal-1', authenticator_response: expect.objectContaining({ id: 'cred-1' }) })
    expect(kernel.plugin('passkey').state.get()).toMatchObject({ status: 'done', action: 'login' })
  })

  it('sign up registers a new credential', async () => {
    const { kernel, net, browser } = await setup()
    const r = await kernel.plugin('passkey').signUp()
    expect(r.isNewUser).toBe(true)
    expect(browser.calls[0].kind).toBe('create')
    expect(net.callsTo('POST', '/passkeys/register')).toHaveLength(1)
  })

  it("the user closing the dialogue: 'Passkey request timed out or rejected by user.'; nothing is sent", async () => {
    const { kernel, net } = await setup({ fail: 'NotAllowedError' })
    await expect(kernel.plugin('passkey').logIn()).rejects.toMatchObject({ code: 'passkey_rejected', message: T.rejected })
    expect(net.callsTo('POST', '/passkeys/authenticate')).toHaveLength(0)
    expect(kernel.plugin('passkey').state.get().status).toBe('error')
  })

  it("a browser without WebAuthn: 'The browser must support WebAuthn', no request", async () => {
    const { kernel, net } = await setup({ settings: { supported: () => false } })
    await expect(kernel.plugin('passkey').logIn()).rejects.toMatchObject({ code: 'not_supported', message: 'The browser must support WebAuthn' })
    expect(net.callsTo('POST', '/passkeys/authenticate/init')).toHaveLength(0)
  })

  it('link adds a passkey to the user; a sixth is refused before any request', async () => {
    const emailUser = wireUser({ accounts: [emailAccount('a@example.com')] })
    const { kernel, net } = await setup({ user: emailUser })
    net.on('POST', '/passwordless/authenticate', () => authResponse(emailUser))
    kernel.session.apply(authResponse(emailUser))
    const linked = wireUser({ id: emailUser.id, accounts: [emailAccount('a@example.com'), wirePasskey('cred-1')] })
    net.on('POST', '/passkeys/link', () => ({ user: linked }))
    const u = await kernel.plugin('passkey').link()
    expect(u.linkedAccounts.map((a) => a.type)).toEqual(['email', 'passkey'])
    expect(net.callsTo('POST', '/passkeys/link')[0].body).toMatchObject({ challenge: 'chal-1', relying_party: 'localhost' })

    const full = wireUser({ id: emailUser.id, accounts: Array.from({ length: MAX_PASSKEYS }, (_, i) => wirePasskey(`c${i}`)) })
    kernel.session.setUser(full)
    await expect(kernel.plugin('passkey').link()).rejects.toMatchObject({ code: 'cannot_link_more_of_type', message: T.cannotLinkMore })
    expect(net.callsTo('POST', '/passkeys/link/init')).toHaveLength(1)
  })

  it('unlink posts the credential id and updates the user', async () => {
    const two = wireUser({ accounts: [wirePasskey('a'), wirePasskey('b')] })
    const { kernel, net } = await setup({ user: two })
    kernel.session.apply(authResponse(two))
    net.on('POST', '/passkeys/unlink', () => ({ user: wireUser({ id: two.id, accounts: [wirePasskey('b')] }) }))
    const u = await kernel.plugin('passkey').unlink('a')
    expect(net.callsTo('POST', '/passkeys/unlink')[0].body).toEqual({ credential_id: 'a' })
    expect(kernel.plugin('passkey').passkeys().map((p) => p.credentialId)).toEqual(['b'])
    expect(u.linkedAccounts).toHaveLength(1)
  })
})

describe('passkey screens', () => {
  it("choice: 'Create new account' and 'Log in with a passkey'; logging in closes with success", async () => {
    const { kernel } = await setup()
    const view = await renderScreen(kernel, 'passkey-choose')
    expect(await view.findByRole('button', { name: T.createAccount })).toBeTruthy()
    fireEvent.click(view.getByRole('button', { name: T.logInWithPasskey }))
    expect(await view.flow).toMatchObject({ ok: true, value: { method: 'passkey' } })
    expect(kernel.session.authenticated).toBe(true)
  })

  it('without passkey sign-up the choice hands over to the login wait', async () => {
    const { kernel, net } = await setup({ signup: false })
    const view = await renderScreen(kernel, 'passkey-choose')
    expect(await view.flow).toMatchObject({ ok: true })
    expect(net.callsTo('POST', '/passkeys/register/init')).toHaveLength(0)
    expect(net.callsTo('POST', '/passkeys/authenticate')).toHaveLength(1)
  })

  it('waiting: Continue disabled while the dialogue runs; Retry on error', async () => {
    const { kernel, browser } = await setup({ fail: 'NotAllowedError' })
    const view = await renderScreen(kernel, 'passkey-wait', { action: 'login' })
    await view.findByText(T.rejected)
    expect(view.queryByRole('button', { name: T.continue })).toBeNull()
    fireEvent.click(view.getByRole('button', { name: T.retry }))
    await waitFor(() => expect(browser.calls).toHaveLength(2))
    const pending = await setup()
    let release!: () => void
    pending.net.on('POST', '/passkeys/authenticate/init', () => new Promise((r) => (release = () => r({ relying_party: 'localhost', options: OPTIONS }))))
    cleanup()
    const v2 = await renderScreen(pending.kernel, 'passkey-wait', { action: 'login' })
    expect(((await v2.findByRole('button', { name: T.continue })) as HTMLButtonElement).disabled).toBe(true)
    await waitFor(() => expect(release).toBeTypeOf('function'))
    release()
    expect(await v2.flow).toMatchObject({ ok: true })
  })

  it("link screen: 'Secure your account with a passkey', titles, 'Add new passkey' hidden at 5, 'Passkeys updated', Done", async () => {
    const one = wireUser({ accounts: [emailAccount('a@example.com'), wirePasskey('p0', { authenticator_name: '1Password' })] })
    const { kernel, net } = await setup({ user: one })
    kernel.session.apply(authResponse(one))
    const five = wireUser({ id: one.id, accounts: [emailAccount('a@example.com'), ...Array.from({ length: 5 }, (_, i) => wirePasskey(`p${i}`))] })
    net.on('POST', '/passkeys/link', () => ({ user: five }))
    const view = await renderScreen(kernel, 'passkey-choose', {}, { intent: 'link' })
    await view.findByText(T.linkTitle)
    expect(view.getByText('1Password (Chrome)')).toBeTruthy()
    fireEvent.click(view.getByRole('button', { name: T.addPasskey }))
    await view.findByText(T.updated)
    fireEvent.click(view.getByRole('button', { name: T.done }))
    expect(await view.flow).toMatchObject({ ok: true })
    cleanup()
    const again = await renderScreen(kernel, 'passkey-link', {}, { intent: 'link' })
    await again.findByText(T.linkTitle)
    expect(again.queryByRole('button', { name: T.addPasskey })).toBeNull()
    expect(again.getAllByRole('button', { name: /Remove passkey/ })).toHaveLength(5)
  })

  it('a passkey enrolled in MFA shows no remove button', async () => {
    const u = wireUser({ accounts: [wirePasskey('m', { enrolled_in_mfa: true }), wirePasskey('n')] })
    const { kernel } = await setup({ user: u })
    kernel.session.apply(authResponse(u))
    const view = await renderScreen(kernel, 'passkey-link', {}, { intent: 'link' })
    await view.findByText(T.enrolledInMfa)
    expect(view.getAllByRole('button', { name: /Remove passkey/ })).toHaveLength(1)
  })
})

describe('removing a passkey asks first (issue 25)', () => {
  it("'Remove' asks 'Unlink {title}?': Cancel keeps it and unlinks nothing, Unlink removes it", async () => {
    const u = wireUser({ accounts: [emailAccount('a@example.com'), wirePasskey('k1'), wirePasskey('k2', { authenticator_name: '1Password' })] })
    const { kernel, net } = await setup({ user: u })
    kernel.session.apply(authResponse(u))
    net.on('POST', '/passkeys/unlink', () => ({ user: wireUser({ id: u.id, accounts: [emailAccount('a@example.com'), wirePasskey('k1')] }) }))
    const view = await renderScreen(kernel, 'passkey-link', {}, { intent: 'link' })
    await view.findByText(T.linkTitle)
    fireEvent.click(view.getByRole('button', { name: 'Remove passkey 1Password (Chrome)' }))
    // The question, with the confirm button focused; nothing sent yet.
    await view.findByText('Unlink 1Password (Chrome)?')
    const confirm = view.getByRole('button', { name: T.unlinkConfirmButton })
    await waitFor(() => expect(document.activeElement).toBe(confirm))
    expect(net.callsTo('POST', '/passkeys/unlink')).toHaveLength(0)
    // Cancel: the question goes, focus returns to the row's Remove button, still nothing sent.
    fireEvent.click(view.getByRole('button', { name: T.cancel }))
    await waitFor(() => expect(view.queryByText('Unlink 1Password (Chrome)?')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(view.getByRole('button', { name: 'Remove passkey 1Password (Chrome)' })))
    expect(net.callsTo('POST', '/passkeys/unlink')).toHaveLength(0)
    // Ask again and confirm: unlinked.
    fireEvent.click(view.getByRole('button', { name: 'Remove passkey 1Password (Chrome)' }))
    fireEvent.click(await view.findByRole('button', { name: T.unlinkConfirmButton }))
    await view.findByText(T.updated)
    expect(net.callsTo('POST', '/passkeys/unlink').map((c) => c.body)).toEqual([{ credential_id: 'k2' }])
  })
})

describe('passkeyTitle', () => {
  it("name and browser, else browser and OS, else 'Unknown device'", () => {
    expect(passkeyTitle({ authenticatorName: '1Password', createdWithBrowser: 'Chrome', createdWithOs: 'macOS' }, PASSKEY_TEXTS.unknownDevice)).toBe('1Password (Chrome)')
    expect(passkeyTitle({ authenticatorName: 'iCloud Keychain', createdWithBrowser: null, createdWithOs: 'iOS' }, PASSKEY_TEXTS.unknownDevice)).toBe('iCloud Keychain')
    expect(passkeyTitle({ authenticatorName: null, createdWithBrowser: 'Safari', createdWithOs: 'iOS' }, PASSKEY_TEXTS.unknownDevice)).toBe('Safari on iOS')
    expect(passkeyTitle({ authenticatorName: null, createdWithBrowser: null, createdWithOs: null }, PASSKEY_TEXTS.unknownDevice)).toBe('Unknown device')
  })
})

