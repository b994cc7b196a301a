/**
 * Cross-app login over HTTP: a provider-app user authorises a requester app (one-time PKCE
 * code), the requester logs in / links / unlinks with it; and the bad inputs: replayed code,
 * wrong verifier, another requester or provider, a foreign origin, no bearer — no partial writes.
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../src/core/store'
import { insertWalletAccount } from '../src/features/wallets/repo'
import { insertAccount } from '../src/core/identity/repo'
import { ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const PROVIDER = 'portico-test-xprovider-01'
const REQUESTER = 'portico-test-xrequest-001'
const READONLY = 'portico-test-xreadonly-01'
const FC = 'portico-test-farcaster-01'
let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store)
}, 60_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}
const count = async (sql: string, args: unknown[] = []) => Number((await store.query<{ n: number }>(sql, args))[0].n)

/** A provider user (e-mail) and a code they grant to the requester. */
async function grant(o: { token?: string | null; requester?: string; origin?: string } = {}) {
  const token = o.token ?? (await s.emailLogin(uniqueEmail('prov'), { appId: PROVIDER })).body.token
  const { verifier, challenge } = pkce()
  const r = await s.call('/api/v1/cross-app/authorize', {
    appId: PROVIDER,
    token,
    body: { requester_app_id: o.requester ?? REQUESTER, code_challenge: challenge, origin: o.origin ?? ORIGIN, action: 'login' },
  })
  return { r, token, verifier, code: r.body.code as string }
}

describe('cross-app', () => {
  it('a read-only provider connection cannot be transacted against (login still can); no code written', async () => {
    const apps = (await import('../src/config')).loadApps((await import('./helpers')).APPS_FILE)
    const provider = apps.get(PROVIDER)!
    const ro = await startTestServer(store, {
      apps: [...apps.all().filter((a) => a.id !== PROVIDER), { ...provider, crossApp: { allowedRequesters: [REQUESTER, READONLY] } }],
    })
    try {
      const token = (await ro.emailLogin(uniqueEmail('prov'), { appId: PROVIDER })).body.token
      const codes = await count('SELECT count(*)::int AS n FROM cross_app_codes')
      const body = (action: string, requester: string) => ({ requester_app_id: requester, code_challenge: pkce().challenge, origin: ORIGIN, action })
      const refused = await ro.call('/api/v1/cross-app/authorize', { appId: PROVIDER, token, body: body('transact', READONLY) })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toBe('Cannot transact against a read-only provider app')
      expect(await count('SELECT count(*)::int AS n FROM cross_app_codes')).toBe(codes)
      expect((await ro.call('/api/v1/cross-app/authorize', { appId: PROVIDER, token, body: body('login', READONLY) })).status).toBe(200)
      expect((await ro.call('/api/v1/cross-app/authorize', { appId: PROVIDER, token, body: body('transact', REQUESTER) })).status).toBe(200)
    } finally {
      await ro.close()
    }
  })

  it('lists connections and provider details', async () => {
    const c = await s.call(`/api/v1/apps/${REQUESTER}/cross-app/connections`, { appId: REQUESTER })
    expect(c.status).toBe(200)
    expect(c.body.connections).toEqual([
      expect.objectContaining({ provider_app_id: PROVIDER, provider_app_name: 'Provider App', read_only: false, transact_url: 'http://localhost:5173/oauth/transact' }),
    ])
    expect((await s.call(`/api/v1/apps/${READONLY}/cross-app/connections`, { appId: READONLY })).body.connections[0].read_only).toBe(true)
    expect((await s.call(`/api/v1/apps/${FC}/cross-app/connections`, { appId: FC })).body.connections).toEqual([])
    expect((await s.call(`/api/v1/apps/${PROVIDER}/cross-app/details`, { appId: PROVIDER })).body).toEqual({ name: 'Provider App', icon_url: null })
  })

  it('logs a new requester user in with the provider account, the same one again; the code is single use', async () => {
    const g = await grant()
    expect(g.r.status).toBe(200)
    const me = await s.call('/api/v1/users/me', { appId: PROVIDER, token: g.token })
    const subject = me.body.user?.id ?? me.body.id
    const login = await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })
    expect(login.status).toBe(200)
    expect(login.body.is_new_user).toBe(true)
    expect(login.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'cross_app', provider_app_id: PROVIDER, embedded_wallets: [], smart_wallets: [] }),
    ])
    if (subject) expect(login.body.user.linked_accounts[0].subject).toBe(subject)
    const sessions = await count('SELECT count(*)::int AS n FROM sessions')
    const replay = await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })
    expect(replay.status).toBe(401)
    expect(await count('SELECT count(*)::int AS n FROM sessions')).toBe(sessions)
    const again = await grant({ token: g.token })
    const second = await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: again.code, code_verifier: again.verifier } })
    expect(second.body.user.id).toBe(login.body.user.id)
    expect(second.body.is_new_user).toBe(false)
  })

  it('the cross_app account carries the provider user\'s embedded Ethereum wallets and smart wallets, refreshed at each login', async () => {
    const g = await grant()
    const me = await s.call('/api/v1/users/me', { appId: PROVIDER, token: g.token })
    const providerUser = (me.body.user?.id ?? me.body.id) as string
    const first = await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })
    expect(first.body.user.linked_accounts[0]).toMatchObject({ embedded_wallets: [], smart_wallets: [] })
    // The provider user gets an embedded Ethereum and Solana wallet and links a smart wallet
    // (rows as the wallet and smart-wallet features write them). The Solana wallet is not shown.
    const eth = '0x' + randomBytes(20).toString('hex')
    const sw = '0x' + randomBytes(20).toString('hex')
    const t = Math.floor(Date.now() / 1000)
    await store.transaction(async (tx) => {
      await insertWalletAccount(tx, PROVIDER, providerUser, { address: eth, chain_type: 'ethereum', wallet_client_type: 'privy' } as never, t)
      await insertWalletAccount(tx, PROVIDER, providerUser, { address: 'So1ana' + randomBytes(8).toString('hex'), chain_type: 'solana', wallet_client_type: 'privy' } as never, t)
      await insertAccount(tx, PROVIDER, providerUser, { type: 'smart_wallet', identifier: sw, data: { address: sw, smart_wallet_type: 'safe' }, transferable: false, linkMethod: 'siwe', displayName: sw } as never, t)
    })
    const again = await grant({ token: g.token })
    const second = await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: again.code, code_verifier: again.verifier } })
    expect(second.body.user.id).toBe(first.body.user.id)
    expect(second.body.user.linked_accounts[0]).toMatchObject({ embedded_wallets: [{ address: eth }], smart_wallets: [{ address: sw }] })
  })

  it('refuses a wrong verifier (code still usable), another requester, a foreign origin, no bearer, an unlisted provider; nothing written', async () => {
    const users = () => count('SELECT count(*)::int AS n FROM users WHERE app_id = $1', [REQUESTER])
    const before = await users()
    const g = await grant()
    const wrong = await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: pkce().verifier } })
    expect(wrong.status).toBe(401)
    // The code belongs to REQUESTER: another app cannot use it.
    const other = await s.call('/api/v1/cross-app/authenticate', { appId: READONLY, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })
    expect(other.status).toBe(401)
    // FC lists no provider.
    expect((await s.call('/api/v1/cross-app/authenticate', { appId: FC, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })).status).toBe(403)
    expect(await users()).toBe(before)
    expect((await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })).status).toBe(200)

    const codes = () => count('SELECT count(*)::int AS n FROM cross_app_codes')
    const n = await codes()
    expect((await grant({ origin: 'https://evil.example' })).r.status).toBe(400)
    // The provider allows REQUESTER only (allowedRequesters); FC lists no connection.
    expect((await grant({ requester: READONLY })).r.status).toBe(400)
    expect((await grant({ requester: FC })).r.status).toBe(400)
    const { challenge } = pkce()
    const noBearer = await s.call('/api/v1/cross-app/authorize', { appId: PROVIDER, body: { requester_app_id: REQUESTER, code_challenge: challenge, origin: ORIGIN } })
    expect(noBearer.status).toBe(401)
    const badChallenge = await s.call('/api/v1/cross-app/authorize', { appId: PROVIDER, token: g.token, body: { requester_app_id: REQUESTER, code_challenge: 'short', origin: ORIGIN } })
    expect(badChallenge.status).toBe(422)
    expect(await codes()).toBe(n)
    expect((await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: {} })).status).toBe(422)
    expect((await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: 'nope', code_verifier: 'x'.repeat(43) } })).status).toBe(401)
  })

  it('links to an e-mail user of the requester, refuses a second, unlinks; a code held by another user answers linked_to_another_user', async () => {
    const me = (await s.emailLogin(uniqueEmail('req'), { appId: REQUESTER })).body.token as string
    const g = await grant()
    expect((await s.call('/api/v1/cross-app/link', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })).status).toBe(401)
    const linked = await s.call('/api/v1/cross-app/link', { appId: REQUESTER, token: me, body: { provider_app_id: PROVIDER, code: g.code, code_verifier: g.verifier } })
    expect(linked.status).toBe(200)
    const acct = linked.body.user.linked_accounts.find((a: { type: string }) => a.type === 'cross_app')
    expect(acct.provider_app_id).toBe(PROVIDER)
    const g2 = await grant()
    const more = await s.call('/api/v1/cross-app/link', { appId: REQUESTER, token: me, body: { provider_app_id: PROVIDER, code: g2.code, code_verifier: g2.verifier } })
    expect(more.body.code).toBe('cannot_link_more_of_type')
    const un = await s.call('/api/v1/cross-app/unlink', { appId: REQUESTER, token: me, body: { provider_app_id: PROVIDER, subject: acct.subject } })
    expect(un.status).toBe(200)
    expect(un.body.user.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
    // That provider user now logs in as its own requester user; linking it elsewhere is refused (not transferable).
    const g3 = await grant({ token: g.token })
    expect((await s.call('/api/v1/cross-app/authenticate', { appId: REQUESTER, body: { provider_app_id: PROVIDER, code: g3.code, code_verifier: g3.verifier } })).status).toBe(200)
    const g4 = await grant({ token: g.token })
    const conflict = await s.call('/api/v1/cross-app/link', { appId: REQUESTER, token: me, body: { provider_app_id: PROVIDER, code: g4.code, code_verifier: g4.verifier } })
    expect(conflict.body.code).toBe('linked_to_another_user')
  })
})
