// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestKernel, pluginContract, wireUser, authResponse, emailAccount } from 'portico/testing'
import { PorticoError } from 'portico'
import { telegram, type TelegramLogin } from 'portico/plugins/telegram'
import { telegramErrorText } from './errors'
import { TELEGRAM_TEXTS } from './strings'

pluginContract(() => telegram(), { loginMethods: ['telegram'] })

const g = globalThis as { Telegram?: { Login?: TelegramLogin } }
afterEach(() => {
  delete g.Telegram
  vi.restoreAllMocks()
})

const tgAccount = {
  type: 'telegram',
  telegram_user_id: '5000001',
  first_name: 'Ana',
  last_name: null,
  username: 'ana',
  photo_url: null,
  verified_at: 1_700_000_000,
  first_verified_at: 1_700_000_000,
  latest_verified_at: 1_700_000_000,
}
const app = { login_methods: ['email', 'telegram'], telegram_bot_name: 'portico_test_bot', telegram_bot_id: 7000000001 } as never

describe('telegram()', () => {
  it("declares the 'telegram' method: user.telegram with the spec fields, 'Telegram profile'", async () => {
    const { kernel } = await createTestKernel({ plugins: [telegram()], app, user: wireUser({ linked_accounts: [emailAccount('a@b.co'), tgAccount as never] }) })
    expect(kernel.session.user?.telegram).toMatchObject({ type: 'telegram', telegramUserId: '5000001', firstName: 'Ana', lastName: null, username: 'ana', photoUrl: null })
    const d = kernel.methods.get('telegram')!
    expect(d).toMatchObject({ displayName: 'Telegram', transferLabel: 'Telegram profile', userField: 'telegram', accountTypes: ['telegram'] })
  })

  it('authorize() calls Telegram.Login.auth with the bot id from the app settings and keeps the credential for a transfer', async () => {
    const auth = vi.fn<TelegramLogin['auth']>((_o, cb) => cb({ id: 5000001, first_name: 'Ana', auth_date: 1, hash: 'h' }))
    g.Telegram = { Login: { auth } }
    const { kernel, net } = await createTestKernel({ plugins: [telegram()], app })
    const credential = await kernel.plugin('telegram').authorize()
    expect(auth.mock.calls[0][0]).toEqual({ bot_id: 7000000001, request_access: 'write' })
    expect(credential).toEqual({ telegram_auth_result: { id: 5000001, first_name: 'Ana', auth_date: 1, hash: 'h' } })
    net.on('POST', '/telegram/transfer', { user: wireUser() })
    await kernel.methods.get('telegram')!.transfer!(kernel.api, { nonce: 'n1', account: '5000001', account_type: 'telegram', display_name: 'ana', link_method: 'telegram' })
    expect(net.callsTo('POST', '/telegram/transfer')[0].body).toEqual({ nonce: 'n1', ...credential })
  })

  it("a cancelled popup: 'Telegram auth failed or was canceled by the client'", async () => {
    g.Telegram = { Login: { auth: (_o, cb) => cb(false) } }
    const { kernel } = await createTestKernel({ plugins: [telegram()], app })
    const err = (await kernel.plugin('telegram').authorize().catch((e: unknown) => e)) as PorticoError
    expect(err.code).toBe('telegram_auth_failed')
    expect(err.message).toBe('Telegram auth failed or was canceled by the client')
  })

  it("a blocked script turns off only Telegram: start-up succeeds, 'Telegram was not initialized'", async () => {
    const { kernel, warnings } = await createTestKernel({ plugins: [telegram({ origin: 'http://127.0.0.1:9' })], app })
    expect(kernel.isReady).toBe(true)
    await vi.waitFor(() => expect(kernel.plugin('telegram').state.get().script).toBe('unavailable'))
    expect(warnings.some((w) => w.includes('Telegram login is off'))).toBe(true)
    const err = (await kernel.plugin('telegram').authorize().catch((e: unknown) => e)) as PorticoError
    expect(err.code).toBe('telegram_not_initialized')
    await kernel.loadDeclarations() // the error views load lazily (the modal's screens wait for them)
    expect(kernel.screens.resolveError(err).detail).toBe('Telegram was not initialized')
  })

  it('Mini App: #tgWebAppData is claimed, stripped from the address and logs in', async () => {
    const initData = 'auth_date=1&user=%7B%22id%22%3A5000001%7D&hash=abc'
    const url = `https://app.test/play?x=1#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=7.0&keep=1`
    const { kernel, net, location } = await createTestKernel({ plugins: [telegram()], app, url, ready: false })
    const user = wireUser({ linked_accounts: [tgAccount as never] })
    net.on('POST', '/telegram/authenticate', authResponse(user, { is_new_user: true }))
    await kernel.ready()
    expect(location.href).toBe('https://app.test/play?x=1#keep=1')
    await kernel.returnFlow
    expect(net.callsTo('POST', '/telegram/authenticate')[0].body).toEqual({ telegram_web_app_data: initData, mode: 'login-or-sign-up' })
    expect(kernel.session.user?.telegram?.telegramUserId).toBe('5000001')
    expect(kernel.recentLogin()?.method).toBe('telegram')
  })

  it('spec texts for server errors on the status screen', () => {
    const t = (code: string, message = '') => telegramErrorText(new PorticoError(code as never, message), TELEGRAM_TEXTS)
    expect(t('disallowed_login_method').title).toBe('Login with Telegram not allowed.')
    expect(t('linked_to_another_user')).toEqual({ title: 'Authentication failed', detail: 'This account has already been linked to another user.' })
    expect(t('too_many_requests', 'failed with code 429').detail).toBe('Request limit reached for Telegram. Please wait a moment and try again.')
    expect(t('too_many_requests').detail).toBe('Too many requests. Please wait before trying again.')
    expect(t('oauth_account_suspended').detail).toBe('Your Telegram account is suspended. Please try another login method.')
    expect(t('cannot_link_more_of_type').detail).toBe('You cannot authorize more than one account for this user.')
    expect(t('invalid_credentials').detail).toBe('Something went wrong. Try again.')
    expect(t('invalid_captcha').detail).toBe('Please try again.')
    expect(t('oauth_user_denied').detail).toBe('Retry and check Telegram to finish connecting your account.')
  })
})
