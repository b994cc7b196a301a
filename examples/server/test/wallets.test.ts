/**
 * Embedded wallets, HTTP level (issue 14): the routes the wallet frame calls, with real
 * shares (the frame's own primitives: keys.ts, shares.ts) against a real server and database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { combineShares, shareFromString, shareToString, splitEntropy } from '../frame/shares'
import { HdRoot, ImportedRoot, generateEntropy } from '../frame/keys'
import type { Store } from '../src/core/store'
import { decodeJwt } from 'jose'
import { insertStepUpGrant, ownerMessage } from '../src/features/wallets/custody'
import { createEndpoint } from '../src/features/webhooks/service'
import { DEMO, devKeys, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'
import { WALLET_MSG } from '../src/features/wallets/errors'
import { testDevice, type TestDevice } from './device-client'

const FRAME = 'http://127.0.0.1:48788'
const RECOVERY_KEY = 'test-recovery-key-kept-outside-the-database-0001'

let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: RECOVERY_KEY } })
  device = testDevice(s)
  // A webhook endpoint of the app: the routes write their wallet events to its outbox (no
  // worker runs here; webhooks.test.ts sends them).
  await createEndpoint({ store, keys: devKeys }, DEMO, { url: 'https://hooks.example/wallets', events: ['wallet.created', 'wallet.recovered'] })
})

/** The wallet events the routes wrote to the webhook outbox for this user, by type then address. */
async function walletEvents(userId: string): Promise<{ type: string; data: any }[]> {
  const rows = await store.query<{ payload: string }>(`SELECT payload FROM webhook_deliveries WHERE app_id = $1 AND event_type LIKE 'wallet.%'`, [DEMO])
  const key = (e: { type: string; data: any }) => `${e.type} ${e.data.wallet?.address ?? ''}`
  return rows
    .map((r) => JSON.parse(r.payload))
    .filter((e) => e.data.user_id === userId)
    .map((e) => ({ type: e.type, data: e.data }))
    .sort((a, b) => key(a).localeCompare(key(b)))
}
afterAll(async () => {
  await s?.close()
  await store?.close()
})

async function login() {
  const r = await s.emailLogin(uniqueEmail('wlt'))
  expect(r.status).toBe(200)
  return r.body.token as string
}

/** What the frame does on create: a root, its shares, its index-0 wallets. */
async function newRoot() {
  const entropy = generateEntropy()
  const root = await HdRoot.fromEntropy(entropy)
  const shares = await splitEntropy(entropy)
  return { entropy, root, shares, entropyId: root.ethereum(0).address }
}

/** The user's wallet frame (one device for every test user: it registers with each wallet it creates). */
let device: TestDevice
const frameCall = (path: string, token: string | null, body: unknown) => device.call(path, token, body)

/** A verified step-up for the session of `token`, the test device and `entropyId` (what /wallets/step_up/verify records). */
async function grant(token: string, entropyId: string) {
  const { sub, sid } = decodeJwt(token) as { sub: string; sid: string }
  await insertStepUpGrant(store, { appId: DEMO, userId: sub, sessionId: sid, deviceId: await device.id(), entropyId }, 'email')
}

async function create(token: string, r: Awaited<ReturnType<typeof newRoot>>, extra: Record<string, unknown> = {}) {
  return frameCall('/api/v1/wallets/create', token, {
    entropy_id: r.entropyId,
    entropy_id_verifier: 'ethereum-address-verifier',
    auth_share: shareToString(r.shares.auth),
    recovery_method: 'privy',
    recovery_share: shareToString(r.shares.recovery),
    wallets: [
      { address: r.root.ethereum(0).address, chain_type: 'ethereum', wallet_index: 0 },
      { address: r.root.solana(0).address, chain_type: 'solana', wallet_index: 0 },
    ],
    ...extra,
  })
}

describe('create', () => {
  it('stores the public wallets on the user record and refuses a second root', async () => {
    const token = await login()
    const r = await newRoot()
    const res = await create(token, r)
    expect(res.status).toBe(200)
    expect(res.body.mfa_enrolled).toBe(false)
    const wallets = res.body.user.linked_accounts.filter((a: any) => a.type === 'wallet')
    expect(wallets).toHaveLength(2)
    expect(wallets[0]).toMatchObject({
      address: r.root.ethereum(0).address,
      chain_type: 'ethereum',
      wallet_client_type: 'privy',
      wallet_index: 0,
      recovery_method: 'privy',
      entropy_id: r.entropyId,
      entropy_id_verifier: 'ethereum-address-verifier',
      imported: false,
      delegated: false,
    })
    expect(wallets[1]).toMatchObject({ address: r.root.solana(0).address, chain_type: 'solana', wallet_index: 0 })
    // GET /users/me shows them too.
    const me = await s.call('/api/v1/users/me', { token })
    expect(me.body.user?.linked_accounts ?? me.body.linked_accounts).toBeDefined()

    const again = await create(token, await newRoot())
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ code: 'embedded_wallet_already_exists', error: WALLET_MSG.alreadyExists })
    // The host's backend hears of both wallets (wallet.created, in the create's transaction); the refused second root wrote nothing.
    expect(await walletEvents(res.body.user.id)).toEqual([
      { type: 'wallet.created', data: { user_id: res.body.user.id, wallet: { address: r.root.ethereum(0).address, chain_type: 'ethereum', wallet_index: 0, imported: false, recovery_method: 'privy' } } },
      { type: 'wallet.created', data: { user_id: res.body.user.id, wallet: { address: r.root.solana(0).address, chain_type: 'solana', wallet_index: 0, imported: false, recovery_method: 'privy' } } },
    ])
  })

  it("an address another user's wallet holds: 'already linked to another user', not 'already has an embedded wallet' (issue 25)", async () => {
    const r = await newRoot()
    expect((await create(await login(), r)).status).toBe(200)
    const other = await login()
    const taken = await create(other, r)
    expect(taken.status).toBe(400)
    expect(taken.body).toMatchObject({ code: 'linked_to_another_user', error: WALLET_MSG.addressTaken })
    // Nothing was written for the second user: a wallet of their own is still created.
    expect((await create(other, await newRoot())).status).toBe(200)
  })

  it('only with a device proof (the frame Origin is no credential), only with a valid token', async () => {
    const token = await login()
    const r = await newRoot()
    const body = { entropy_id: r.entropyId, entropy_id_verifier: 'ethereum-address-verifier', auth_share: shareToString(r.shares.auth), recovery_method: 'privy', recovery_share: shareToString(r.shares.recovery), wallets: [{ address: r.entropyId, chain_type: 'ethereum', wallet_index: 0 }] }
    // The frame's Origin, forged by a client without the device key: refused, nothing written.
    const forged = await s.call('/api/v1/wallets/create', { token, headers: { origin: FRAME }, body })
    expect(forged.status).toBe(403)
    expect(forged.body).toMatchObject({ code: 'device_proof_required', error: 'Wallet secrets are released to a registered wallet device only.' })
    expect((await store.query('SELECT 1 FROM embedded_wallet_roots WHERE lower(entropy_id) = lower($1)', [r.entropyId])).length).toBe(0)
    // With the device's proof (whatever the Origin): created.
    expect((await create(token, r)).status).toBe(200)
    const noToken = await create(null as never, await newRoot())
    expect(noToken.status).toBe(401)
  })

  it('refuses an entropy id that is not the root address and a wallet index other than 0', async () => {
    const token = await login()
    const r = await newRoot()
    const bad = await create(token, r, { entropy_id: r.root.ethereum(1).address })
    expect(bad.status).toBe(422)
    const idx = await create(token, r, { wallets: [{ address: r.entropyId, chain_type: 'ethereum', wallet_index: 1 }] })
    expect(idx.status).toBe(422)
    const neg = await create(token, r, { wallets: [{ address: r.entropyId, chain_type: 'ethereum', wallet_index: -1 }] })
    expect(neg.status).toBe(422)
    expect(neg.body.error).toContain(WALLET_MSG.negativeIndex)
    const users = await store.query('SELECT count(*)::int AS n FROM embedded_wallet_roots WHERE lower(entropy_id) = lower($1)', [r.entropyId])
    expect(users[0].n).toBe(0)
  })
})

describe('shares', () => {
  it('auth share: the registered device and the owner only; with the device share it rebuilds the root', async () => {
    const token = await login()
    const r = await newRoot()
    expect((await create(token, r)).status).toBe(200)
    const ok = await frameCall('/api/v1/wallets/auth_share', token, { entropy_id: r.entropyId })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('cache-control')).toBe('no-store')
    expect(ok.body.mfa_enrolled).toBe(false)
    const rebuilt = await HdRoot.fromEntropy(await combineShares(r.shares.device, shareFromString(ok.body.share)))
    expect(rebuilt.ethereum(0).address).toBe(r.entropyId)

    // Without the device's proof (the frame's Origin forged): refused. Another device: refused.
    const noProof = await s.call('/api/v1/wallets/auth_share', { token, body: { entropy_id: r.entropyId }, headers: { origin: FRAME } })
    expect(noProof.status).toBe(403)
    expect(noProof.body.share).toBeUndefined()
    const otherDevice = await testDevice(s).call('/api/v1/wallets/auth_share', token, { entropy_id: r.entropyId })
    expect(otherDevice.body).toMatchObject({ code: 'device_step_up_required' })
    expect(otherDevice.body.share).toBeUndefined()
    const other = await login()
    const refused = await frameCall('/api/v1/wallets/auth_share', other, { entropy_id: r.entropyId })
    expect(refused.status).toBe(404)
    expect(refused.body.error).toBe(WALLET_MSG.notFound)
    expect(refused.body.share).toBeUndefined()
    expect((await frameCall('/api/v1/wallets/auth_share', 'x.y.z', { entropy_id: r.entropyId })).status).toBe(401)
  })

  it('privy recovery share: only after a step-up on this device (single use); opened by the server; with the auth share it rebuilds the root', async () => {
    const token = await login()
    const r = await newRoot()
    await create(token, r)
    const none = await frameCall('/api/v1/wallets/recovery_share', token, { entropy_id: r.entropyId })
    expect(none.status).toBe(403)
    expect(none.body).toMatchObject({ code: 'device_step_up_required', error: 'Confirm it’s you to use your wallet on this device.' })
    await grant(token, r.entropyId)
    const rec = await frameCall('/api/v1/wallets/recovery_share', token, { entropy_id: r.entropyId })
    expect(rec.status).toBe(200)
    expect((await frameCall('/api/v1/wallets/recovery_share', token, { entropy_id: r.entropyId })).status).toBe(403)
    expect(rec.body.recovery_method).toBe('privy')
    const auth = await frameCall('/api/v1/wallets/auth_share', token, { entropy_id: r.entropyId })
    const rebuilt = await HdRoot.fromEntropy(await combineShares(shareFromString(rec.body.recovery_share), shareFromString(auth.body.share)))
    expect(rebuilt.solana(0).address).toBe(r.root.solana(0).address)
  })

  it('a new device that confirms it is the user (step-up) and takes the recovery share: wallet.recovered for the host backend', async () => {
    const token = await login()
    const r = await newRoot()
    const created = await create(token, r)
    const userId = created.body.user.id as string
    // The same user on another browser: a new session and a device the wallet has never seen.
    const other = (await s.emailLogin(created.body.user.linked_accounts.find((a: any) => a.type === 'email').address)).body.token as string
    const b = testDevice(s)
    expect((await b.call('/api/v1/wallets/recovery_share', other, { entropy_id: r.entropyId })).status).toBe(403)
    expect((await walletEvents(userId)).filter((e) => e.type === 'wallet.recovered')).toEqual([])
    const { sid } = decodeJwt(other) as { sid: string }
    await insertStepUpGrant(store, { appId: DEMO, userId, sessionId: sid, deviceId: await b.id(), entropyId: r.entropyId }, 'email')
    expect((await b.call('/api/v1/wallets/recovery_share', other, { entropy_id: r.entropyId })).status).toBe(200)
    expect((await walletEvents(userId)).filter((e) => e.type === 'wallet.recovered')).toEqual([
      { type: 'wallet.recovered', data: { user_id: userId, entropy_id: r.entropyId, recovery_method: 'privy', device: 'step_up' } },
    ])
  })

  it('the database contents alone cannot reconstruct a key', async () => {
    const token = await login()
    const r = await newRoot()
    await create(token, r)
    const [row] = await store.query('SELECT * FROM embedded_wallet_roots WHERE lower(entropy_id) = lower($1)', [r.entropyId])
    // Neither share is stored in the clear.
    const plainAuth = shareToString(r.shares.auth)
    const plainRec = shareToString(r.shares.recovery)
    const dump = JSON.stringify(await store.query('SELECT * FROM embedded_wallet_roots')) + JSON.stringify(await store.query('SELECT data FROM accounts'))
    expect(dump).not.toContain(plainAuth)
    expect(dump).not.toContain(plainRec)
    expect(dump).not.toContain(shareToString(r.shares.device))
    // Trying every pairing of the stored columns (as bytes) never gives this root.
    const candidates = [row.auth_share, row.recovery_share, row.entropy_id].map((v: string) => new TextEncoder().encode(v))
    for (let i = 0; i < candidates.length; i++)
      for (let j = i + 1; j < candidates.length; j++) {
        let address: string | null = null
        try {
          address = (await HdRoot.fromEntropy(await combineShares(candidates[i], candidates[j]))).ethereum(0).address
        } catch {}
        expect(address).not.toBe(r.entropyId)
      }
  })
})

describe('linked account rules', () => {
  it('an embedded wallet cannot be unlinked', async () => {
    const token = await login()
    const r = await newRoot()
    await create(token, r)
    const res = await s.call('/api/v1/siwe/unlink', { token, body: { address: r.entropyId } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('An embedded wallet cannot be unlinked.')
    const sol = await s.call('/api/v1/siws/unlink', { token, body: { address: r.root.solana(0).address } })
    expect(sol.body.error).toBe('An embedded wallet cannot be unlinked.')
  })
})

describe('add', () => {
  it('follows the wallet index rules', async () => {
    const token = await login()
    const r = await newRoot()
    await frameCall('/api/v1/wallets/create', token, {
      entropy_id: r.entropyId,
      entropy_id_verifier: 'ethereum-address-verifier',
      auth_share: shareToString(r.shares.auth),
      recovery_method: 'privy',
      recovery_share: shareToString(r.shares.recovery),
      wallets: [{ address: r.entropyId, chain_type: 'ethereum', wallet_index: 0 }],
    })
    // Signed by the root's index-0 key (what the frame does); unsigned or signed by another key: refused.
    const add = (chain_type: string, wallet_index: number, address: string, signer = r.root) =>
      device.call('/api/v1/wallets/add', token, { entropy_id: r.entropyId, chain_type, wallet_index, address }, {
        sign: async (nonce) => ({
          owner_signature: await signer.signOwner('ethereum-address-verifier', ownerMessage({ action: 'add', appId: DEMO, entropyId: r.entropyId, nonce, fields: { chain_type, wallet_index, address } })),
        }),
      })
    const unsigned = await frameCall('/api/v1/wallets/add', token, { entropy_id: r.entropyId, chain_type: 'ethereum', wallet_index: 1, address: r.root.ethereum(1).address })
    expect(unsigned.status).toBe(403)
    expect(unsigned.body).toMatchObject({ code: 'wallet_owner_signature_invalid', error: 'The change is not signed by the wallet.' })
    const foreign = await add('ethereum', 1, r.root.ethereum(1).address, (await newRoot()).root)
    expect(foreign.body.code).toBe('wallet_owner_signature_invalid')
    const neg = await add('ethereum', -1, r.root.ethereum(1).address)
    expect(neg.status).toBe(422)
    expect(neg.body.error).toContain('A negative walletIndex is invalid.')
    const zero = await add('ethereum', 0, r.root.ethereum(0).address)
    expect(zero.body).toMatchObject({ code: 'embedded_wallet_already_exists', error: 'User already has an embedded wallet.' })
    const solOne = await add('solana', 1, r.root.solana(1).address)
    expect(solOne.status).toBe(400)
    expect(solOne.body.error).toBe(WALLET_MSG.needsIndexZero)
    const one = await add('ethereum', 1, r.root.ethereum(1).address)
    expect(one.status).toBe(200)
    expect(one.body.recovery_method).toBe('privy')
    const sol = await add('solana', 0, r.root.solana(0).address)
    expect(sol.status).toBe(200)
    const w = sol.body.user.linked_accounts.filter((a: any) => a.type === 'wallet').map((a: any) => [a.chain_type, a.wallet_index])
    expect(w).toEqual([['ethereum', 0], ['ethereum', 1], ['solana', 0]])
  })
})

describe('import (an imported root wallet: imported true, index 0, shares split as for a created root)', () => {
  /** What the frame does on wallets:import: the key, its shares, its address as entropy id. */
  async function imported(chainType: 'ethereum' | 'solana' = 'ethereum') {
    const key = crypto.getRandomValues(new Uint8Array(32))
    const root = new ImportedRoot(chainType, Uint8Array.from(key))
    const shares = await splitEntropy(key)
    return { key, root, shares, address: root.address(chainType, 0), chainType }
  }
  const importCall = (token: string, r: Awaited<ReturnType<typeof imported>>, extra: Record<string, unknown> = {}) =>
    frameCall('/api/v1/wallets/import', token, {
      entropy_id: r.address,
      entropy_id_verifier: r.chainType === 'ethereum' ? 'ethereum-address-verifier' : 'solana-address-verifier',
      auth_share: shareToString(r.shares.auth),
      recovery_method: 'privy',
      recovery_share: shareToString(r.shares.recovery),
      wallet: { address: r.address, chain_type: r.chainType },
      ...extra,
    })

  it('registers the key as its own root beside the created one; two shares rebuild the key, one does not', async () => {
    const token = await login()
    expect((await create(token, await newRoot())).status).toBe(200)
    const r = await imported()
    const res = await importCall(token, r)
    expect(res.status).toBe(200)
    const w = res.body.user.linked_accounts.find((a: any) => a.type === 'wallet' && a.address === r.address)
    expect(w).toMatchObject({ chain_type: 'ethereum', wallet_index: 0, imported: true, entropy_id: r.address, recovery_method: 'privy', wallet_client_type: 'privy' })
    const rows = await store.query<{ imported: boolean }>('SELECT imported FROM embedded_wallet_roots WHERE entropy_id = $1', [r.address])
    expect(rows[0].imported).toBe(true)
    // The frame gets its auth share back like any root's; with the device share it is the key.
    const auth = await frameCall('/api/v1/wallets/auth_share', token, { entropy_id: r.address })
    expect(auth.status).toBe(200)
    expect([...(await combineShares(r.shares.device, shareFromString(auth.body.share)))]).toEqual([...r.key])
    // The server's privy share opens too (automatic recovery of an imported key), after a step-up.
    await grant(token, r.address)
    const rec = await frameCall('/api/v1/wallets/recovery_share', token, { entropy_id: r.address })
    expect([...(await combineShares(shareFromString(rec.body.recovery_share), shareFromString(auth.body.share)))]).toEqual([...r.key])
  })

  it('a Solana key; an imported key first does not block creating the embedded wallet; add on it is refused', async () => {
    const token = await login()
    const r = await imported('solana')
    expect((await importCall(token, r)).status).toBe(200)
    expect((await create(token, await newRoot())).status).toBe(200)
    const add = await frameCall('/api/v1/wallets/add', token, { entropy_id: r.address, address: r.address, chain_type: 'solana', wallet_index: 1 })
    expect(add.status).toBe(400)
    expect(add.body.error).toBe(WALLET_MSG.importedHasNoSiblings)
  })

  it("refuses the same key twice, another user importing it, a mismatched entropy id, and callers without the frame's device proof", async () => {
    const token = await login()
    const r = await imported()
    expect((await importCall(token, r)).status).toBe(200)
    const twice = await importCall(token, r)
    expect(twice.status).toBe(400)
    expect(twice.body.error).toBe(WALLET_MSG.alreadyExists)
    const other = await importCall(await login(), r)
    expect(other.status).toBe(400)
    expect(other.body.error).toBe(WALLET_MSG.addressTaken)
    const r2 = await imported()
    const mismatch = await importCall(token, r2, { entropy_id: (await imported()).address })
    expect(mismatch.status).toBe(422)
    const chain = await importCall(token, r2, { entropy_id_verifier: 'solana-address-verifier' })
    expect(chain.status).toBe(422)
    const body = { entropy_id: r2.address, entropy_id_verifier: 'ethereum-address-verifier', auth_share: shareToString(r2.shares.auth), recovery_method: 'privy', recovery_share: shareToString(r2.shares.recovery), wallet: { address: r2.address, chain_type: 'ethereum' } }
    const forged = await s.call('/api/v1/wallets/import', { token, headers: { origin: FRAME }, body })
    expect(forged.status).toBe(403)
    // Another device on the session the user's frame uses: refused too.
    expect((await testDevice(s).call('/api/v1/wallets/import', token, body)).body.code).toBe('device_step_up_required')
    const n = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM embedded_wallet_roots WHERE lower(entropy_id) = lower($1)', [r2.address])
    expect(n[0].n).toBe(0)
  })
})
