import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeProtectedHeader } from 'jose'
import { appsFrom, loadApps } from '../src/config'
import { loginWithAccount } from '../src/core/identity'
import { openStore, type Store } from '../src/core/store'
import { isUniqueViolation } from '../src/core/store/types'
import { loadSigner } from '../src/core/identity/tokens'
import { devKeys } from './helpers'
import { APPS_FILE, DEMO, startPostgres, startTestServer, uniqueEmail, type TempPostgres } from './helpers'

// Started at import so that the PostgreSQL suite can be skipped (loudly) when no binary exists.
const pg: TempPostgres | null = await startPostgres()
// Under CI=true a missing server throws there (helpers.ts): a failure, not a skip.
const backends: { name: string; open: () => Promise<Store> }[] = [
  { name: 'pglite', open: () => openStore({}) },
  {
    name: 'postgres',
    open: () => {
      if (!pg) throw new Error('no postgres')
      return openStore({ databaseUrl: pg.url })
    },
  },
]

afterAll(async () => {
  await pg?.stop()
})

const demo = loadApps(APPS_FILE).get(DEMO)!

describe.each(backends.filter((b) => b.name !== 'postgres' || pg))('storage on $name', ({ name, open }) => {
  let store: Store
  beforeAll(async () => {
    store = await open()
  })
  afterAll(async () => {
    await store?.close()
  })

  it('migrations are applied once and re-running is a no-op', async () => {
    await store.migrate()
    await store.migrate()
    const rows = await store.query('SELECT name FROM schema_migrations')
    expect(rows.map((r) => r.name)).toContain('001_init.sql')
    expect(rows.length).toBe(new Set(rows.map((r) => r.name)).size)
  })

  it('transactions roll back on error and unique violations are recognised', async () => {
    const id = `did:portico:tx-${name}-${Date.now()}`
    await expect(
      store.transaction(async (q) => {
        await q.query('INSERT INTO users (id, app_id, created_at) VALUES ($1, $2, 1)', [id, DEMO])
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await store.query('SELECT 1 FROM users WHERE id = $1', [id])).toEqual([])
    await store.query('INSERT INTO users (id, app_id, created_at) VALUES ($1, $2, 1)', [id, DEMO])
    const err = await store.query('INSERT INTO users (id, app_id, created_at) VALUES ($1, $2, 1)', [id, DEMO]).catch((e) => e)
    expect(isUniqueViolation(err)).toBe(true)
    const [{ created_at }] = await store.query('SELECT created_at FROM users WHERE id = $1', [id])
    expect(created_at).toBe(1)
  })

  it('concurrent first logins for one identifier make one user', async () => {
    const signer = await loadSigner(store, devKeys)
    const email = uniqueEmail('race')
    const acct = { type: 'email', identifier: email, data: { address: email }, transferable: true, linkMethod: 'email', displayName: email }
    const results = await Promise.all(Array.from({ length: 8 }, () => loginWithAccount({ store, signer, keys: devKeys }, demo, acct)))
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1)
    expect(results.filter((r) => r.is_new_user).length).toBe(1)
    const [{ n }] = await store.query('SELECT count(*)::int AS n FROM accounts WHERE identifier = $1', [email])
    expect(n).toBe(1)
  })

  it('user limit holds under concurrent sign-ups', async () => {
    const signer = await loadSigner(store, devKeys)
    const limited = appsFrom([{ ...demo, id: `portico-race-limit-${name.padEnd(6, '0').slice(0, 6)}`, userLimit: 3 }]).all()[0]
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => {
        const e = uniqueEmail(`lim${i}`)
        return loginWithAccount({ store, signer, keys: devKeys }, limited, { type: 'email', identifier: e, data: { address: e }, transferable: true, linkMethod: 'email', displayName: e })
      }),
    )
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(3)
  })

  it('full HTTP login, refresh rotation and reuse detection', async () => {
    const s = await startTestServer(store)
    try {
      const email = uniqueEmail()
      const u = await s.emailLogin(email)
      expect(u.status).toBe(200)
      const r1 = await s.call('/api/v1/sessions', { body: { refresh_token: u.body.refresh_token } })
      expect(r1.status).toBe(200)
      expect((await s.call('/api/v1/sessions', { body: { refresh_token: u.body.refresh_token } })).status).toBe(401)
      expect((await s.call('/api/v1/sessions', { body: { refresh_token: r1.body.refresh_token } })).status).toBe(401)
    } finally {
      await s.close()
    }
  })

  it('two servers on one database share codes, limits and the signing key', async () => {
    // PostgreSQL: two connections as two processes would have; PGlite is one process's database.
    const other = name === 'pglite' ? store : await open()
    const a = await startTestServer(store, { limits: { resendCooldownS: 30, perIp: 1e6 } })
    const b = await startTestServer(other, { limits: { resendCooldownS: 30, perIp: 1e6 } })
    try {
      const [ka, kb] = await Promise.all([loadSigner(store, devKeys), loadSigner(other, devKeys)])
      expect(ka.kid).toBe(kb.kid)
      const email = uniqueEmail('shared')
      expect((await a.call('/api/v1/passwordless/init', { body: { email } })).status).toBe(200)
      // The resend cooldown is in the DB: the other server refuses too.
      expect((await b.call('/api/v1/passwordless/init', { body: { email } })).status).toBe(429)
      const login = await b.call('/api/v1/passwordless/authenticate', { body: { email, code: await a.code(email) } })
      expect(login.status).toBe(200)
      expect(decodeProtectedHeader(login.body.token).kid).toBe(ka.kid)
      expect((await a.call('/api/v1/users/me', { token: login.body.token })).status).toBe(200)
      const r = await a.call('/api/v1/sessions', { body: { refresh_token: login.body.refresh_token } })
      expect(r.status).toBe(200)
      expect((await b.call('/api/v1/sessions', { body: { refresh_token: login.body.refresh_token } })).status).toBe(401)
    } finally {
      await a.close()
      await b.close()
      if (other !== store) await other.close()
    }
  })
})
