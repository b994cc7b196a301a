/**
 * Telegram routes and captcha verification, over HTTP against a real server: widget and Mini
 * App data signed with a test bot token (test/stand-ins/telegram.ts), captcha tokens checked
 * by a local siteverify stand-in (test/stand-ins/captcha.ts). Every refusal leaves users,
 * accounts and sessions as they were.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../src/core/store'
import type { AppSettings } from '../src/config'
import { signWebApp, signWidget, TEST_BOT_NAME, TEST_BOT_TOKEN, type TgUser } from '../../../test/stand-ins/telegram'
import { startSiteverify, type Siteverify } from '../../../test/stand-ins/captcha'
import { PROD_RECOVERY_KEY, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'
import { DEV_SECRET } from '../src/settings'

const TG = 'portico-test-tg-srv-00001'
const TG_CAPTCHA = 'portico-test-tg-cap-00001'
const CAP = 'portico-test-cap-srv-0001'
const CAP_BADSECRET = 'portico-test-cap-bad-0001'
const CAP_DOWN = 'portico-test-cap-down-001'
const SECRET = 'test-captcha-secret'
const origins = ['http://localhost:5173']

let store: Store
let s: TestServer
let sv: Siteverify
let uid = 5_000_000

const user = (extra: Partial<TgUser> = {}): TgUser => ({ id: ++uid, first_name: 'Ana', last_name: 'Lima', username: `ana${uid}`, ...extra })

beforeAll(async () => {
  store = await openTestStore()
  sv = await startSiteverify({ secret: SECRET })
  const base = { name: 'T', allowedOrigins: origins }
  const apps: AppSettings[] = [
    { ...base, id: TG, loginMethods: ['email', 'telegram'], telegramBotName: TEST_BOT_NAME, telegramBotToken: TEST_BOT_TOKEN },
    {
      ...base,
      id: TG_CAPTCHA,
      loginMethods: ['telegram'],
      telegramBotName: TEST_BOT_NAME,
      telegramBotToken: TEST_BOT_TOKEN,
      captcha: { enabled: true, siteKey: 'sk', secret: SECRET, verifyUrl: sv.url },
    },
    { ...base, id: CAP, loginMethods: ['email', 'wallet'], captcha: { enabled: true, siteKey: 'sk', provider: 'hcaptcha', secret: SECRET, verifyUrl: sv.url } },
    { ...base, id: CAP_BADSECRET, loginMethods: ['email'], captcha: { enabled: true, siteKey: 'sk', secret: 'wrong', verifyUrl: sv.url } },
    { ...base, id: CAP_DOWN, loginMethods: ['email'], captcha: { enabled: true, siteKey: 'sk', secret: SECRET, verifyUrl: 'http://127.0.0.1:9/siteverify' } },
  ]
  s = await startTestServer(store, { apps, appsFile: undefined })
})
afterAll(async () => {
  await s?.close()
  await sv?.close()
  await store?.close()
})

async function snapshot() {
  const [row] = await store.query(`SELECT (SELECT count(*)::int FROM users) AS users,
    (SELECT coalesce(md5(string_agg(user_id || type || identifier, ',' ORDER BY id)), '') FROM accounts) AS accounts,
    (SELECT count(*)::int FROM sessions) AS sessions`)
  return row
}
/** The call is refused with `status`/`code` and writes nothing. */
async function refused(path: string, body: unknown, status: number, code: string, opts: { appId?: string; token?: string } = {}) {
  const before = await snapshot()
  const r = await s.call(path, { body, appId: opts.appId ?? TG, token: opts.token })
  expect(r.status, JSON.stringify(r.body)).toBe(status)
  expect(r.body.code).toBe(code)
  expect(await snapshot()).toEqual(before)
  return r
}

describe('telegram', () => {
  it('widget login: new user, then the same user; the account has the spec fields', async () => {
    const u = user({ photo_url: 'https://t.me/i/userpic/320/ana.jpg' })
    const r = await s.call('/api/v1/telegram/authenticate', { appId: TG, body: { telegram_auth_result: signWidget(u) } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.is_new_user).toBe(true)
    expect(r.body.user.linked_accounts[0]).toMatchObject({
      type: 'telegram',
      telegram_user_id: String(u.id),
      first_name: 'Ana',
      last_name: 'Lima',
      username: u.username,
      photo_url: u.photo_url,
    })
    const again = await s.call('/api/v1/telegram/authenticate', { appId: TG, body: { telegram_auth_result: signWidget(u), mode: 'no-signup' } })
    expect(again.status).toBe(200)
    expect(again.body.is_new_user).toBe(false)
    expect(again.body.user.id).toBe(r.body.user.id)
  })

  it('Mini App launch data logs in (key from WebAppData)', async () => {
    const u = user()
    const r = await s.call('/api/v1/telegram/authenticate', { appId: TG, body: { telegram_web_app_data: signWebApp(u) } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.user.linked_accounts[0].telegram_user_id).toBe(String(u.id))
    // Widget data of the same user is the same account.
    const w = await s.call('/api/v1/telegram/authenticate', { appId: TG, body: { telegram_auth_result: signWidget(u) } })
    expect(w.body.user.id).toBe(r.body.user.id)
  })

  it('refuses forged hashes, another bot, tampered fields, stale and future data; no writes', async () => {
    const path = '/api/v1/telegram/authenticate'
    const good = signWidget(user())
    await refused(path, { telegram_auth_result: { ...good, hash: 'a'.repeat(64) } }, 401, 'invalid_credentials')
    await refused(path, { telegram_auth_result: { ...good, username: 'mallory' } }, 401, 'invalid_credentials')
    await refused(path, { telegram_auth_result: signWidget(user(), '7000000002:AAE_another-bot-token-0000000000000000') }, 401, 'invalid_credentials')
    const stale = await refused(path, { telegram_auth_result: signWidget(user(), TEST_BOT_TOKEN, Math.floor(Date.now() / 1000) - 86_401) }, 401, 'invalid_credentials')
    expect(stale.body.error).toMatch(/too old/)
    await refused(path, { telegram_auth_result: signWidget(user(), TEST_BOT_TOKEN, Math.floor(Date.now() / 1000) + 3600) }, 401, 'invalid_credentials')
    // Mini App: a widget-style key does not verify launch data, tampering is caught, stale refused.
    const web = signWebApp(user())
    await refused(path, { telegram_web_app_data: web.replace('Ana', 'Eve') }, 401, 'invalid_credentials')
    await refused(path, { telegram_web_app_data: signWebApp(user(), TEST_BOT_TOKEN, 1_000_000) }, 401, 'invalid_credentials')
    await refused(path, { telegram_web_app_data: 'hash=zz&user=%7B%7D' }, 401, 'invalid_credentials')
    // Shapes: neither or both forms, junk fields.
    await refused(path, {}, 422, 'invalid_data')
    await refused(path, { telegram_auth_result: good, telegram_web_app_data: web }, 422, 'invalid_data')
    await refused(path, { telegram_auth_result: { ...good, 'Bad-Key': 'x' } }, 422, 'invalid_data')
    await refused(path, { telegram_auth_result: 'nope' }, 422, 'invalid_data')
    await refused(path, { telegram_auth_result: { ...good, first_name: 'a\u0000b' } }, 422, 'invalid_data')
  })

  it('an app without telegram, or without a bot token: 403 Login with Telegram not allowed.', async () => {
    const r = await refused('/api/v1/telegram/authenticate', { telegram_auth_result: signWidget(user()) }, 403, 'disallowed_login_method', { appId: CAP })
    expect(r.body.error).toBe('Login with Telegram not allowed.')
  })

  it('captcha on: authenticate needs a captcha_token that passes siteverify', async () => {
    const path = '/api/v1/telegram/authenticate'
    await refused(path, { telegram_auth_result: signWidget(user()) }, 400, 'invalid_captcha', { appId: TG_CAPTCHA })
    await refused(path, { telegram_auth_result: signWidget(user()), captcha_token: 'forged' }, 400, 'invalid_captcha', { appId: TG_CAPTCHA })
    const ok = await s.call(path, { appId: TG_CAPTCHA, body: { telegram_auth_result: signWidget(user()), captcha_token: 'pass.sk.tg1' } })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  })

  it('link, unlink, transfer', async () => {
    const email = uniqueEmail('tg')
    const a = await s.emailLogin(email, { appId: TG })
    expect(a.status).toBe(200)
    const u = user()
    // Link needs a bearer.
    await refused('/api/v1/telegram/link', { telegram_auth_result: signWidget(u) }, 401, 'must_be_authenticated')
    await refused('/api/v1/telegram/link', { telegram_auth_result: { ...signWidget(u), hash: 'b'.repeat(64) } }, 401, 'invalid_credentials', { token: a.body.token! })
    const linked = await s.call('/api/v1/telegram/link', { appId: TG, token: a.body.token!, body: { telegram_auth_result: signWidget(u) } })
    expect(linked.status, JSON.stringify(linked.body)).toBe(200)
    expect(linked.body.user.linked_accounts.map((x: { type: string }) => x.type).sort()).toEqual(['email', 'telegram'])
    // A second Telegram account: one per type.
    await refused('/api/v1/telegram/link', { telegram_auth_result: signWidget(user()) }, 400, 'cannot_link_more_of_type', { token: a.body.token! })

    // Unlink: bad ids, someone else's account, then the real one.
    await refused('/api/v1/telegram/unlink', { telegram_user_id: 'abc' }, 422, 'invalid_data', { token: a.body.token! })
    await refused('/api/v1/telegram/unlink', { telegram_user_id: '1' }, 400, 'invalid_data', { token: a.body.token! })
    await refused('/api/v1/telegram/unlink', { telegram_user_id: String(u.id) }, 401, 'missing_or_invalid_token')
    const un = await s.call('/api/v1/telegram/unlink', { appId: TG, token: a.body.token!, body: { telegram_user_id: String(u.id) } })
    expect(un.status).toBe(200)
    expect(un.body.user.linked_accounts.map((x: { type: string }) => x.type)).toEqual(['email'])

    // Transfer: B owns a Telegram account; A linking it gets a nonce, then moves it.
    const v = user()
    const b = await s.call('/api/v1/telegram/authenticate', { appId: TG, body: { telegram_auth_result: signWidget(v) } })
    expect(b.status).toBe(200)
    const conflict = await s.call('/api/v1/telegram/link', { appId: TG, token: a.body.token!, body: { telegram_auth_result: signWidget(v) } })
    expect(conflict.body.code).toBe('account_transfer_required')
    const nonce = conflict.body.data.nonce as string
    expect(conflict.body.data.link_method ?? conflict.body.data.linkMethod).toBe('telegram')
    await refused('/api/v1/telegram/transfer', { nonce, telegram_auth_result: { ...signWidget(v), hash: 'c'.repeat(64) } }, 401, 'invalid_credentials', { token: a.body.token! })
    await refused('/api/v1/telegram/transfer', { nonce, telegram_auth_result: signWidget(user()) }, 401, 'invalid_credentials', { token: a.body.token! })
    await refused('/api/v1/telegram/transfer', { nonce: 'x'.repeat(32), telegram_web_app_data: signWebApp(v) }, 401, 'invalid_credentials', { token: a.body.token! })
    const moved = await s.call('/api/v1/telegram/transfer', { appId: TG, token: a.body.token!, body: { nonce, telegram_web_app_data: signWebApp(v) } })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body.user.id).toBe(a.body.user.id)
    expect(moved.body.user.linked_accounts.find((x: { type: string }) => x.type === 'telegram').telegram_user_id).toBe(String(v.id))
    // The nonce is single use.
    await refused('/api/v1/telegram/transfer', { nonce, telegram_auth_result: signWidget(v) }, 401, 'invalid_credentials', { token: a.body.token! })
  })
})

describe('captcha verification (siteverify stand-in)', () => {
  it('e-mail init: missing, forged and replayed tokens are refused; a fresh one passes with the app secret', async () => {
    const path = '/api/v1/passwordless/init'
    await refused(path, { email: uniqueEmail() }, 400, 'invalid_captcha', { appId: CAP })
    await refused(path, { email: uniqueEmail(), token: 'forged' }, 400, 'invalid_captcha', { appId: CAP })
    const n = sv.calls.length
    const ok = await s.call(path, { appId: CAP, body: { email: uniqueEmail(), token: 'pass.sk.e1' } })
    expect(ok.status).toBe(200)
    expect(sv.calls[n]).toMatchObject({ secret: SECRET, response: 'pass.sk.e1' })
    expect(sv.calls[n].remoteip).toBeTruthy()
    await refused(path, { email: uniqueEmail(), token: 'pass.sk.e1' }, 400, 'invalid_captcha', { appId: CAP })
  })

  it('wallet init takes the token too; a linking call (bearer) does not need one', async () => {
    const path = '/api/v1/siwe/init'
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const no = await s.call(path, { appId: CAP, body: { address } })
    expect(no.body.code).toBe('invalid_captcha')
    const ok = await s.call(path, { appId: CAP, body: { address, token: 'pass.sk.w1' } })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.nonce).toBeTruthy()
  })

  it('a wrong secret or an unreachable siteverify: 502 captcha_failure, nothing sent or written', async () => {
    const before = sv.calls.length
    const bad = await refused('/api/v1/passwordless/init', { email: uniqueEmail(), token: 'pass.sk.b1' }, 502, 'captcha_failure', { appId: CAP_BADSECRET })
    expect(bad.body.error).not.toMatch(/secret/i)
    expect(sv.calls.length).toBe(before + 1)
    await refused('/api/v1/passwordless/init', { email: uniqueEmail(), token: 'pass.sk.d1' }, 502, 'captcha_failure', { appId: CAP_DOWN })
  })

  it('the secret never reaches clients; production without a secret fails closed', async () => {
    const cfg = await s.call(`/api/v1/apps/${CAP}`, { appId: CAP })
    expect(cfg.status).toBe(200)
    expect(JSON.stringify(cfg.body)).not.toContain(SECRET)
    expect(cfg.body.captcha_enabled).toBe(true)
    const tg = await s.call(`/api/v1/apps/${TG}`, { appId: TG })
    expect(tg.body.telegram_bot_name).toBe(TEST_BOT_NAME)
    expect(tg.body.telegram_bot_id).toBe(Number(TEST_BOT_TOKEN.split(':')[0]))
    expect(JSON.stringify(tg.body)).not.toContain(TEST_BOT_TOKEN.split(':')[1])
    // Production with captcha on and no secret: fails closed (502), nothing written.
    const prod = await startTestServer(store, {
      dev: false,
      secret: DEV_SECRET, // the store's signing key is sealed with it
      wallets: { recoveryKey: PROD_RECOVERY_KEY },
      migrate: false,
      appsFile: undefined,
      apps: [{ id: 'portico-test-cap-prod-001', name: 'P', allowedOrigins: origins, loginMethods: ['wallet'], captcha: { enabled: true, siteKey: 'k' } }],
    })
    try {
      const r = await prod.call('/api/v1/siwe/init', { appId: 'portico-test-cap-prod-001', body: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', token: 'pass.k.1' } })
      expect(r.status).toBe(502)
      expect(r.body.code).toBe('captcha_failure')
    } finally {
      await prod.close()
    }
  })
})

describe('fuzz (fast-check): Telegram bodies', () => {
  it('hostile or forged Telegram data never answers 5xx and never writes', { timeout: 60_000 }, async () => {
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.constant('a\u0000b'), fc.constant('\ud800'), fc.double(), fc.boolean(), fc.constant(null))
    const widget = fc.oneof(
      fc.dictionary(fc.constantFrom('id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash', 'Bad', 'x_y'), value, { maxKeys: 8 }),
      fc.constant(null),
      fc.string({ maxLength: 20 }),
    )
    const webApp = fc.oneof(fc.string({ maxLength: 200 }), fc.constant(`${signWebApp(user())}x`), fc.constant(null), fc.integer())
    const path = fc.constantFrom('/api/v1/telegram/authenticate', '/api/v1/telegram/link', '/api/v1/telegram/transfer', '/api/v1/telegram/unlink')
    const login = await s.emailLogin(uniqueEmail('tgfuzz'), { appId: TG })
    await fc.assert(
      fc.asyncProperty(path, widget, webApp, fc.boolean(), fc.string({ maxLength: 30 }), async (p, w, d, bearer, extra) => {
        const before = await snapshot()
        const body = { telegram_auth_result: w, telegram_web_app_data: d, nonce: extra || undefined, telegram_user_id: extra, captcha_token: extra }
        const r = await s.call(p, { appId: TG, body, token: bearer ? login.body.token! : undefined })
        expect(r.status, `${p} ${JSON.stringify(body).slice(0, 200)}`).toBeLessThan(500)
        if (r.status >= 400) expect(await snapshot()).toEqual(before)
      }),
      { numRuns: 120, seed: 12 },
    )
  })
})
