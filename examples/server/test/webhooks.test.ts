/**
 * Webhooks (issue 32), in process: a real server, a real database (PostgreSQL when the run has
 * one, else PGlite), real HTTP to a receiver in this file, real Standard Webhooks signatures
 * checked with `portico/server`'s verifyWebhook. The kill -9 case: webhooks-kill.test.ts.
 */
import * as OTPAuth from 'otpauth'
import { pino } from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { verifyWebhook, WEBHOOK_EVENT_TYPES, PorticoServerError, type WebhookEvent } from '../../../server/index'
import { appsFrom, loadApps } from '../src/config'
import { ConfigError } from '../src/settings'
import { WEBHOOK_EVENTS, emitEvent, emitEvents, emitUserDeleted } from '../src/core/events'
import type { Store } from '../src/core/store'
import { insertAccount } from '../src/core/identity'
import * as webhooks from '../src/features/webhooks/service'
import { startWebhookWorker, type WebhookWorker } from '../src/features/webhooks/worker'
import { addressRange, publicOnlyLookup } from '../src/features/webhooks/destination'
import { APPS_FILE, DEMO, TERMS, devKeys, openTestStore, startTestServer, uniqueEmail, type TestServer, until, webhookReceiver as receiver } from './helpers'

const silent = pino({ level: 'silent' })
let store: Store
let server: TestServer
let worker: WebhookWorker
const rx = receiver()
let base: string
const d = () => ({ store, keys: devKeys })
/** Endpoints a test made, disabled after it so that later events do not reach it. */
const made: { appId: string; id: string }[] = []
async function endpoint(appId: string, path: string, events: string[]) {
  const r = await webhooks.createEndpoint(d(), appId, { url: base + path, events })
  made.push({ appId, id: r.endpoint.id })
  return r
}

beforeAll(async () => {
  base = await rx.listen()
  store = await openTestStore()
  server = await startTestServer(store)
  worker = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 250, wakeDelayMs: 5, retryBaseMs: 40, timeoutMs: 2000 })
})
afterEach(async () => {
  for (const m of made.splice(0)) await webhooks.disableEndpoint(d(), m.appId, m.id)
})
afterAll(async () => {
  await worker?.stop()
  await server?.close()
  await store?.close()
  await rx.close()
})

describe('webhooks', () => {
  it('a login is delivered signed; portico/server verifies it and returns the typed event', async () => {
    const { endpoint: ep, secret } = await endpoint(DEMO, '/signed', ['user.created', 'user.authenticated'])
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(JSON.stringify(await webhooks.listEndpoints(d(), DEMO))).not.toContain(secret)
    const email = uniqueEmail('wh')
    const login = await server.emailLogin(email)
    expect(login.status).toBe(200)
    const userId = login.body.user.id
    const got = await until(() => (rx.at('/signed').length >= 2 ? rx.at('/signed') : null))
    const events = got.map((g) => verifyWebhook(g.body, g.headers, secret))
    // Two deliveries, sent side by side: they may arrive in either order (receivers order by timestamp, deduplicate by id).
    expect(events.map((e) => e.type).sort()).toEqual(['user.authenticated', 'user.created'])
    const created = events.find((e) => e.type === 'user.created') as Extract<WebhookEvent, { type: 'user.created' }>
    expect(created.data).toMatchObject({ user_id: userId, is_guest: false, linked_accounts: [{ type: 'email', address: email }] })
    const auth = events.find((e) => e.type === 'user.authenticated') as Extract<WebhookEvent, { type: 'user.authenticated' }>
    expect(auth.data).toEqual({ user_id: userId, is_new_user: true, account: { type: 'email', address: email } })
    // Seconds, now.
    expect(Math.abs(auth.timestamp - Date.now() / 1000)).toBeLessThan(60)
    expect(got[0].headers['webhook-timestamp']).toMatch(/^\d{10}$/)
    // No token in a payload.
    for (const g of got) {
      expect(g.body).not.toContain(login.body.token)
      expect(g.body).not.toContain(login.body.refresh_token)
    }
    // The fetch Headers form, and a wrong secret, a changed body, a missing header are refused.
    expect(verifyWebhook(new TextEncoder().encode(got[0].body), new Headers(got[0].headers as Record<string, string>), secret).type).toBe('user.created')
    const other = (await endpoint(TERMS, '/unused', ['user.deleted'])).secret
    const refused = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e instanceof PorticoServerError ? e.code : 'other'
      }
      return 'accepted'
    }
    expect(refused(() => verifyWebhook(got[0].body, got[0].headers, other))).toBe('invalid_webhook')
    expect(refused(() => verifyWebhook(got[0].body.replace(userId, 'did:portico:someoneelse'), got[0].headers, secret))).toBe('invalid_webhook')
    expect(refused(() => verifyWebhook(got[0].body, { ...got[0].headers, 'webhook-id': undefined }, secret))).toBe('invalid_webhook')
    // The delivery log: one attempt, 204.
    const [delivery] = await webhooks.listDeliveries(d(), DEMO, { endpointId: ep.id })
    expect(delivery.state).toBe('delivered')
    expect(await webhooks.deliveryAttempts(d(), DEMO, delivery.id)).toEqual([expect.objectContaining({ attempt: 1, status: 204, error: null })])

    // A returning user: user.authenticated only.
    const again = await server.emailLogin(email)
    await until(() => rx.at('/signed').length >= 3)
    const third = verifyWebhook(rx.at('/signed')[2].body, rx.at('/signed')[2].headers, secret)
    expect(third).toMatchObject({ type: 'user.authenticated', data: { user_id: again.body.user.id, is_new_user: false } })
  })

  it('a failing receiver is retried with back-off until it answers 2xx; every attempt is in the log', async () => {
    const { endpoint: ep, secret } = await endpoint(DEMO, '/retry', ['user.authenticated'])
    rx.answers.set('/retry', (n) => (n <= 2 ? 500 : 200))
    const guest = await server.call('/api/v1/guest/authenticate', { body: { guest_credential: Buffer.alloc(32, 7).toString('base64url') } })
    expect(guest.status).toBe(200)
    await until(async () => (await webhooks.listDeliveries(d(), DEMO, { endpointId: ep.id }))[0]?.state === 'delivered')
    const got = rx.at('/retry')
    expect(got.length).toBe(3)
    // One message id across the attempts; each attempt signed anew.
    expect(new Set(got.map((g) => g.id)).size).toBe(1)
    for (const g of got) expect(verifyWebhook(g.body, g.headers, secret)).toMatchObject({ type: 'user.authenticated', data: { account: null } })
    const [delivery] = await webhooks.listDeliveries(d(), DEMO, { endpointId: ep.id })
    const log = await webhooks.deliveryAttempts(d(), DEMO, delivery.id)
    expect(log.map((a) => [a.attempt, a.status, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 200, null],
    ])

    // Manual replay: the same message again, one more attempt in the log.
    await webhooks.replayDelivery(d(), DEMO, delivery.id)
    await until(() => rx.at('/retry').length === 4)
    expect(rx.at('/retry')[3].id).toBe(delivery.id)
    await until(async () => (await webhooks.deliveryAttempts(d(), DEMO, delivery.id)).length === 4)
    await expect(webhooks.replayDelivery(d(), TERMS, delivery.id)).rejects.toMatchObject({ status: 404 })
  })

  it('an unreachable endpoint is marked failed after its attempts', async () => {
    const local = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 60_000, retryBaseMs: 1, maxAttempts: 3, timeoutMs: 500 })
    await worker.stop()
    try {
      const ep = await webhooks.createEndpoint(d(), TERMS, { url: 'http://127.0.0.1:9/closed', events: ['user.deleted'] })
      made.push({ appId: TERMS, id: ep.endpoint.id })
      await store.transaction((tx) => emitUserDeleted(tx, TERMS, 'did:portico:unreachable', 'test'))
      await until(async () => {
        await local.drain()
        return (await webhooks.listDeliveries(d(), TERMS, { endpointId: ep.endpoint.id }))[0]?.state === 'failed'
      })
      const [delivery] = await webhooks.listDeliveries(d(), TERMS, { endpointId: ep.endpoint.id })
      const log = await webhooks.deliveryAttempts(d(), TERMS, delivery.id)
      expect(log.map((a) => [a.attempt, a.status, a.error])).toEqual([1, 2, 3].map((n) => [n, null, 'ECONNREFUSED']))
    } finally {
      await local.stop()
      worker = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 250, wakeDelayMs: 5, retryBaseMs: 40, timeoutMs: 2000 })
    }
  })

  it('a rolled-back change writes no delivery and sends nothing; a committed user.deleted is sent', async () => {
    const { endpoint: ep, secret } = await endpoint(TERMS, '/deleted', ['user.deleted'])
    await expect(
      store.transaction(async (tx) => {
        await emitUserDeleted(tx, TERMS, 'did:portico:rolledback', 'test')
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    await store.transaction((tx) => emitUserDeleted(tx, TERMS, 'did:portico:committed', 'deleted_by_admin'))
    const [g] = await until(() => (rx.at('/deleted').length ? rx.at('/deleted') : null))
    await worker.drain()
    expect(rx.at('/deleted').length).toBe(1)
    expect(verifyWebhook(g.body, g.headers, secret)).toMatchObject({ type: 'user.deleted', data: { user_id: 'did:portico:committed', reason: 'deleted_by_admin' } })
    const rows = await webhooks.listDeliveries(d(), TERMS, { endpointId: ep.id })
    expect(rows.map((r) => JSON.parse(r.payload).data.user_id)).toEqual(['did:portico:committed'])

    // The identity core's own change (it emits user.linked_account) in a transaction that fails after it.
    const linked = await endpoint(DEMO, '/linked', ['user.linked_account'])
    const login = await server.emailLogin(uniqueEmail('wh-rb'))
    const demo = loadApps(APPS_FILE).get(DEMO)!
    const account = { type: 'email', identifier: uniqueEmail('wh-rb2'), data: { address: 'x@example.com' }, transferable: true, linkMethod: 'email', displayName: 'x' }
    await expect(
      store.transaction(async (tx) => {
        await insertAccount(tx, demo, login.body.user.id, account)
        await tx.query('SELECT 1/0')
      }),
    ).rejects.toThrow()
    await worker.drain()
    expect(await webhooks.listDeliveries(d(), DEMO, { endpointId: linked.endpoint.id })).toEqual([])
    expect(rx.at('/linked')).toEqual([])
  })

  it('two workers on one database send each row once', async () => {
    const { endpoint: ep, secret } = await endpoint(TERMS, '/many', ['user.deleted'])
    rx.answers.set('/many', () => 200)
    await worker.stop()
    const N = 150
    await store.transaction((tx) => emitEvents(tx, TERMS, Array.from({ length: N }, (_, i) => ({ type: 'user.deleted' as const, data: { user_id: `did:portico:many${i}`, reason: 'test' } }))))
    const a = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 60_000, batch: 10, concurrency: 4 })
    const b = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 60_000, batch: 10, concurrency: 4 })
    try {
      await Promise.all([a.drain(), b.drain()])
      await until(async () => (await webhooks.listDeliveries(d(), TERMS, { endpointId: ep.id, state: 'delivered', limit: 1000 })).length === N)
    } finally {
      await a.stop()
      await b.stop()
      worker = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 250, wakeDelayMs: 5, retryBaseMs: 40, timeoutMs: 2000 })
    }
    const got = rx.at('/many')
    expect(got.length).toBe(N)
    expect(new Set(got.map((g) => g.id)).size).toBe(N)
    const users = new Set(got.map((g) => (verifyWebhook(g.body, g.headers, secret).data as { user_id: string }).user_id))
    expect(users.size).toBe(N)
    const rows = await webhooks.listDeliveries(d(), TERMS, { endpointId: ep.id, limit: 1000 })
    expect(rows.every((r) => r.attempts === 1)).toBe(true)
  })

  it('pruning deletes delivered and failed rows past the retention, in batches, with their log; pending rows stay', async () => {
    const { endpoint: ep } = await endpoint(TERMS, '/prune', ['user.deleted'])
    const day = 86_400_000
    const now = Date.now()
    const far = now + 365 * day // pending rows not due: the running worker leaves them alone
    const rows: [string, string, number, number | null][] = [
      // id, state, next_attempt_ms, delivered_at (s)
      ['msg_prune_old_ok', 'delivered', now - 31 * day, Math.floor((now - 31 * day) / 1000)],
      ['msg_prune_old_ok2', 'delivered', now - 40 * day, Math.floor((now - 40 * day) / 1000)],
      ['msg_prune_new_ok', 'delivered', now - 29 * day, Math.floor((now - 29 * day) / 1000)],
      ['msg_prune_old_fail', 'failed', now - 31 * day, null],
      ['msg_prune_new_fail', 'failed', now - 1 * day, null],
      ['msg_prune_old_pending', 'pending', far, null],
    ]
    for (const [id, state, next, at] of rows) {
      await store.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, app_id, event_type, payload, created_at, state, attempts, next_attempt_ms, delivered_at)
         VALUES ($1, $2, $3, 'user.deleted', '{}', $4, $5, 1, $6, $7)`,
        [id, ep.id, TERMS, Math.floor((now - 45 * day) / 1000), state, next, at],
      )
      await store.query('INSERT INTO webhook_attempts (delivery_id, attempt, at, status, duration_ms) VALUES ($1, 1, $2, 500, 3)', [id, Math.floor(next / 1000)])
    }
    const local = startWebhookWorker({ store, keys: devKeys, log: silent, pollMs: 60_000, pruneEveryMs: 0, pruneBatch: 1 })
    try {
      expect(await local.prune()).toBeGreaterThanOrEqual(0)
    } finally {
      await local.stop()
    }
    const left = (await store.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id', [ep.id])).map((r) => r.id)
    expect(left).toEqual(['msg_prune_new_fail', 'msg_prune_new_ok', 'msg_prune_old_pending'])
    const log = (await store.query<{ delivery_id: string }>("SELECT DISTINCT delivery_id FROM webhook_attempts WHERE delivery_id LIKE 'msg_prune_%' ORDER BY 1")).map((r) => r.delivery_id)
    expect(log).toEqual(left)
    // A kept failed row can still be replayed.
    await webhooks.replayDelivery(d(), TERMS, 'msg_prune_new_fail')
    await until(async () => (await store.query<{ state: string }>("SELECT state FROM webhook_deliveries WHERE id = 'msg_prune_new_fail'"))[0].state === 'delivered')
    expect(rx.at('/prune').map((g) => g.id)).toEqual(['msg_prune_new_fail'])
    await store.query("DELETE FROM webhook_deliveries WHERE id LIKE 'msg_prune_%'")
  })

  it('account and MFA changes are emitted from their routes; a disabled endpoint gets nothing new', async () => {
    const { endpoint: ep, secret } = await endpoint(DEMO, '/changes', ['user.linked_account', 'user.unlinked_account', 'user.updated_account', 'mfa.enabled', 'mfa.disabled'])
    const email = uniqueEmail('wh-ch')
    const login = await server.emailLogin(email)
    const token = login.body.token as string
    const userId = login.body.user.id
    const phone = `+1415555${String(Date.now() % 10000).padStart(4, '0')}`
    await server.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: phone }, token })
    expect((await server.call('/api/v1/passwordless_sms/link', { body: { phoneNumber: phone, code: await server.code(phone) }, token })).status).toBe(200)
    const email2 = uniqueEmail('wh-ch2')
    await server.call('/api/v1/passwordless/init', { body: { email: email2 }, token })
    expect((await server.call('/api/v1/passwordless/update', { body: { oldAddress: email, newAddress: email2, code: await server.code(email2) }, token })).status).toBe(200)
    expect((await server.call('/api/v1/passwordless_sms/unlink', { body: { phoneNumber: phone }, token })).status).toBe(200)
    const init = await server.call('/api/v1/mfa/totp/init', { body: {}, token })
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(init.body.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate()
    expect((await server.call('/api/v1/mfa/totp/enroll', { body: { code }, token })).status).toBe(200)
    expect((await server.call('/api/v1/mfa/totp/unenroll', { body: {}, token })).status).toBe(200)
    const got = await until(() => (rx.at('/changes').length >= 5 ? rx.at('/changes') : null))
    const events = got.map((g) => verifyWebhook(g.body, g.headers, secret))
    expect(events.map((e) => [e.type, e.data.user_id])).toEqual([
      ['user.linked_account', userId],
      ['user.updated_account', userId],
      ['user.unlinked_account', userId],
      ['mfa.enabled', userId],
      ['mfa.disabled', userId],
    ])
    expect(events[1].data).toMatchObject({ account: { type: 'email', address: email2 }, previous_account: { type: 'email', address: email } })
    expect(events[3].data).toEqual({ user_id: userId, method: 'totp' })

    await webhooks.disableEndpoint(d(), DEMO, ep.id)
    await server.call('/api/v1/passwordless_sms/init', { body: { phoneNumber: phone }, token })
    await server.call('/api/v1/passwordless_sms/link', { body: { phoneNumber: phone, code: await server.code(phone) }, token })
    expect((await webhooks.listDeliveries(d(), DEMO, { endpointId: ep.id })).length).toBe(5)
    await expect(webhooks.disableEndpoint(d(), TERMS, ep.id)).rejects.toMatchObject({ status: 404 })
  })

  it('the service refuses bad input with clear errors', async () => {
    const bad = async (input: { url: unknown; events: unknown }) => {
      try {
        await webhooks.createEndpoint(d(), DEMO, input)
      } catch (e) {
        return [(e as { status: number }).status, (e as Error).message]
      }
      return 'accepted'
    }
    expect(await bad({ url: 'ftp://x.example/hook', events: ['user.created'] })).toEqual([400, 'url: must be an http:// or https:// URL'])
    expect(await bad({ url: 'not a url', events: ['user.created'] })).toEqual([400, 'url: must be an http:// or https:// URL'])
    expect(await bad({ url: 'https://x.example/hook', events: [] })).toEqual([400, 'events: must name at least one event'])
    expect(await bad({ url: 'https://x.example/hook', events: ['user.exploded'] })).toEqual([400, expect.stringMatching(/^events: must be one of user\.created, /)])
  })

  it('apps.json webhooks: validated with clear errors, seeded idempotently', async () => {
    const demo = loadApps(APPS_FILE).get(DEMO)!
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`
    const problems = (webhooks: unknown) => {
      try {
        appsFrom([{ ...demo, webhooks } as never])
      } catch (e) {
        return (e as ConfigError).problems
      }
      return []
    }
    expect(problems([{ url: 'https://a.example/h', events: ['user.created'], secret }])).toEqual([])
    expect(problems([{ url: 'https://a.example/h', events: ['user.created'], secret: 'hunter2' }])).toEqual([expect.stringContaining('webhooks.0.secret: must be whsec_ followed by the base64')])
    expect(problems([{ url: 'https://a.example/h', events: ['user.created'] }])).toEqual([expect.stringContaining('webhooks.0.secret: give the signing secret as exactly one of secret or secretEnv')])
    expect(problems([{ url: 'https://a.example/h', events: ['nope'], secret }])[0]).toContain('webhooks.0.events.0: must be one of user.created')
    expect(problems([{ url: 'https://a.example/h', events: ['user.created'], secret, extra: 1 }])[0]).toContain('webhooks.0')
    expect(problems([{ url: 'https://a.example/h', events: ['user.created'], secret }, { url: 'https://a.example/h', events: ['user.deleted'], secret }])[0]).toContain('two endpoints with the same url')

    const APP = 'portico-test-webhooks-001'
    const app = (hooks: unknown) => appsFrom([{ ...demo, id: APP, webhooks: hooks } as never]).all()
    const one = [{ url: 'https://a.example/h', events: ['user.created'], secret }]
    await webhooks.seedConfigEndpoints(d(), app(one))
    const first = await webhooks.listEndpoints(d(), APP)
    await webhooks.seedConfigEndpoints(d(), app(one))
    expect(await webhooks.listEndpoints(d(), APP)).toEqual(first)
    expect(first).toEqual([expect.objectContaining({ url: 'https://a.example/h', events: ['user.created'], enabled: true, source: 'config' })])
    // Changed events: the same endpoint, updated.
    await webhooks.seedConfigEndpoints(d(), app([{ ...one[0], events: ['user.created', 'user.deleted'] }]))
    expect(await webhooks.listEndpoints(d(), APP)).toEqual([expect.objectContaining({ id: first[0].id, events: ['user.created', 'user.deleted'], enabled: true })])
    // Gone from the file: disabled. A secretEnv that is not set: a start-up error naming it.
    await webhooks.seedConfigEndpoints(d(), app([]))
    expect(await webhooks.listEndpoints(d(), APP)).toEqual([expect.objectContaining({ id: first[0].id, enabled: false })])
    await expect(webhooks.seedConfigEndpoints(d(), app([{ url: 'https://b.example/h', events: ['user.created'], secretEnv: 'PORTICO_TEST_UNSET_SECRET' }]), {})).rejects.toThrow(
      'webhooks.0.secretEnv: the environment variable PORTICO_TEST_UNSET_SECRET is not set',
    )
  })

  it('by default only public addresses are reached: loopback by IP or by name, and private ranges, are refused before a socket opens (EPRIVATEDEST in the log)', async () => {
    // The receiver listens on 127.0.0.1; a worker without allowPrivateNetworks must not reach it.
    await worker.stop()
    const guarded = startWebhookWorker({ store, keys: devKeys, log: silent, pollMs: 60_000, retryBaseMs: 1, maxAttempts: 1, timeoutMs: 2000 })
    try {
      const byIp = await endpoint(DEMO, '/private-ip', ['user.created'])
      const byName = await webhooks.createEndpoint(d(), DEMO, { url: base.replace('127.0.0.1', 'localhost') + '/private-name', events: ['user.created'] })
      made.push({ appId: DEMO, id: byName.endpoint.id })
      await server.emailLogin(uniqueEmail('ssrf'))
      await guarded.drain()
      for (const id of [byIp.endpoint.id, byName.endpoint.id]) {
        const rows = await store.query<{ state: string; error: string | null; status: number | null }>(
          `SELECT d.state, a.error, a.status FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.endpoint_id = $1`,
          [id],
        )
        expect(rows).toEqual([{ state: 'failed', error: 'EPRIVATEDEST', status: null }])
      }
      expect(rx.at('/private-ip')).toHaveLength(0)
      expect(rx.at('/private-name')).toHaveLength(0)
    } finally {
      await guarded.stop()
      worker = startWebhookWorker({ store, keys: devKeys, log: silent, allowPrivateNetworks: true, pollMs: 250, wakeDelayMs: 5, retryBaseMs: 40, timeoutMs: 2000 })
    }
    // The ranges: public unicast only (IPv4-mapped IPv6 is judged as its IPv4).
    expect(['8.8.8.8', '2606:4700:4700::1111'].map(addressRange)).toEqual(['unicast', 'unicast'])
    expect(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '224.0.0.1'].map(addressRange)).not.toContain('unicast')
    const lookup = (host: string) =>
      new Promise<string>((resolve, reject) => publicOnlyLookup(host, {}, (err, address) => (err ? reject(err) : resolve(address as string))))
    await expect(lookup('8.8.8.8')).resolves.toBe('8.8.8.8')
    await expect(lookup('localhost')).rejects.toThrow('webhooks go to public addresses only')
  })

  it('portico/server names the issue\'s thirteen events, and the server writes the same list', () => {
    // One list (server/webhook-events.ts): the server's outbox and portico/server share it.
    expect(WEBHOOK_EVENTS).toBe(WEBHOOK_EVENT_TYPES)
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([
      'user.created', 'user.authenticated', 'user.linked_account', 'user.unlinked_account', 'user.updated_account',
      'user.transferred_account', 'user.deleted', 'wallet.created', 'wallet.recovered', 'mfa.enabled', 'mfa.disabled',
      'delegation.granted', 'delegation.revoked',
    ])
  })
})
