/**
 * Pre-generated wallets (issue 32) on a real server and database: the operator's tool
 * (scripts/pregen-wallet.ts) makes the wallets, the admin import takes them (idempotent, with
 * the user's address shown and `wallet.created` pregenerated), and the attacker who holds the
 * whole database and the server's secrets cannot rebuild a key: no two shares open without the
 * user's claim code. The claim itself (the user's frame opens the box with the code, then
 * splits the root afresh) is test/e2e/wallet-pregen.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base64 } from '@scure/base'
import type { Store } from '../src/core/store'
import { devKeys, ORIGIN, openTestStore, startTestServer, type TestServer } from './helpers'
import { pregenerateWallet } from '../scripts/pregen-wallet'
import { combineShares } from '../frame/shares'
import { HdRoot } from '../frame/keys'
import { AUTH_SHARE_PURPOSE } from '../src/features/wallets/keys'
import { recoveryMethod } from '../frame/handlers/registry'
import { INVALID_PASSWORD } from '../frame/handlers/recovery-passcode'
import { normaliseClaimCode } from '../frame/claim-code'

const ENV_KEY = 'portico_admin_env-bootstrap-key-for-tests-000000000'
const APP = 'portico-test-pregen-00001'

let store: Store
let s: TestServer
beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { admin: { ownerEmail: 'owner@pregen.example.com', apiKey: ENV_KEY, consoleOrigins: [ORIGIN] } })
  const r = await s.call('/admin/v1/apps', { appId: null, token: ENV_KEY, body: { id: APP, name: 'Pregen', loginMethods: ['email'], allowedOrigins: [ORIGIN] } })
  expect(r.status).toBe(201)
  // An endpoint for wallet.created (its deliveries are what the test reads; nothing listens there).
  expect((await s.call(`/admin/v1/apps/${APP}/webhooks`, { appId: null, token: ENV_KEY, body: { url: 'http://127.0.0.1:9/hooks', events: ['wallet.created'] } })).status).toBe(201)
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

const admin = (path: string, body?: unknown) => s.call(`/admin/v1${path}`, { appId: null, token: ENV_KEY, body })
async function done(id: string) {
  for (;;) {
    const r = await admin(`/apps/${APP}/users/imports/${id}`)
    if (r.body.status !== 'running') return r.body
    await new Promise((res) => setTimeout(res, 50))
  }
}

/** Entropy from two shares, or null when they do not rebuild a root whose address is `address`. */
async function opens(a: Uint8Array, b: Uint8Array, address: string): Promise<boolean> {
  try {
    const e = await combineShares(a, b)
    const root = await HdRoot.fromEntropy(e)
    return root.ethereum(0).address.toLowerCase() === address.toLowerCase()
  } catch {
    return false
  }
}

describe('pre-generated wallets', () => {
  const made: Awaited<ReturnType<typeof pregenerateWallet>>[] = []
  const emails = ['pregen.a@example.com', 'pregen.b@example.com', 'pregen.c@example.com']

  it('imports users with a wallet whose address is known before they log in; the same key is the same job; the address in the user view; wallet.created pregenerated', async () => {
    for (const _ of emails) made.push(await pregenerateWallet(APP))
    const users = emails.map((email, i) => ({ linked_accounts: [{ type: 'email', address: email }], embedded_wallet: made[i].wallet }))
    const first = await admin(`/apps/${APP}/users/import`, { idempotency_key: 'pregen-1', users })
    expect(first.status).toBe(202)
    expect(await done(first.body.id)).toMatchObject({ status: 'done', created: 3, existing: 0, failed: 0 })
    const again = await admin(`/apps/${APP}/users/import`, { idempotency_key: 'pregen-1', users })
    expect([again.status, again.body.id]).toEqual([200, first.body.id])
    // Another job with the same users (or the same wallet for someone else) creates nobody.
    const other = await admin(`/apps/${APP}/users/import`, { idempotency_key: 'pregen-2', users: [...users, { linked_accounts: [{ type: 'email', address: 'thief@example.com' }], embedded_wallet: made[0].wallet }] })
    expect(await done(other.body.id)).toMatchObject({ status: 'done', created: 0, existing: 4, failed: 0 })
    expect(await store.query(`SELECT 1 FROM embedded_wallet_roots WHERE app_id = $1`, [APP])).toHaveLength(3)

    const found = await admin(`/apps/${APP}/users?q=${made[1].address.toLowerCase()}`)
    expect(found.body.users).toHaveLength(1)
    const view = await admin(`/apps/${APP}/users/${found.body.users[0].id}`)
    const wallet = JSON.stringify(view.body)
    expect(wallet).toContain(made[1].address)
    expect(wallet).toContain('pregen.b@example.com')
    const events = await store.query<{ payload: string }>(`SELECT payload FROM webhook_deliveries WHERE app_id = $1 AND event_type = 'wallet.created'`, [APP])
    expect(events.map((e) => (JSON.parse(e.payload) as { data: { wallet: { address: string } } }).data.wallet).sort((a, b) => a.address.localeCompare(b.address))).toEqual(
      [...made].sort((a, b) => a.address.localeCompare(b.address)).map((m) => expect.objectContaining({ address: m.address, pregenerated: true, recovery_method: 'user-passcode' })),
    )
  })

  it('a malformed wallet is refused with its reason; nothing of it is kept', async () => {
    const w = await pregenerateWallet(APP)
    const users = [
      { linked_accounts: [{ type: 'email', address: 'pregen.bad1@example.com' }], embedded_wallet: { ...w.wallet, entropy_id: made[0].address } },
      { linked_accounts: [{ type: 'email', address: 'pregen.bad2@example.com' }], embedded_wallet: { ...w.wallet, auth_share: 'not base64!' } },
    ]
    const r = await admin(`/apps/${APP}/users/import`, { idempotency_key: 'pregen-bad', users })
    const job = await done(r.body.id)
    expect(job).toMatchObject({ status: 'done', created: 0, failed: 2 })
    expect(job.errors.map((e: { error: string }) => e.error)).toEqual(['embedded_wallet.entropy_id: must be the index-0 Ethereum address', 'embedded_wallet: auth_share: Expected base64'])
  })

  it('the attacker with the whole database and the server’s secrets: one share per wallet, none pair up; the user’s claim code is what opens the second', async () => {
    // Everything the database holds, as text (every table, every row).
    const tables = await store.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
    let dump = ''
    for (const t of tables) dump += JSON.stringify(await store.query(`SELECT * FROM "${t.table_name}"`)) + '\n'
    for (const m of made) {
      // The auth share the tool sent is nowhere in the clear (the import's own payload included).
      expect(dump).not.toContain(m.wallet.auth_share)
      expect(dump).not.toContain(m.claimCode)
      expect(dump).not.toContain(normaliseClaimCode(m.claimCode))
    }
    // Every string in the dump that reads as a share (17 bytes of base64), and what the server's key opens.
    const candidates = new Set<string>()
    for (const x of dump.matchAll(/[A-Za-z0-9+/]{22}[A-Za-z0-9+/=]{2}/g)) {
      try {
        if (base64.decode(x[0]).length === 17) candidates.add(x[0])
      } catch {}
    }
    const rows = await store.query<{ entropy_id: string; auth_share: string; recovery_share: string; recovery_meta: Record<string, unknown> }>(`SELECT entropy_id, auth_share, recovery_share, recovery_meta FROM embedded_wallet_roots WHERE app_id = $1`, [APP])
    for (const row of rows) {
      const plain = await devKeys.open(row.auth_share, AUTH_SHARE_PURPOSE)
      candidates.add(plain.slice(plain.lastIndexOf('|') + 1))
    }
    const shares = [...candidates].map((c) => base64.decode(c))
    expect(shares.length).toBeGreaterThanOrEqual(3)
    for (const row of rows) {
      for (let i = 0; i < shares.length; i++) for (let j = i + 1; j < shares.length; j++) expect(await opens(shares[i], shares[j], row.entropy_id)).toBe(false)
    }
    // The user's code (and only the right one) opens the claim box in the frame's own recovery method; with the auth share, the address.
    const row = rows.find((r) => r.entropy_id === made[2].address)!
    const plain = await devKeys.open(row.auth_share, AUTH_SHARE_PURPOSE)
    const auth = base64.decode(plain.slice(plain.lastIndexOf('|') + 1))
    const stored = { recoveryShare: row.recovery_share, recoveryMeta: row.recovery_meta }
    const ctx = { config: { appId: APP }, entropyId: row.entropy_id, accessToken: 't' } as never
    await expect(recoveryMethod('user-passcode').open(stored, { recoveryMethod: 'user-passcode', recoveryPassword: made[1].claimCode }, ctx)).rejects.toThrow(INVALID_PASSWORD)
    // As typed: lower case, spaces for hyphens.
    const typed = made[2].claimCode.toLowerCase().replace(/-/g, ' ')
    const claim = await recoveryMethod('user-passcode').open(stored, { recoveryMethod: 'user-passcode', recoveryPassword: typed }, ctx)
    expect(await opens(auth, claim, made[2].address)).toBe(true)
  })
})
