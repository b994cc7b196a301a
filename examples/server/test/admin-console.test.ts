/**
 * The admin routes the console uses (issue 32), against a real server, database and HTTP:
 * webhook endpoints per app (secret shown once, change, delete), deliveries, a delivery's
 * attempts and replay (a receiver in this file, signatures checked with portico/server's
 * verifyWebhook), stats of sign-ups and logins per day by method, and a viewer who reads but
 * is refused every change (403).
 */
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyWebhook } from '../../../server/index'
import type { Store } from '../src/core/store'
import { CONSOLE_APP_ID } from '../src/features/admin/apps'
import { startWebhookWorker, type WebhookWorker } from '../src/features/webhooks/worker'
import { DEMO, ORIGIN, devKeys, openTestStore, startTestServer, uniqueEmail, type TestServer, until, webhookReceiver } from './helpers'

const OWNER = 'owner@console.example.com'
let store: Store
let s: TestServer
let worker: WebhookWorker
let owner: string
let viewer: string
const rx = webhookReceiver()
const got = rx.got
let base = ''


const admin = (path: string, cred: string | null, o: { body?: unknown; method?: string } = {}) =>
  s.call(`/admin/v1${path}`, { appId: null, token: cred, body: o.body, method: o.method })
const operatorToken = async (email: string) => {
  const r = await s.emailLogin(email, { appId: CONSOLE_APP_ID })
  expect(r.status).toBe(200)
  return r.body.token as string
}

beforeAll(async () => {
  base = await rx.listen()
  store = await openTestStore()
  s = await startTestServer(store, { admin: { ownerEmail: OWNER, consoleOrigins: [ORIGIN] } })
  worker = startWebhookWorker({ store, keys: devKeys, log: pino({ level: 'silent' }), pollMs: 250, wakeDelayMs: 5, retryBaseMs: 40, timeoutMs: 2000, allowPrivateNetworks: true })
  owner = await operatorToken(OWNER)
  const viewerEmail = uniqueEmail('viewer')
  expect((await admin('/operators', owner, { body: { email: viewerEmail, role: 'viewer' } })).status).toBe(200)
  viewer = await operatorToken(viewerEmail)
})
afterAll(async () => {
  await worker?.stop()
  await s?.close()
  await store?.close()
  await rx.close()
})

describe('console admin routes', () => {
  it('webhooks: create (secret once), a login delivered signed, deliveries and attempts, replay with the same id, change, delete', async () => {
    const bad = await admin(`/apps/${DEMO}/webhooks`, owner, { body: { url: 'ftp://x', events: ['user.nothing'] } })
    expect([bad.status, bad.body.code, Object.keys(bad.body.data.fields)]).toEqual([400, 'invalid_data', ['url']])
    const noEvents = await admin(`/apps/${DEMO}/webhooks`, owner, { body: { url: `${base}/a`, events: [] } })
    expect([noEvents.status, Object.keys(noEvents.body.data.fields)]).toEqual([400, ['events']])
    expect((await admin('/apps/portico-test-nothere-000001/webhooks', owner)).status).toBe(404)

    const made = await admin(`/apps/${DEMO}/webhooks`, owner, { body: { url: `${base}/a`, events: ['user.authenticated'] } })
    expect(made.status).toBe(201)
    const { endpoint, secret } = made.body
    expect(secret).toMatch(/^whsec_/)
    expect(endpoint).toMatchObject({ app_id: DEMO, url: `${base}/a`, events: ['user.authenticated'], enabled: true, source: 'api' })
    const listed = await admin(`/apps/${DEMO}/webhooks`, owner)
    expect(listed.body.endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id])
    expect(listed.body.events).toContain('user.created')
    expect(JSON.stringify(listed.body)).not.toContain(secret)

    const email = uniqueEmail('whc')
    const login = await s.emailLogin(email)
    expect(login.status).toBe(200)
    const first = await until(() => got.find((g) => g.path === '/a'))
    const ev = verifyWebhook(first.body, first.headers, secret)
    expect(ev).toMatchObject({ type: 'user.authenticated', data: { user_id: login.body.user.id } })

    const deliveries = await until(async () => {
      const r = await admin(`/apps/${DEMO}/webhooks/deliveries?endpoint_id=${endpoint.id}&state=delivered`, owner)
      return r.body.deliveries.length === 1 ? r.body.deliveries : null
    })
    expect(deliveries[0]).toMatchObject({ endpoint_id: endpoint.id, event_type: 'user.authenticated', state: 'delivered', last_status: 204 })
    const attempts = await admin(`/apps/${DEMO}/webhooks/deliveries/${deliveries[0].id}`, owner)
    expect(attempts.body.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 204 })])
    expect((await admin(`/apps/${DEMO}/webhooks/deliveries?state=lost`, owner)).status).toBe(422)
    expect((await admin(`/apps/${DEMO}/webhooks/deliveries/wd_nothing/replay`, owner, { method: 'POST' })).status).toBe(404)

    expect((await admin(`/apps/${DEMO}/webhooks/deliveries/${deliveries[0].id}/replay`, owner, { method: 'POST' })).body).toEqual({ replayed: true })
    const again = await until(() => (got.filter((g) => g.path === '/a').length === 2 ? got.filter((g) => g.path === '/a')[1] : null))
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id'])
    expect(verifyWebhook(again.body, again.headers, secret).data).toEqual(ev.data)

    const changed = await admin(`/apps/${DEMO}/webhooks/${endpoint.id}`, owner, { method: 'PATCH', body: { url: `${base}/b`, enabled: false } })
    expect(changed.body.endpoint).toMatchObject({ url: `${base}/b`, enabled: false, events: ['user.authenticated'] })
    expect((await admin(`/apps/${DEMO}/webhooks/${endpoint.id}`, owner, { method: 'PATCH', body: { enabled: 'yes' } })).status).toBe(400)
    expect((await admin(`/apps/${DEMO}/webhooks/we_nothing`, owner, { method: 'PATCH', body: { enabled: true } })).status).toBe(404)
    const audit = await admin(`/apps/${DEMO}/audit`, owner)
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['webhook.created', 'webhook.replayed', 'webhook.updated']))

    expect((await admin(`/apps/${DEMO}/webhooks/${endpoint.id}`, owner, { method: 'DELETE' })).body).toEqual({ deleted: true })
    expect((await admin(`/apps/${DEMO}/webhooks`, owner)).body.endpoints).toEqual([])
    expect((await admin(`/apps/${DEMO}/webhooks/deliveries?endpoint_id=${endpoint.id}`, owner)).body.deliveries).toEqual([])
  })

  it('stats: sign-ups and logins per day by method; days is checked', async () => {
    const today = Math.floor(Date.now() / 1000 / 86400) * 86400
    const count = (rows: { day: number; method: string; count: number }[], method: string) => rows.find((r) => r.day === today && r.method === method)?.count ?? 0
    const before = (await admin(`/apps/${DEMO}/stats?days=7`, owner)).body
    const a = uniqueEmail('stats')
    expect((await s.emailLogin(a)).status).toBe(200)
    expect((await s.emailLogin(uniqueEmail('stats'))).status).toBe(200)
    expect((await s.emailLogin(a)).status).toBe(200)
    const after = await admin(`/apps/${DEMO}/stats?days=7`, owner)
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ days: 7, from: today - 6 * 86400 })
    expect(count(after.body.signups, 'email') - count(before.signups, 'email')).toBe(2)
    expect(count(after.body.logins, 'email') - count(before.logins, 'email')).toBe(3)
    // A login is counted by the method the session recorded, even when its account is verified again later (by a link, say).
    await store.query(`UPDATE accounts SET latest_verified_at = latest_verified_at + 3600, first_verified_at = first_verified_at - 3600 WHERE type = 'email' AND identifier = $1`, [a])
    const later = await admin(`/apps/${DEMO}/stats?days=7`, owner)
    expect(count(later.body.logins, 'email') - count(before.logins, 'email')).toBe(3)
    expect(count(later.body.logins, 'other')).toBe(count(after.body.logins, 'other'))
    expect((await admin(`/apps/${DEMO}/stats`, owner)).body.days).toBe(30)
    for (const bad of ['0', '91', 'x', '1.5']) expect((await admin(`/apps/${DEMO}/stats?days=${bad}`, owner)).status).toBe(422)
  })

  it('a viewer reads webhooks, deliveries and stats, and every change is refused (403); no credential: 401', async () => {
    const made = await admin(`/apps/${DEMO}/webhooks`, owner, { body: { url: `${base}/v`, events: ['user.created'] } })
    const id = made.body.endpoint.id
    for (const p of [`/apps/${DEMO}/webhooks`, `/apps/${DEMO}/webhooks/deliveries`, `/apps/${DEMO}/stats`]) expect((await admin(p, viewer)).status, p).toBe(200)
    const writes = await Promise.all([
      admin(`/apps/${DEMO}/webhooks`, viewer, { body: { url: `${base}/x`, events: ['user.created'] } }),
      admin(`/apps/${DEMO}/webhooks/${id}`, viewer, { method: 'PATCH', body: { enabled: false } }),
      admin(`/apps/${DEMO}/webhooks/${id}`, viewer, { method: 'DELETE' }),
      admin(`/apps/${DEMO}/webhooks/deliveries/wd_x/replay`, viewer, { method: 'POST' }),
    ])
    for (const r of writes) expect([r.status, r.body.code, r.body.data]).toEqual([403, 'forbidden', { required_scope: 'apps:write' }])
    expect((await admin(`/apps/${DEMO}/webhooks`, owner)).body.endpoints).toEqual([expect.objectContaining({ id, enabled: true, url: `${base}/v` })])
    expect((await admin(`/apps/${DEMO}/webhooks`, null)).status).toBe(401)
    expect((await admin(`/apps/${DEMO}/stats`, null)).status).toBe(401)
    // In the OpenAPI document with their scopes.
    const doc = await s.call('/openapi.json', { appId: null })
    const paths = Object.keys(doc.body.paths ?? {})
    expect(paths).toEqual(expect.arrayContaining(['/admin/v1/apps/{appId}/webhooks', '/admin/v1/apps/{appId}/webhooks/deliveries/{deliveryId}/replay', '/admin/v1/apps/{appId}/stats']))
  })
})
