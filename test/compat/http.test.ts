/**
 * Wire compatibility (issue 31), HTTP half: the published client of this contract
 * (`@privy-io/js-sdk-core`, the pinned version) drives the reference server, unchanged but for its
 * base URL, over real HTTP with a real database (PGlite or the run's PostgreSQL template), real
 * signatures (viem accounts for SIWE, ed25519 for SIWS, a software WebAuthn authenticator for
 * passkeys, Telegram data signed with a test bot token, custom JWTs from the dev issuer). Every
 * flow the client offers that needs no outside service is one `it`, asserting what the client
 * returns (user ids, linked accounts, tokens) and what the server stored.
 *
 * One server and one store for the file; the client instances share nothing but the server.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import Privy, { InMemoryCache, createSiwsMessage } from '@privy-io/js-sdk-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { decodeJwt } from 'jose'
import type { Store } from '../../examples/server/src/core/store'
import type { AppSettings } from '../../examples/server/src/config'
import { issueDevToken } from '../../examples/server/src/dev-issuer'
import { ORIGIN, openTestStore, startTestServer, uniqueEmail, type TestServer } from '../../examples/server/test/helpers'
import { SoftAuthenticator } from '../../examples/server/test/soft-authenticator'
import { serve } from '@hono/node-server'
import { createOAuthIdp } from '../../examples/server/idp/server'
import { createCloudDrive } from '../../examples/stand-ins/cloud-drive/server'
import { createCoinbaseStandIn } from '../../examples/stand-ins/coinbase/server'
import { DEV_COINBASE_PUBLIC_JWK, DEV_FUNDING } from '../../examples/server/src/funding-config'
import { freePort } from '../../examples/server/test/helpers'
import { signWebApp, signWidget, TEST_BOT_NAME, TEST_BOT_TOKEN, type TgUser } from '../stand-ins/telegram'

const APP = 'portico-test-compat-00001'
const HOST = 'localhost:5173'

let store: Store
let s: TestServer

const compatApp: AppSettings = {
  id: APP,
  name: 'Compat',
  loginMethods: ['email', 'sms', 'wallet', 'guest', 'passkey', 'telegram', 'custom_auth', 'google', 'github'],
  oauth: {
    providers: {
      google: { clientId: 'portico-local-google', clientSecret: 'local-stand-in-secret' },
      github: { clientId: 'portico-local-github', clientSecret: 'local-stand-in-secret' },
    },
  },
  passkeysForSignupEnabled: true,
  allowedOrigins: [ORIGIN],
  legal: { termsAndConditionsUrl: 'https://example.com/terms', privacyPolicyUrl: 'https://example.com/privacy', requireUsersAcceptTerms: true },
  telegramBotName: TEST_BOT_NAME,
  telegramBotToken: TEST_BOT_TOKEN,
  customAuth: {
    publicJwk: {
      kty: 'EC',
      crv: 'P-256',
      x: '5uVL0hn2rZdTpt-Hl5609wJsLZUR0g7aMA3AgB4W-X4',
      y: 'XEYzQINhU451Tr6xbKiNJSt57H3sFwHtKHku9wUiYbI',
      kid: 'portico-dev-issuer-1',
      alg: 'ES256',
    },
    issuer: 'portico-dev-issuer',
    audience: 'portico-demo',
  },
  embeddedWallets: { createOnLogin: 'off' },
  funding: {
    methods: ['card', 'exchange'],
    moonpay: { useSandbox: true, paymentMethod: 'credit_debit_card', widgetUrl: 'http://127.0.0.1:9/moonpay', sandboxWidgetUrl: 'http://127.0.0.1:9/moonpay-sandbox' },
  },
}
const MFA_APP = 'portico-test-compatmfa-01'
const mfaApp: AppSettings = { id: MFA_APP, name: 'Compat MFA', loginMethods: ['email', 'sms', 'passkey'], allowedOrigins: [ORIGIN], mfa: { methods: ['sms', 'passkey'] } } as AppSettings

/**
 * The client runs here as it would in a page on ORIGIN: its requests to the server carry that
 * Origin (a browser adds it; Node's fetch does not), and the names of the headers it sends are
 * kept for the CORS check. The client takes `globalThis.fetch` when it is built.
 */
const realFetch = globalThis.fetch
const sentHeaders = new Set<string>()
const browserLikeFetch: typeof fetch = (input, init) => {
  const req = new Request(input, init)
  if (!req.url.startsWith(s.url)) return realFetch(req)
  const headers = new Headers(init?.headers ?? req.headers)
  for (const name of headers.keys()) sentHeaders.add(name)
  if (!headers.has('origin')) headers.set('origin', ORIGIN)
  return realFetch(req, { ...init, headers })
}

/** The OAuth provider stand-in (examples/server/idp): the providers' documented endpoints on loopback. */
let idpUrl: string
let closeIdp: () => Promise<void>

/** The cloud-drive stand-in (Google Drive's OAuth and files API) for recovery sign-in; the server reads its URL from the environment. */
let closeDrive: () => Promise<void>
let closeCoinbase: () => Promise<void>
const driveEnvBefore = process.env.PORTICO_CLOUD_DRIVE_BASE_URL

beforeAll(async () => {
  store = await openTestStore()
  const drivePort = await freePort()
  const driveUrl = `http://127.0.0.1:${drivePort}`
  const drive = createCloudDrive({ origin: driveUrl, cloudkit: { container: 'iCloud.dev.portico.recovery', apiToken: 'local-stand-in-cloudkit-api-token', signInCallback: `${ORIGIN}/` } })
  const driveServer = serve({ fetch: drive.app.fetch, port: drivePort, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (driveServer.listening ? r() : driveServer.once('listening', () => r())))
  closeDrive = () => new Promise<void>((r) => driveServer.close(() => r()))
  process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveUrl
  // The Coinbase Onramp stand-in (session tokens, transaction status), named in the app's funding settings.
  const coinbase = createCoinbaseStandIn({ keys: { [DEV_FUNDING.coinbase.apiKeyName]: { ...DEV_COINBASE_PUBLIC_JWK } }, projectId: DEV_FUNDING.coinbase.projectId })
  const cbServer = serve({ fetch: coinbase.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (cbServer.listening ? r() : cbServer.once('listening', () => r())))
  const cbUrl = `http://127.0.0.1:${(cbServer.address() as { port: number }).port}`
  closeCoinbase = () => new Promise<void>((r) => cbServer.close(() => r()))
  ;(compatApp.funding as { coinbase?: unknown }).coinbase = { apiUrl: cbUrl, payUrl: cbUrl }
  const port = await freePort()
  idpUrl = `http://127.0.0.1:${port}`
  const idp = await createOAuthIdp({ origin: idpUrl })
  const idpServer = serve({ fetch: idp.app.fetch, port, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (idpServer.listening ? r() : idpServer.once('listening', () => r())))
  closeIdp = () => new Promise<void>((r) => idpServer.close(() => r()))
  s = await startTestServer(store, { apps: [compatApp, mfaApp], appsFile: undefined, oauth: { timeoutMs: 5000, env: { PORTICO_OAUTH_BASE_URL: idpUrl } } })
  globalThis.fetch = browserLikeFetch
})
afterAll(async () => {
  globalThis.fetch = realFetch
  if (driveEnvBefore === undefined) delete process.env.PORTICO_CLOUD_DRIVE_BASE_URL
  else process.env.PORTICO_CLOUD_DRIVE_BASE_URL = driveEnvBefore
  await s?.close()
  await closeIdp?.()
  await closeDrive?.()
  await closeCoinbase?.()
  await store?.close()
})

/** The browser's part of an OAuth login: the provider's consent (the stand-in's form), its redirect to the server's callback, back to the app. */
async function consent(authorizeUrl: string, user: string) {
  const url = new URL(authorizeUrl)
  const form = new URLSearchParams(url.searchParams)
  form.set('user', user)
  form.set('decision', 'allow')
  const toCallback = await realFetch(url.origin + url.pathname, { method: 'POST', body: form, redirect: 'manual', headers: { origin: idpUrl } })
  expect(toCallback.status).toBe(303)
  const back = await realFetch(toCallback.headers.get('location')!, { redirect: 'manual' })
  expect(back.status).toBe(303)
  const page = new URL(back.headers.get('location')!)
  return { code: page.searchParams.get('privy_oauth_code')!, state: page.searchParams.get('privy_oauth_state')! }
}

/** A fresh client (its own storage: a new device). */
const client = (appId = APP) => new Privy({ appId, storage: new InMemoryCache(), baseUrl: s.url } as ConstructorParameters<typeof Privy>[0])

async function emailUser(p = client(), email = uniqueEmail('compat')) {
  await p.auth.email.sendCode(email)
  const r = await p.auth.email.loginWithCode(email, await s.code(email))
  return { p, email, r }
}

const accountsOf = (u: { linked_accounts: any[] }, type: string) => u.linked_accounts.filter((a) => a.type === type)

let tgId = 6_100_000 + (process.pid % 1000) * 100
const tgUser = (): TgUser => ({ id: ++tgId, first_name: 'Ana', username: `ana${tgId}` })

let phoneN = 0
const uniquePhone = () => `+1415555${String(1000 + ((process.pid + phoneN++ * 7) % 9000)).padStart(4, '0')}`

describe('the published client against the reference server (HTTP)', () => {
  it('initialises: reads the app config', async () => {
    const p = client()
    await p.initialize()
    const cfg = p.app.getConfig()
    expect(cfg?.id).toBe(APP)
    expect(cfg?.name).toBe('Compat')
  })

  it('e-mail: send a code, log in; the tokens are stored and name the user', async () => {
    const { p, email, r } = await emailUser()
    expect(r.user.id).toMatch(/^did:portico:/)
    expect(r.is_new_user).toBe(true)
    expect(accountsOf(r.user, 'email')[0].address).toBe(email)
    const token = await p.getAccessToken()
    expect(decodeJwt(token!).sub).toBe(r.user.id)
    expect(await p.getIdentityToken()).toBe(r.identity_token)
  })

  it('session refresh (user.get) and GET /users/me (user.refreshUser) keep the identity token', async () => {
    const { p, r } = await emailUser()
    const got = await p.user.get()
    expect(got.user.id).toBe(r.user.id)
    const idBefore = await p.getIdentityToken()
    expect(idBefore).toBeTruthy()
    const me = await p.user.refreshUser()
    expect(me.user.id).toBe(r.user.id)
    const idAfter = await p.getIdentityToken()
    expect(idAfter).toBeTruthy()
    expect(decodeJwt(idAfter!).sub).toBe(r.user.id)
  })

  it('an expired access token is refreshed by the client before its call (two hours later)', async () => {
    const { p, r } = await emailUser()
    const first = (await p.getAccessToken())!
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 3600_000 })
    try {
      const me = await p.user.refreshUser()
      expect(me.user.id).toBe(r.user.id)
      const second = (await p.getAccessToken())!
      expect(second).not.toBe(first)
      expect(decodeJwt(second).exp! * 1000).toBeGreaterThan(Date.now())
    } finally {
      vi.useRealTimers()
    }
  })

  it('accept terms answers the user', async () => {
    const { p, r } = await emailUser()
    expect(r.user.has_accepted_terms).toBe(false)
    const { user } = await p.user.acceptTerms()
    expect(user.id).toBe(r.user.id)
    expect(user.has_accepted_terms).toBe(true)
  })

  it('analytics events (event_name) are recorded', async () => {
    const p = client()
    await p.initialize()
    const name = `compat_event_${Date.now()}`
    p.track({ name, properties: { a: 1 } })
    await expect.poll(async () => (await store.query('SELECT count(*)::int AS n FROM analytics_events WHERE event_name = $1', [name]))[0].n, { timeout: 10_000 }).toBe(1)
  })

  it('e-mail: link an address to an SMS user, update it, unlink it', async () => {
    const p = client()
    const phone = uniquePhone()
    await p.auth.phone.sendCode(phone)
    const r = await p.auth.phone.loginWithCode(phone, await s.code(phone))
    const first = uniqueEmail('compat-link')
    await p.auth.email.sendCode(first)
    const linked = await p.auth.email.linkWithCode(first, await s.code(first))
    expect(linked.user.id).toBe(r.user.id)
    expect(accountsOf(linked.user, 'email').map((a) => a.address)).toEqual([first])
    expect(decodeJwt(linked.identity_token!).sub).toBe(r.user.id)
    const next = uniqueEmail('compat-upd')
    await p.auth.email.sendCode(next)
    const updated = await p.auth.email.updateEmail({ oldEmailAddress: first, newEmailAddress: next, code: await s.code(next) })
    expect(accountsOf(updated.user, 'email').map((a) => a.address)).toEqual([next])
    const unlinked = await p.auth.email.unlink(next)
    expect(accountsOf(unlinked.user, 'email')).toHaveLength(0)
    expect(accountsOf(unlinked.user, 'phone')).toHaveLength(1)
  })

  it('SMS: log in, link, update, unlink', async () => {
    const p = client()
    const phone = uniquePhone()
    await p.auth.phone.sendCode(phone)
    const r = await p.auth.phone.loginWithCode(phone, await s.code(phone))
    expect(accountsOf(r.user, 'phone')[0].number).toBeTruthy()
    const { p: q, r: er } = await emailUser()
    const other = uniquePhone()
    await q.auth.phone.sendCode(other)
    const linked = await q.auth.phone.linkWithCode(other, await s.code(other))
    expect(linked.user.id).toBe(er.user.id)
    expect(accountsOf(linked.user, 'phone')).toHaveLength(1)
    const next = uniquePhone()
    await q.auth.phone.sendCode(next)
    const updated = await q.auth.phone.updatePhone({ oldPhoneNumber: other, newPhoneNumber: next, code: await s.code(next) })
    expect(accountsOf(updated.user, 'phone')).toHaveLength(1)
    const unlinked = await q.auth.phone.unlink(next)
    expect(accountsOf(unlinked.user, 'phone')).toHaveLength(0)
  })

  it('SIWE: log in with an Ethereum wallet; link one to an e-mail user, unlink it', async () => {
    const acct = privateKeyToAccount(generatePrivateKey())
    const p = client()
    const wallet = { address: acct.address, chainId: 'eip155:1', walletClientType: 'metamask', connectorType: 'injected' as const }
    const { message } = await p.auth.siwe.init(wallet, HOST, ORIGIN)
    const r = await p.auth.siwe.loginWithSiwe(await acct.signMessage({ message }))
    expect(accountsOf(r.user, 'wallet')[0].address.toLowerCase()).toBe(acct.address.toLowerCase())
    expect(r.is_new_user).toBe(true)
    const { p: q, r: er } = await emailUser()
    const second = privateKeyToAccount(generatePrivateKey())
    const init2 = await q.auth.siwe.init({ address: second.address, chainId: 'eip155:1' }, HOST, ORIGIN)
    const linked = await q.auth.siwe.linkWithSiwe(await second.signMessage({ message: init2.message }))
    expect(linked.user.id).toBe(er.user.id)
    expect(accountsOf(linked.user, 'wallet')[0].address.toLowerCase()).toBe(second.address.toLowerCase())
    const unlinked = await q.auth.siwe.unlinkWallet(second.address)
    expect(accountsOf(unlinked.user, 'wallet')).toHaveLength(0)
  })

  it('SIWS: log in with a Solana wallet; link one to an e-mail user, unlink it', async () => {
    const key = () => {
      const secret = ed25519.utils.randomSecretKey()
      return { secret, address: base58.encode(ed25519.getPublicKey(secret)) }
    }
    const sign = (m: string, k: { secret: Uint8Array }) => Buffer.from(ed25519.sign(new TextEncoder().encode(m), k.secret)).toString('base64')
    const k = key()
    const p = client()
    const { nonce } = await p.auth.siws.fetchNonce({ address: k.address })
    const message = createSiwsMessage({ address: k.address, nonce, domain: HOST, uri: ORIGIN })
    const r = await p.auth.siws.login({ message, signature: sign(message, k), walletClientType: 'phantom', connectorType: 'solana_adapter' })
    expect(accountsOf(r.user, 'wallet')[0]).toMatchObject({ address: k.address, chain_type: 'solana' })
    const { p: q, r: er } = await emailUser()
    const k2 = key()
    const n2 = await q.auth.siws.fetchNonce({ address: k2.address })
    const m2 = createSiwsMessage({ address: k2.address, nonce: n2.nonce, domain: HOST, uri: ORIGIN })
    const linked = await q.auth.siws.link({ message: m2, signature: sign(m2, k2) })
    expect(linked.user.id).toBe(er.user.id)
    expect(accountsOf(linked.user, 'wallet').map((a) => a.address)).toEqual([k2.address])
    const unlinked = await q.auth.siws.unlink({ address: k2.address })
    expect(accountsOf(unlinked.user, 'wallet')).toHaveLength(0)
  })

  it('custom JWT: log in with a host token, then link another to an e-mail user', async () => {
    const sub = `compat-${Date.now()}`
    const p = client()
    const r = await p.auth.customProvider.syncWithToken(await issueDevToken(sub))
    expect(accountsOf(r.user, 'custom_auth')[0].custom_user_id).toBe(sub)
    const { p: q, r: er } = await emailUser()
    const linked = await q.auth.customProvider.linkWithToken(await issueDevToken(`${sub}-2`))
    expect(linked.user.id).toBe(er.user.id)
    expect(accountsOf(linked.user, 'custom_auth')[0].custom_user_id).toBe(`${sub}-2`)
  })

  it('guest: creates a guest user', async () => {
    const p = client()
    const r = await p.auth.guest.create()
    expect(r.user.id).toMatch(/^did:portico:/)
    expect(r.user.is_guest).toBe(true)
  })

  it('Telegram: login widget, Mini App data as an object, link, unlink', async () => {
    const p = client()
    const u = tgUser()
    const r = await p.auth.telegram.authenticate({ telegramAuthResult: signWidget(u) as any })
    expect(accountsOf(r.user, 'telegram')[0].telegram_user_id).toBe(String(u.id))
    // Mini App launch data, parsed into an object as the client documents it.
    const u2 = tgUser()
    const webApp = Object.fromEntries(new URLSearchParams(signWebApp(u2)))
    const r2 = await client().auth.telegram.authenticate({ telegramWebAppData: { ...webApp, auth_date: Number(webApp.auth_date) } as any })
    expect(accountsOf(r2.user, 'telegram')[0].telegram_user_id).toBe(String(u2.id))
    const { p: q, r: er } = await emailUser()
    const u3 = tgUser()
    const w3 = Object.fromEntries(new URLSearchParams(signWebApp(u3)))
    const linked = await q.auth.telegram.link({ telegramWebAppData: { ...w3, auth_date: Number(w3.auth_date) } as any })
    expect(linked.user.id).toBe(er.user.id)
    expect(accountsOf(linked.user, 'telegram')[0].telegram_user_id).toBe(String(u3.id))
    const unlinked = await q.auth.telegram.unlink({ telegramUserId: String(u3.id) })
    expect(accountsOf(unlinked.user, 'telegram')).toHaveLength(0)
    void p
  })

  it('passkeys: sign up, log in on a new device, link a second to an e-mail user', async () => {
    const auth = new SoftAuthenticator()
    const p = client()
    const signup = await p.auth.passkey.generateSignupOptions()
    const created = auth.create(signup.options as any, { origin: ORIGIN })
    const r = await p.auth.passkey.signupWithPasskey(created as any)
    expect(accountsOf(r.user, 'passkey')[0].credential_id).toBe(created.id)
    const q = client()
    const opts = await q.auth.passkey.generateAuthenticationOptions()
    const assertion = auth.get({ challenge: opts.options.challenge, rpId: opts.options.rp_id ?? (opts.options as any).rpId }, { origin: ORIGIN })
    const again = await q.auth.passkey.loginWithPasskey(assertion as any, opts.options.challenge)
    expect(again.user.id).toBe(r.user.id)
    const { p: e, r: er } = await emailUser()
    const linkOpts = await e.auth.passkey.generateRegistrationOptions()
    const c2 = auth.create(linkOpts.options as any, { origin: ORIGIN })
    const linked = await e.auth.passkey.linkWithPasskey(c2 as any)
    expect(linked.user.id).toBe(er.user.id)
    expect(accountsOf(linked.user, 'passkey')[0].credential_id).toBe(c2.id)
  })

  it('OAuth: log in with a provider (PKCE by the client), link another to an e-mail user, unlink it', async () => {
    const p = client()
    const user = `compat${Date.now().toString(36)}`
    const { url } = await p.auth.oauth.generateURL('google', `${ORIGIN}/login`)
    const back = await consent(url, user)
    const r = await p.auth.oauth.loginWithCode(back.code, back.state, 'google')
    expect(accountsOf(r.user, 'google_oauth')[0].email).toBe(`${user}@example.com`)
    expect(decodeJwt((await p.getAccessToken())!).sub).toBe(r.user.id)
    const { p: q, r: er } = await emailUser()
    const gh = await q.auth.oauth.generateURL('github', `${ORIGIN}/login`)
    const ghBack = await consent(gh.url, `${user}gh`)
    const linked = await q.auth.oauth.linkWithCode(ghBack.code, ghBack.state, 'github')
    expect(linked.user.id).toBe(er.user.id)
    const acct = accountsOf(linked.user, 'github_oauth')[0]
    expect(acct.username).toBe(`${user}gh`)
    const unlinked = await q.auth.oauth.unlink('github', acct.subject)
    expect(accountsOf(unlinked.user, 'github_oauth')).toHaveLength(0)
  })

  it('recovery sign-in (Google Drive, PKCE by the client): the drive token for the user', async () => {
    const { p } = await emailUser()
    const { url } = await p.recovery.auth.generateURL(`${ORIGIN}/?portico_recovery_popup=1`)
    const u = new URL(url)
    const form = new URLSearchParams(u.searchParams)
    form.set('login_hint', 'alice')
    form.set('decision', 'allow')
    const toCallback = await realFetch(u.origin + u.pathname, { method: 'POST', body: form, redirect: 'manual' })
    expect(toCallback.status).toBe(302)
    const back = await realFetch(toCallback.headers.get('location')!, { redirect: 'manual' })
    const page = new URL(back.headers.get('location')!)
    expect(page.searchParams.get('privy_oauth_provider')).toBe('google-drive')
    const tokens = await p.recovery.auth.authorize(page.searchParams.get('privy_oauth_code')!, page.searchParams.get('privy_oauth_state')!)
    expect(tokens.access_token).toEqual(expect.any(String))
    // The token opens the user's drive (the stand-in's Drive v3 files list).
    const files = await realFetch(`${u.origin}/google/drive/v3/files?spaces=appDataFolder`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(files.status).toBe(200)
  })

  it('MFA calls outside the frame: an SMS code for verification, passkey options (snake_case)', async () => {
    const p = client(MFA_APP)
    const email = uniqueEmail('compat-mfa')
    await p.auth.email.sendCode(email)
    const r = await p.auth.email.loginWithCode(email, await s.code(email))
    const token = (await p.getAccessToken())!
    // Enrolment is the frame's (the other half of this suite); here it goes over HTTP directly.
    const phone = uniquePhone()
    expect((await s.call('/api/v1/mfa/passwordless_sms/init', { appId: MFA_APP, token, body: { action: 'enroll', phoneNumber: phone } })).status).toBe(200)
    expect((await s.call('/api/v1/mfa/passwordless_sms/enroll', { appId: MFA_APP, token, body: { phoneNumber: phone, code: await s.code(phone) } })).status).toBe(200)
    const refreshed = await p.user.get()
    expect(refreshed.user.mfa_methods.map((m: { type: string }) => m.type)).toEqual(['sms'])
    expect(await p.mfa.sms.sendCode({ action: 'verify' })).toEqual({ success: true })
    const code = await s.code(phone)
    expect((await s.call('/api/v1/mfa/passwordless_sms/verify', { appId: MFA_APP, token, body: { code } })).status).toBe(200)
    // Passkey MFA: enrol a linked passkey, then the client asks for options.
    const auth = new SoftAuthenticator()
    const linkOpts = await p.auth.passkey.generateRegistrationOptions()
    const cred = auth.create(linkOpts.options as any, { origin: ORIGIN })
    await p.auth.passkey.linkWithPasskey(cred as any)
    expect((await s.call('/api/v1/mfa/passkeys/enroll', { appId: MFA_APP, token, body: { credential_ids: [cred.id] } })).status).toBe(200)
    const mfaOpts = await p.mfa.passkey.generateAuthenticationOptions({})
    expect(mfaOpts.options.allow_credentials?.map((c) => c.id)).toEqual([cred.id])
    expect(mfaOpts.options.rp_id).toBe('localhost')
    expect(r.user.id).toBe(refreshed.user.id)
  })

  it('funding: MoonPay widget URL signed for the user', async () => {
    const { p } = await emailUser()
    const address = privateKeyToAccount(generatePrivateKey()).address
    const signed = await p.funding.moonpay.sign({ address, useSandbox: true, config: { currencyCode: 'ETH_ETHEREUM', quoteCurrencyAmount: 0.01, paymentMethod: 'credit_debit_card', uiConfig: { accentColor: '#5b4cdb', theme: 'light' } } } as any)
    const url = new URL(signed.signedUrl)
    expect(url.searchParams.get('walletAddress')).toBe(address)
    expect(url.searchParams.get('currencyCode')).toBe('eth_ethereum')
    expect(url.searchParams.get('signature')).toBeTruthy()
    expect(typeof signed.externalTransactionId).toBe('string')
  })

  it('funding: a Coinbase Onramp session for the user, and its status', async () => {
    const { p } = await emailUser()
    const address = privateKeyToAccount(generatePrivateKey()).address
    const session = await p.funding.coinbase.initOnRampSession({ addresses: [{ address, blockchains: ['ethereum'] }], assets: ['ETH'] } as any)
    expect(session.session_token).toEqual(expect.any(String))
    expect(session.app_id).toBe(DEV_FUNDING.coinbase.projectId)
    const status = await p.funding.coinbase.getStatus(session.partner_user_id)
    expect(['pending', 'success', 'failure']).toContain(status.status)
  })

  it('cross-app connections of the app (none configured)', async () => {
    const { p } = await emailUser()
    expect(await p.crossApp.getCrossAppConnections()).toEqual({ connections: [] })
  })

  it('delegated actions: revoke reaches the server (nothing delegated: the spec error)', async () => {
    const { p } = await emailUser()
    // Delegating a wallet is the frame's (the other half); with none, the server says so.
    await expect(p.delegated.revoke()).rejects.toMatchObject({ code: 'invalid_data', message: 'User has no delegated wallets to revoke.' })
  })

  it('mode no-signup refuses an unknown user with the spec code', async () => {
    const p = client()
    const email = uniqueEmail('compat-nosignup')
    await p.auth.email.sendCode(email)
    await expect(p.auth.email.loginWithCode(email, await s.code(email), 'no-signup')).rejects.toMatchObject({ code: 'user_does_not_exist' })
    await expect(p.auth.customProvider.syncWithToken(await issueDevToken(`nobody-${Date.now()}`), undefined, 'no-signup')).rejects.toMatchObject({ code: 'user_does_not_exist' })
  })

  it('CORS: a preflight from the app origin allows every header the client sent', async () => {
    const { p } = await emailUser()
    await p.user.refreshUser()
    expect(sentHeaders.has('privy-retry-attempt')).toBe(true)
    expect(sentHeaders.has('authorization')).toBe(true)
    const names = [...sentHeaders].filter((h) => !['accept', 'content-type', 'origin'].includes(h)).concat('content-type')
    const res = await realFetch(`${s.url}/api/v1/passwordless/init`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': names.join(',') },
    })
    expect(res.status).toBeLessThan(300)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/)
    for (const h of names) expect(allowed, h).toContain(h)
  })

  it('refuses what does not verify, with a clear error and nothing written', async () => {
    const users = async () => (await store.query('SELECT count(*)::int AS n FROM users'))[0].n
    const before = await users()
    // A passkey registration in the client's shape answering a challenge the server never issued.
    const auth = new SoftAuthenticator()
    const p = client()
    const opts = await p.auth.passkey.generateSignupOptions()
    const forged = auth.create(opts.options as any, { origin: ORIGIN, challenge: Buffer.from('not-issued-by-the-server').toString('base64url') })
    await expect(p.auth.passkey.signupWithPasskey(forged as any)).rejects.toMatchObject({ code: 'invalid_credentials' })
    // The same registration again after it succeeded: the challenge is spent.
    const good = auth.create(opts.options as any, { origin: ORIGIN })
    await p.auth.passkey.signupWithPasskey(good as any)
    await expect(client().auth.passkey.signupWithPasskey(good as any)).rejects.toMatchObject({ code: 'invalid_credentials' })
    // Mini App data as an object with a changed field.
    const w = Object.fromEntries(new URLSearchParams(signWebApp(tgUser())))
    await expect(client().auth.telegram.authenticate({ telegramWebAppData: { ...w, auth_date: Number(w.auth_date) + 1 } as any })).rejects.toMatchObject({ code: 'invalid_credentials' })
    // A host token signed by someone else.
    const { SignJWT, generateKeyPair } = await import('jose')
    const { privateKey } = await generateKeyPair('ES256')
    const foreign = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setSubject('x').setIssuer('portico-dev-issuer').setAudience('portico-demo').setExpirationTime('5m').sign(privateKey)
    const { p: q } = await emailUser()
    await expect(q.auth.customProvider.linkWithToken(foreign)).rejects.toMatchObject({ code: 'invalid_credentials' })
    expect(await users()).toBe(before + 2) // the passkey user and the e-mail user only
    // Analytics without a name, or with two that differ.
    expect((await s.call('/api/v1/analytics_events', { appId: APP, body: { payload: {} } })).status).toBe(422)
    expect((await s.call('/api/v1/analytics_events', { appId: APP, body: { eventName: 'a', event_name: 'b' } })).status).toBe(422)
    // Malformed shapes: 422 with the field named.
    const bad = await s.call('/api/v1/passkeys/register', { appId: APP, body: { authenticator_response: { id: 'x', raw_id: 'x', type: 'public-key', response: { client_data_json: 'eyJ9' } } } })
    expect(bad.status).toBe(422)
    expect(bad.body.error).toContain('attestationObject')
    const tg = await s.call('/api/v1/telegram/authenticate', { appId: APP, body: { telegram_web_app_data: { 'Bad-Key': 1 } } })
    expect(tg.status).toBe(422)
  })

  it('logout revokes the session on the server', async () => {
    const { p, r } = await emailUser()
    const before = (await store.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [r.user.id]))[0].n
    expect(before).toBeGreaterThan(0)
    await p.auth.logout()
    expect(await p.getAccessToken()).toBeNull()
    await expect.poll(async () => (await store.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [r.user.id]))[0].n, { timeout: 10_000 }).toBe(0)
  })
})
