/**
 * The admin API (issue 32) against a real server and database: who may call it (API keys and
 * their scopes, operators of the console app and their roles, user tokens of other apps),
 * apps kept in the database (seeded from apps.json, validated, audited, applied at once),
 * users (search, view, revoke sessions, delete, export, import of 10,000).
 */
import * as webhooks from '../src/features/webhooks/service'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Store } from '../src/core/store'
import { CONSOLE_APP_ID } from '../src/features/admin/apps'
import { devKeys, DEMO, ORIGIN, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'
import { SoftAuthenticator } from './soft-authenticator'

const ENV_KEY = 'portico_admin_env-bootstrap-key-for-tests-000000000'
const OWNER = 'owner@admin.example.com'
const XPD = 'portico-test-xpd-00000001'
const XPD_SECRET = 'xpd-test-app-secret-not-for-production-000000'

let store: Store
let s: TestServer
beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { admin: { ownerEmail: OWNER, apiKey: ENV_KEY, consoleOrigins: [ORIGIN] } })
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

/** An admin API call with a bearer credential (a key or an operator's token). */
const admin = (path: string, cred: string | null, o: { body?: unknown; method?: string } = {}) =>
  s.call(`/admin/v1${path}`, { appId: null, token: cred, body: o.body, method: o.method })

async function key(scopes: string[]): Promise<string> {
  const r = await admin('/api_keys', ENV_KEY, { body: { name: `k ${scopes.join(' ')}`, scopes } })
  expect(r.status).toBe(201)
  expect(r.body.key).toMatch(/^portico_admin_[A-Za-z0-9_-]{43}$/)
  return r.body.key
}

async function operatorToken(email: string): Promise<string> {
  const r = await s.emailLogin(email, { appId: CONSOLE_APP_ID })
  expect(r.status).toBe(200)
  return r.body.token as string
}

const basic = (appId: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}` })

describe('who may call the admin API', () => {
  it('no credential, a wrong key, a user token of another app: 401', async () => {
    expect((await admin('/apps', null)).status).toBe(401)
    expect((await admin('/apps', 'portico_admin_not-a-key-at-all-000000000000000000000')).status).toBe(401)
    const user = await s.emailLogin(uniqueEmail('notadmin'))
    expect(user.status).toBe(200)
    const r = await admin('/apps', user.body.token)
    expect([r.status, r.body.code]).toEqual([401, 'missing_or_invalid_token'])
  })

  it('a key acts within its scopes only; a key never holds more than its creator; a revoked key is refused', async () => {
    const read = await key(['apps:read'])
    expect((await admin('/apps', read)).status).toBe(200)
    const w = await admin('/apps', read, { body: { id: 'portico-test-scope-000001', name: 'S', loginMethods: ['email'] } })
    expect([w.status, w.body.code, w.body.data]).toEqual([403, 'forbidden', { required_scope: 'apps:write' }])
    expect((await admin(`/apps/${DEMO}/users`, read)).status).toBe(403)
    expect((await admin('/operators', read)).status).toBe(403)
    // keys:write with apps:read cannot mint a users:write key.
    const minter = await key(['keys:write', 'apps:read'])
    expect((await admin('/api_keys', minter, { body: { name: 'x', scopes: ['users:write'] } })).status).toBe(403)
    const listed = await admin('/api_keys', ENV_KEY)
    const id = listed.body.api_keys.find((k: { name: string }) => k.name === 'k apps:read').id
    expect(JSON.stringify(listed.body)).not.toContain('portico_admin_')
    expect((await admin(`/api_keys/${id}`, ENV_KEY, { method: 'DELETE' })).status).toBe(200)
    expect((await admin('/apps', read)).status).toBe(401)
  })

  it('operators: the owner from PORTICO_ADMIN_OWNER_EMAIL; a viewer reads and cannot write; an admin cannot manage operators; others are refused', async () => {
    const owner = await operatorToken(OWNER)
    expect((await admin('/operators', owner)).body.operators).toEqual([expect.objectContaining({ email: OWNER, role: 'owner' })])
    const viewerEmail = uniqueEmail('viewer')
    const adminEmail = uniqueEmail('admin')
    expect((await admin('/operators', owner, { body: { email: viewerEmail.toUpperCase(), role: 'viewer' } })).status).toBe(200)
    expect((await admin('/operators', owner, { body: { email: adminEmail, role: 'admin' } })).status).toBe(200)

    const viewer = await operatorToken(viewerEmail)
    expect((await admin('/apps', viewer)).status).toBe(200)
    expect((await admin(`/apps/${DEMO}/users`, viewer)).status).toBe(200)
    const writes = [
      admin(`/apps/${DEMO}`, viewer, { method: 'PATCH', body: { name: 'Changed by a viewer' } }),
      admin('/apps', viewer, { body: { id: 'portico-test-viewer-00001', name: 'V', loginMethods: ['email'] } }),
      admin(`/apps/${DEMO}/secret`, viewer, { method: 'POST' }),
      admin(`/apps/${DEMO}/users/did:portico:nobody/sessions/revoke`, viewer, { method: 'POST' }),
      admin(`/apps/${DEMO}/users/did:portico:nobody`, viewer, { method: 'DELETE' }),
      admin('/api_keys', viewer, { body: { name: 'v', scopes: ['apps:read'] } }),
      admin('/operators', viewer, { body: { email: 'x@example.com', role: 'owner' } }),
    ]
    for (const r of await Promise.all(writes)) expect([r.status, r.body.code]).toEqual([403, 'forbidden'])
    expect((await admin(`/apps/${DEMO}`, ENV_KEY)).body.settings.name).not.toBe('Changed by a viewer')

    const adm = await operatorToken(adminEmail)
    expect((await admin(`/apps/${DEMO}/users`, adm)).status).toBe(200)
    expect((await admin('/operators', adm)).status).toBe(403)
    // A console user who is no operator; the demo app's token of an operator's e-mail.
    expect((await admin('/apps', await operatorToken(uniqueEmail('stranger')))).status).toBe(403)
    expect((await admin('/apps', (await s.emailLogin(OWNER)).body.token)).status).toBe(401)
    // The last owner stays.
    expect((await admin(`/operators/${encodeURIComponent(OWNER)}`, owner, { method: 'DELETE' })).status).toBe(409)
    // Removed: refused at once.
    expect((await admin(`/operators/${encodeURIComponent(viewerEmail)}`, owner, { method: 'DELETE' })).status).toBe(200)
    expect((await admin('/apps', viewer)).status).toBe(403)
  })
  it('an operator signs in with a passkey linked to their console account', async () => {
    const email = uniqueEmail('pkop')
    const owner = await operatorToken(OWNER)
    expect((await admin('/operators', owner, { body: { email, role: 'viewer' } })).status).toBe(200)
    const pk = (path: string, body: unknown, token?: string) => s.call(`/api/v1/passkeys${path}`, { body, token, appId: CONSOLE_APP_ID })
    const a = new SoftAuthenticator()
    const token = await operatorToken(email)
    const linkInit = await pk('/link/init', { relying_party: 'localhost' }, token)
    expect(linkInit.status).toBe(200)
    expect((await pk('/link', { challenge: linkInit.body.options.challenge, authenticator_response: a.create(linkInit.body.options, { origin: ORIGIN }) }, token)).status).toBe(200)
    const init = await pk('/authenticate/init', { relying_party: 'localhost' })
    const login = await pk('/authenticate', { relying_party: 'localhost', challenge: init.body.options.challenge, authenticator_response: a.get(init.body.options, { origin: ORIGIN }) })
    expect(login.status).toBe(200)
    expect(login.body.token).not.toBe(token)
    const r = await admin('/apps', login.body.token)
    expect(r.status).toBe(200)
    expect((await admin('/apps', login.body.token, { body: { id: 'portico-test-pkop-app-001', name: 'x', loginMethods: ['email'] } })).status).toBe(403)
  })
})

describe('apps in the database', () => {
  const NEW = 'portico-test-admin-app-01'
  const valid = { id: NEW, name: 'Admin-made', loginMethods: ['email'], allowedOrigins: ['http://localhost:6100'] }

  it('apps.json seeded the table (secrets hashed, never answered); a second start with the same file changes nothing', async () => {
    const list = (await admin('/apps', ENV_KEY)).body.apps as { id: string; source: string; has_app_secret: boolean; settings: Record<string, unknown> }[]
    expect(list.find((a) => a.id === DEMO)).toMatchObject({ source: 'seed' })
    expect(list.find((a) => a.id === CONSOLE_APP_ID)).toBeTruthy()
    const xpd = list.find((a) => a.id === XPD)!
    expect(xpd.has_app_secret).toBe(true)
    expect(JSON.stringify(list)).not.toContain(XPD_SECRET)
    expect(JSON.stringify(list)).not.toContain('appSecretHash')
    // The app secret still authenticates the app's backend (checked against the stored hash).
    expect((await s.call('/api/v1/users/did:portico:nobody', { appId: XPD, headers: basic(XPD, XPD_SECRET) })).status).toBe(404)
    expect((await s.call('/api/v1/users/did:portico:nobody', { appId: XPD, headers: basic(XPD, `${XPD_SECRET}x`) })).status).toBe(401)
    const before = (await admin('/audit?limit=200', ENV_KEY)).body.entries.length
    const again = await startTestServer(store)
    await again.close()
    expect((await admin('/audit?limit=200', ENV_KEY)).body.entries.length).toBe(before)
  })

  it('create: validated with the server’s schema (422 naming the fields), 409 on a taken id, secrets refused; then served at once', async () => {
    const bad = await admin('/apps', ENV_KEY, { body: { id: 'short', name: '', loginMethods: [], allowedOrigins: ['not a url'] } })
    expect([bad.status, bad.body.code]).toEqual([422, 'invalid_data'])
    expect(Object.keys(bad.body.data.fields).sort()).toEqual(['allowedOrigins.0', 'id', 'loginMethods', 'name'])
    expect(bad.body.data.fields.loginMethods).toBe('You must enable at least one login method')
    expect((await admin('/apps', ENV_KEY, { body: { ...valid, appSecret: 'x'.repeat(40) } })).status).toBe(422)
    expect((await s.call(`/api/v1/apps/${NEW}`, { appId: null })).status).toBe(404)
    const made = await admin('/apps', ENV_KEY, { body: valid })
    expect([made.status, made.body.source]).toEqual([201, 'admin'])
    expect((await admin('/apps', ENV_KEY, { body: valid })).status).toBe(409)
    const pub = await s.call(`/api/v1/apps/${NEW}`, { appId: null })
    expect([pub.status, pub.body.name, pub.body.login_methods]).toEqual([200, 'Admin-made', ['email']])
  })

  it('update (merge patch): a new origin and login method apply without a restart; invalid changes are refused; the audit has who, when, before and after', async () => {
    const origin = 'http://localhost:6200'
    const pre = await fetch(`${s.url}/api/v1/apps/${NEW}`, { headers: { origin, 'privy-app-id': NEW } })
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    const bad = await admin(`/apps/${NEW}`, ENV_KEY, { method: 'PATCH', body: { loginMethods: [] } })
    expect([bad.status, bad.body.data.fields]).toEqual([422, { loginMethods: 'You must enable at least one login method' }])
    expect((await admin(`/apps/${NEW}`, ENV_KEY, { method: 'PATCH', body: { id: DEMO } })).status).toBe(422)
    const r = await admin(`/apps/${NEW}`, ENV_KEY, { method: 'PATCH', body: { allowedOrigins: ['http://localhost:6100', origin], loginMethods: ['email', 'sms'] } })
    expect(r.status).toBe(200)
    const post = await fetch(`${s.url}/api/v1/apps/${NEW}`, { headers: { origin, 'privy-app-id': NEW } })
    expect(post.headers.get('access-control-allow-origin')).toBe(origin)
    expect((await post.json()).login_methods).toEqual(['email', 'sms'])
    const audit = (await admin(`/apps/${NEW}/audit`, ENV_KEY)).body.entries
    expect(audit[0]).toMatchObject({ actor: 'env-key', action: 'app.updated', before: { loginMethods: ['email'] }, after: { loginMethods: ['email', 'sms'] } })
    expect(audit[0].created_at).toBeGreaterThan(Date.now() / 1000 - 600)
    expect(audit[1]).toMatchObject({ action: 'app.created' })
  })

  it('smart-wallet settings: checked as at start-up (the spec’s chain ids) and served without a restart', async () => {
    const before = await s.call(`/api/v1/apps/${NEW}/smart_wallets`, { appId: null })
    expect(before.body).toEqual({ enabled: false })
    const network = (chainId: number) => ({ smartWallets: { enabled: true, type: 'safe', networks: [{ chainId, bundlerUrl: 'https://bundler.example.com/rpc' }] } })
    const bad = await admin(`/apps/${NEW}`, ENV_KEY, { method: 'PATCH', body: network(999) })
    expect(bad.status).toBe(422)
    expect(bad.body.data.fields.smartWallets).toContain('chain 999 is not a supported smart-wallet chain')
    expect((await admin(`/apps/${NEW}`, ENV_KEY, { method: 'PATCH', body: network(8453) })).status).toBe(200)
    const after = await s.call(`/api/v1/apps/${NEW}/smart_wallets`, { appId: null })
    expect(after.body).toMatchObject({ enabled: true, smart_wallet_type: 'safe', configured_networks: [{ chain_id: 'eip155:8453', bundler_url: 'https://bundler.example.com/rpc' }] })
    // The paymaster's signer key is a secret: never answered by the admin API.
    const key = `0x${'ab'.repeat(32)}`
    const withKey = await admin(`/apps/${NEW}`, ENV_KEY, { method: 'PATCH', body: { smartWallets: { networks: [{ chainId: 8453, bundlerUrl: 'https://bundler.example.com/rpc', paymasterAddress: `0x${'12'.repeat(20)}` }], paymaster: { signerKey: key } } } })
    expect(withKey.status, JSON.stringify(withKey.body)).toBe(200)
    const read = await admin(`/apps/${NEW}`, ENV_KEY)
    expect(JSON.stringify(read.body)).not.toContain('ab'.repeat(32))
    expect(JSON.stringify(read.body)).toContain('[redacted]')
  })

  it('secret rotation: answered once, the new secret works and the old one stops; delete removes the app', async () => {
    const one = await admin(`/apps/${NEW}/secret`, ENV_KEY, { method: 'POST' })
    expect(one.status).toBe(200)
    const two = await admin(`/apps/${NEW}/secret`, ENV_KEY, { method: 'POST' })
    const call = (secret: string) => s.call('/api/v1/users/did:portico:nobody', { appId: NEW, headers: basic(NEW, secret) })
    expect((await call(two.body.app_secret)).status).toBe(404)
    expect((await call(one.body.app_secret)).status).toBe(401)
    expect(JSON.stringify((await admin(`/apps/${NEW}/audit`, ENV_KEY)).body)).not.toContain(two.body.app_secret)
    expect((await admin(`/apps/${NEW}`, ENV_KEY)).body.has_app_secret).toBe(true)
    expect((await admin(`/apps/${CONSOLE_APP_ID}`, ENV_KEY, { method: 'DELETE' })).status).toBe(409)
    expect((await admin(`/apps/${NEW}`, ENV_KEY, { method: 'DELETE' })).status).toBe(200)
    expect((await s.call(`/api/v1/apps/${NEW}`, { appId: null })).status).toBe(404)
    expect((await admin(`/apps/${NEW}`, ENV_KEY)).status).toBe(404)
  })

  it('the OpenAPI document lists the admin routes with their security', async () => {
    const doc = (await s.call('/openapi.json', { appId: null })).body
    expect(doc.paths['/admin/v1/apps/{appId}'].patch.security).toEqual([{ admin: [] }])
    expect(doc.paths['/admin/v1/apps/{appId}/users/export'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['appId', 'format'])
    expect(doc.paths['/admin/v1/apps/{appId}/users/import'].post.requestBody).toBeTruthy()
    expect(doc.components.securitySchemes.admin.scheme).toBe('bearer')
  })
})

describe('users', () => {
  it('search by e-mail and id, view; revoke sessions: the next request is 401', async () => {
    const email = uniqueEmail('revoke')
    const login = await s.emailLogin(email)
    const id = login.body.user.id
    const found = await admin(`/apps/${DEMO}/users?q=${encodeURIComponent(email.toUpperCase())}`, ENV_KEY)
    expect(found.body.users.map((u: { id: string }) => u.id)).toEqual([id])
    expect((await admin(`/apps/${DEMO}/users?q=${encodeURIComponent(id)}`, ENV_KEY)).body.users[0].id).toBe(id)
    // Users of another app are not this app's.
    expect((await admin(`/apps/${XPD}/users?q=${encodeURIComponent(email)}`, ENV_KEY)).body.users).toEqual([])
    const view = await admin(`/apps/${DEMO}/users/${id}`, ENV_KEY)
    expect(view.body.user.linked_accounts[0]).toMatchObject({ type: 'email', address: email })
    expect(view.body.sessions).toEqual([expect.objectContaining({ active: true })])
    for (const k of ['wallets', 'embedded_wallet_roots', 'mfa_methods', 'devices', 'delegations']) expect(view.body[k]).toEqual([])

    expect((await s.call('/api/v1/users/me', { token: login.body.token })).status).toBe(200)
    const r = await admin(`/apps/${DEMO}/users/${id}/sessions/revoke`, ENV_KEY, { method: 'POST' })
    expect(r.body).toEqual({ revoked: 1 })
    expect((await s.call('/api/v1/users/me', { token: login.body.token })).status).toBe(401)
    expect((await s.call('/api/v1/sessions', { body: { refresh_token: login.body.refresh_token } })).status).toBe(401)
  })

  it('delete: the user and their sessions go; their next login creates a new user', async () => {
    const email = uniqueEmail('delete')
    const first = await s.emailLogin(email)
    const id = first.body.user.id
    expect((await admin(`/apps/${XPD}/users/${id}`, ENV_KEY, { method: 'DELETE' })).status).toBe(404)
    expect((await admin(`/apps/${DEMO}/users/${id}`, ENV_KEY, { method: 'DELETE' })).status).toBe(200)
    expect((await s.call('/api/v1/users/me', { token: first.body.token })).status).toBe(401)
    expect((await admin(`/apps/${DEMO}/users/${id}`, ENV_KEY)).status).toBe(404)
    const again = await s.emailLogin(email)
    expect(again.body.is_new_user).toBe(true)
    expect(again.body.user.id).not.toBe(id)
    const audit = (await admin(`/apps/${DEMO}/audit`, ENV_KEY)).body.entries.find((e: { action: string }) => e.action === 'user.deleted')
    expect(audit).toMatchObject({ target: id, before: null })
    expect(JSON.stringify(audit)).not.toContain(email)
  })

  it('delete emits user.deleted to the app’s webhooks in the deleting transaction', async () => {
    const { endpoint } = await webhooks.createEndpoint({ store, keys: devKeys }, DEMO, { url: 'http://127.0.0.1:9/closed', events: ['user.deleted'] })
    try {
      const id = (await s.emailLogin(uniqueEmail('delete-hook'))).body.user.id
      expect((await admin(`/apps/${DEMO}/users/${id}`, ENV_KEY, { method: 'DELETE' })).status).toBe(200)
      const rows = await store.query<{ payload: string }>(`SELECT payload FROM webhook_deliveries WHERE endpoint_id = $1 AND event_type = 'user.deleted'`, [endpoint.id])
      expect(rows.map((r) => JSON.parse(r.payload).data)).toEqual([{ user_id: id, reason: 'deleted_by_admin' }])
    } finally {
      await webhooks.disableEndpoint({ store, keys: devKeys }, DEMO, endpoint.id)
    }
  })
})

describe('import and export', () => {
  const IMP = 'portico-test-admin-imp-01'
  const N = 10_000
  const users = Array.from({ length: N }, (_, i) => ({
    linked_accounts: [
      { type: 'email', address: i === 5 ? '=1+2@example.com' : `Imported.${i}@Example.com` },
      ...(i === 7 ? [{ type: 'wallet', address: '0x52908400098527886E0F7030069857D2E4169EE7' }, { type: 'phone', number: '+1 (415) 555-0107' }] : []),
      ...(i === 9 ? [{ type: 'custom_auth', custom_user_id: 'host-user-9' }] : []),
    ],
    ...(i === 3 ? { custom_metadata: { plan: '=cmd,"x"' } } : {}),
  }))
  const job = (id: string) => admin(`/apps/${IMP}/users/imports/${id}`, ENV_KEY)
  async function done(id: string) {
    const seen: number[] = []
    for (;;) {
      const r = await job(id)
      seen.push(r.body.processed)
      if (r.body.status !== 'running') return { last: r.body, seen }
      await new Promise((res) => setTimeout(res, 100))
    }
  }

  beforeAll(async () => {
    expect((await admin('/apps', ENV_KEY, { body: { id: IMP, name: 'Imports', loginMethods: ['email', 'sms', 'wallet'], allowedOrigins: [ORIGIN] } })).status).toBe(201)
  })

  it('10,000 users in batches with progress; the same key answers the same job; the same users again create nobody', { timeout: 120_000 }, async () => {
    const first = await admin(`/apps/${IMP}/users/import`, ENV_KEY, { body: { idempotency_key: 'import-1', users } })
    expect(first.status).toBe(202)
    expect(first.body).toMatchObject({ status: 'running', total: N, processed: 0 })
    const { last, seen } = await done(first.body.id)
    expect(last).toMatchObject({ status: 'done', total: N, processed: N, created: N, existing: 0, failed: 0 })
    expect(seen).toEqual([...seen].sort((a, b) => a - b))

    const replay = await admin(`/apps/${IMP}/users/import`, ENV_KEY, { body: { idempotency_key: 'import-1', users } })
    expect([replay.status, replay.body.id, replay.body.created]).toEqual([200, first.body.id, N])
    expect((await admin(`/apps/${IMP}/users/import`, ENV_KEY, { body: { idempotency_key: 'import-1', users: users.slice(1) } })).status).toBe(409)

    const bad = [{ linked_accounts: [{ type: 'email', address: 'not an address' }] }, { linked_accounts: [] }]
    const second = await admin(`/apps/${IMP}/users/import`, ENV_KEY, { body: { idempotency_key: 'import-2', users: [...users.slice(0, N - 2), ...bad] } })
    expect(second.status).toBe(202)
    expect((await done(second.body.id)).last).toMatchObject({ status: 'done', processed: N, created: 0, existing: N - 2, failed: 2, errors: [{ index: N - 2 }, { index: N - 1 }].map((e) => expect.objectContaining(e)) })
    expect((await admin(`/apps/${IMP}/users/import`, ENV_KEY, { body: { idempotency_key: 'too-many', users: [...users, ...bad] } })).status).toBe(422)

    // An imported user logs in as themselves (the same normalised identifier), no new user.
    const found = await admin(`/apps/${IMP}/users?q=imported.42@example.com`, ENV_KEY)
    expect(found.body.users).toHaveLength(1)
    const login = await s.emailLogin('imported.42@example.com', { appId: IMP })
    expect([login.body.is_new_user, login.body.user.id]).toEqual([false, found.body.users[0].id])
    // By wallet address (any case) and by phone number (any format).
    const byWallet = await admin(`/apps/${IMP}/users?q=0x52908400098527886e0f7030069857d2e4169ee7`, ENV_KEY)
    const byPhone = await admin(`/apps/${IMP}/users?q=${encodeURIComponent('415-555-0107')}`, ENV_KEY)
    expect(byWallet.body.users.map((u: { id: string }) => u.id)).toEqual(byPhone.body.users.map((u: { id: string }) => u.id))
    expect(byWallet.body.users[0].linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email', 'wallet', 'phone'])
    // By a linked account's subject (here the host's user id of custom auth).
    const bySubject = await admin(`/apps/${IMP}/users?q=host-user-9`, ENV_KEY)
    expect(bySubject.body.users.map((u: { linked_accounts: { address?: string }[] }) => u.linked_accounts[0].address)).toEqual(['imported.9@example.com'])
  })

  it('export: JSON Lines and CSV, every user once', { timeout: 60_000 }, async () => {
    const jsonl = await fetch(`${s.url}/admin/v1/apps/${IMP}/users/export?format=jsonl`, { headers: { authorization: `Bearer ${ENV_KEY}` } })
    expect(jsonl.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
    const lines = (await jsonl.text()).trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(N)
    expect(new Set(lines.map((l) => l.id)).size).toBe(N)
    expect(lines.find((l) => l.linked_accounts[0].address === 'imported.3@example.com').custom_metadata).toEqual({ plan: '=cmd,"x"' })

    const csv = await fetch(`${s.url}/admin/v1/apps/${IMP}/users/export?format=csv`, { headers: { authorization: `Bearer ${ENV_KEY}` } })
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    const rows = (await csv.text()).trim().split('\r\n')
    expect(rows[0]).toBe('id,created_at,is_guest,has_accepted_terms,emails,phones,wallets,mfa_methods,linked_accounts,custom_metadata')
    expect(rows).toHaveLength(N + 1)
    const seven = rows.find((r) => r.includes(',imported.7@example.com,'))!
    expect(seven).toContain(',+14155550107,0x52908400098527886E0F7030069857D2E4169EE7,')
    expect(rows.filter((r) => r.includes(`,'=1+2@example.com,`))).toHaveLength(1)
    // Quoted (commas, quotes) and never a formula for a spreadsheet.
    expect(rows.find((r) => r.includes(',imported.3@example.com,'))!.endsWith(`,"{""plan"":""=cmd,\\""x\\""""}"`)).toBe(true)
    expect((await fetch(`${s.url}/admin/v1/apps/${IMP}/users/export?format=xml`, { headers: { authorization: `Bearer ${ENV_KEY}` } })).status).toBe(422)
    expect((await fetch(`${s.url}/admin/v1/apps/${IMP}/users/export`)).status).toBe(401)
  })
})

describe('the seed file and the table, across starts', () => {
  const A = 'portico-test-seed-a-00001'
  const B = 'portico-test-seed-b-00001'
  const C = 'portico-test-seed-c-00001'
  const D = 'portico-test-seed-d-00001'
  const app = (id: string, name: string) => ({ id, name, loginMethods: ['email'], allowedOrigins: [ORIGIN] })
  let own: Store
  beforeAll(async () => {
    own = await openTestStore()
  })
  afterAll(() => own?.close())

  it('an app nobody changed follows the file; an app changed through the admin API keeps its change; a new one is imported', async () => {
    const opts = { appsInDatabase: true, admin: { apiKey: ENV_KEY } }
    const one = await startTestServer(own, { ...opts, apps: [app(A, 'A1'), app(B, 'B1'), app(D, 'D1')] as never })
    const patch = await one.call(`/admin/v1/apps/${B}`, { appId: null, token: ENV_KEY, method: 'PATCH', body: { name: 'B by an operator' } })
    expect(patch.status).toBe(200)
    expect((await one.call(`/admin/v1/apps/${D}`, { appId: null, token: ENV_KEY, method: 'DELETE' })).status).toBe(200)
    await one.close()
    const two = await startTestServer(own, { ...opts, apps: [app(A, 'A2'), app(B, 'B2'), app(C, 'C1'), app(D, 'D2')] as never })
    const names = async (srv: TestServer) => Promise.all([A, B, C, D].map(async (id) => (await srv.call(`/api/v1/apps/${id}`, { appId: null })).body.name))
    // D was deleted through the admin API: the file does not bring it back.
    expect(await names(two)).toEqual(['A2', 'B by an operator', 'C1', undefined])
    // Created again through the API, it is back.
    expect((await two.call('/admin/v1/apps', { appId: null, token: ENV_KEY, body: app(D, 'D3') })).status).toBe(201)
    expect((await two.call(`/api/v1/apps/${D}`, { appId: null })).body.name).toBe('D3')
    const audit = (await two.call('/admin/v1/audit?limit=200', { appId: null, token: ENV_KEY })).body.entries as { actor: string; action: string; app_id: string }[]
    expect(audit.filter((e) => e.actor === 'seed' && e.app_id !== CONSOLE_APP_ID).map((e) => `${e.action} ${e.app_id}`)).toEqual([
      `app.created ${C}`,
      `app.updated ${A}`,
      `app.created ${D}`,
      `app.created ${B}`,
      `app.created ${A}`,
    ])
    await two.close()
  })

  it('an import left running by a process that died is resumed by the next server', async () => {
    const t = Math.floor(Date.now() / 1000) - 120
    const payload = [1, 2, 3].map((i) => ({ linked_accounts: [{ type: 'email', address: `resumed.${i}@example.com` }] }))
    await own.query(
      `INSERT INTO admin_user_imports (id, app_id, idempotency_key, body_hash, payload, status, total, processed, created_by, created_at, updated_at)
       VALUES ('imp_dead', $1, 'dead', 'x', $2, 'running', 3, 0, 'env-key', $3, $3)`,
      [A, JSON.stringify(payload), t],
    )
    const srv = await startTestServer(own, { appsInDatabase: true, admin: { apiKey: ENV_KEY }, apps: [app(A, 'A2')] as never })
    for (;;) {
      const r = await srv.call(`/admin/v1/apps/${A}/users/imports/imp_dead`, { appId: null, token: ENV_KEY })
      if (r.body.status !== 'running') {
        expect(r.body).toMatchObject({ status: 'done', processed: 3, created: 3 })
        break
      }
      await new Promise((res) => setTimeout(res, 50))
    }
    await srv.close()
  })
})
