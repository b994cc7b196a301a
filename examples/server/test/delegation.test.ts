/**
 * Delegated actions over HTTP: consent (POST /wallets/delegate with a key sealed to the
 * server, as the wallet frame sends it: the user's token and a device proof), the host backend's signing API (POST
 * /wallets/{address}/rpc with the app secret) verified with viem and ed25519, revoke, and every
 * refusal (the spec's texts; nothing written on a 4xx).
 */
import { readFileSync } from 'node:fs'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { compactDecrypt, importJWK, type JWK } from 'jose'
import { parseTransaction, recoverTransactionAddress, verifyMessage, verifyTypedData, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from '@solana/web3.js'
import { startSvm, type Svm } from '../../../test/chains/svm'
import { sealWalletKey } from '../frame/delegation-seal'
import { normalizePolicy, type DelegationPolicy, type DelegationPolicyInput } from '../../../plugins/delegated-actions/policy'
import type { AppSettings } from '../src/config'
import { SECRET_FAILURES_PER_WINDOW } from '../src/core/auth'
import { DELEGATION_MSG } from '../src/features/delegation/errors'
import type { Store } from '../src/core/store'
import { testDevice, type TestDevice } from './device-client'
import { createEndpoint } from '../src/features/webhooks/service'
import { APPS_FILE, DEMO, devKeys, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const XPD = 'portico-test-xpd-00000001'
const XPD_SECRET = 'xpd-test-app-secret-not-for-production-000000'
/** A second app with a secret of its own: its backend must not reach XPD's users. */
const OTHER = 'portico-test-xpd-00000002'
const OTHER_SECRET = 'xpd-other-app-secret-not-for-production-0000'

/** The wallet frame's origin (embedded wallets on). Not a credential: consent goes through the wallet guard (token + device proof). */
const FRAME = 'http://127.0.0.1:48800'

let store: Store
let s: TestServer
let jwk: JWK

beforeAll(async () => {
  store = await openTestStore()
  const base = JSON.parse(readFileSync(APPS_FILE, 'utf8')).apps as AppSettings[]
  const xpd = base.find((a) => a.id === XPD)!
  s = await startTestServer(store, { apps: [...base, { ...xpd, id: OTHER, name: 'Other', appSecret: OTHER_SECRET } as AppSettings], wallets: { frameOrigin: FRAME } })
  jwk = (await s.call('/api/v1/wallets/delegation_key', { appId: XPD })).body.jwk
  // A webhook endpoint of XPD: the routes below write their delegation events to its outbox
  // (no worker runs here; webhooks.test.ts sends them).
  await createEndpoint({ store, keys: devKeys }, XPD, { url: 'https://hooks.example/xpd', events: ['delegation.granted', 'delegation.revoked'] })
})
afterAll(async () => {
  await s?.close()
  await store?.close()
})

interface TestWallet {
  chain: 'ethereum' | 'solana'
  address: string
  key: Hex
}

const ethWallet = (): TestWallet => {
  const key = generatePrivateKey()
  return { chain: 'ethereum', address: privateKeyToAccount(key).address, key }
}
const solWallet = (): TestWallet => {
  const seed = ed25519.utils.randomSecretKey()
  return { chain: 'solana', address: base58.encode(ed25519.getPublicKey(seed)), key: `0x${Buffer.from(seed).toString('hex')}` }
}

/**
 * A user with embedded wallets as linked accounts (wallet_client_type 'privy'), the way the
 * wallet frame's create leaves them; the private keys stay with the test (the frame's role).
 */
async function userWith(wallets: TestWallet[], appId = XPD) {
  const login = await s.emailLogin(uniqueEmail('xpd'), { appId })
  expect(login.status).toBe(200)
  const token = login.body.token as string
  const userId = login.body.user.id as string
  let i = 0
  for (const w of wallets) {
    await store.query(
      `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at) VALUES ($1, $2, 'wallet', $3, $4, 1, 1, 1)`,
      [
        userId,
        appId,
        `${w.chain}:${w.chain === 'ethereum' ? w.address.toLowerCase() : w.address}`,
        JSON.stringify({ address: w.address, chain_type: w.chain, wallet_client_type: 'privy', connector_type: 'embedded', imported: false, delegated: false, recovery_method: 'privy', wallet_index: i++ }),
      ],
    )
  }
  return { token, userId }
}

const seal = (w: TestWallet, over: Partial<{ address: string; chain_type: 'ethereum' | 'solana'; private_key: string; policy: DelegationPolicy }> = {}) =>
  sealWalletKey(jwk, { address: w.address, chain_type: w.chain, private_key: w.key, ...over })

/** As the consent page sends it (from the user's wallet frame: token and device proof), with `policy` (normalised, as the page seals it). */
const delegate = async (token: string, w: TestWallet, sealed?: string, appId = XPD, policy?: DelegationPolicyInput) =>
  frameOf(token, appId).call('/api/v1/wallets/delegate', token, {
    address: w.address,
    chain_type: w.chain,
    sealed_key: sealed ?? (await seal(w, { policy: normalizePolicy(w.chain, policy) })),
  })

/** A broad policy for the signing tests: every method, the test chains, generous caps. */
const BROAD: Record<'ethereum' | 'solana', DelegationPolicyInput> = {
  ethereum: { methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction'], chainIds: [1, 31337], maxValuePerTx: '10000000000000000000', maxValuePerDay: '100000000000000000000' },
  solana: { methods: ['signMessage', 'signTransaction'], maxValuePerTx: '1000000000', maxValuePerDay: '10000000000' },
}

const basic = (appId: string, secret: string) => `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`
const rpc = (address: string, body: unknown, o: { appId?: string; secret?: string; auth?: string | null; headers?: Record<string, string> } = {}) => {
  const appId = o.appId ?? XPD
  const auth = o.auth === undefined ? basic(appId, o.secret ?? XPD_SECRET) : o.auth
  return s.call(`/api/v1/wallets/${address}/rpc`, { appId, body, headers: { ...(auth ? { authorization: auth } : {}), ...o.headers } })
}

async function snapshot() {
  const [r] = await store.query<Record<string, unknown>>(
    `SELECT (SELECT count(*)::int FROM wallet_delegations) AS delegations,
            (SELECT count(*)::int FROM accounts WHERE (data->>'delegated')::boolean) AS delegated,
            (SELECT coalesce(max(last_used_at), 0)::bigint FROM wallet_delegations) AS used`,
  )
  return r
}

/** The wallet frame a user's session runs in (one device per session and app: the first proof binds the session). */
const devices = new Map<string, TestDevice>()
const frameOf = (token: string, appId = XPD) => {
  const k = `${appId} ${token}`
  let d = devices.get(k)
  if (!d) devices.set(k, (d = testDevice(s, appId)))
  return d
}

/** The delegation events the routes wrote to the webhook outbox for this user (sorted by type, then address: ids are random and times are seconds). */
async function eventsOf(userId: string): Promise<{ type: string; data: any }[]> {
  const rows = await store.query<{ payload: string }>(
    `SELECT payload FROM webhook_deliveries WHERE app_id = $1 AND event_type LIKE 'delegation.%' `,
    [XPD],
  )
  const key = (e: { type: string; data: any }) => `${e.type} ${e.data.wallet?.address ?? ''}`
  return rows
    .map((r) => JSON.parse(r.payload))
    .filter((e) => e.data.user_id === userId)
    .map((e) => ({ type: e.type, data: e.data }))
    .sort((a, b) => key(a).localeCompare(key(b)))
}

const delegatedFlag = (user: any, address: string) => user.linked_accounts.find((a: any) => a.address === address)?.delegated

describe('the delegation key', () => {
  it('is a P-256 encryption key, the same on every start with the same secret', async () => {
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ECDH-ES', use: 'enc' })
    expect(jwk).not.toHaveProperty('d')
    const again = await startTestServer(store)
    try {
      expect((await again.call('/api/v1/wallets/delegation_key', { appId: XPD })).body.jwk).toEqual(jwk)
    } finally {
      await again.close()
    }
  })
})

describe('consent', () => {
  it('delegates an Ethereum wallet: the flag on the user, the sealed key stored, never the key in the clear', async () => {
    const w = ethWallet()
    const { token, userId } = await userWith([w, solWallet()])
    const r = await delegate(token, w)
    expect(r.status).toBe(200)
    expect(delegatedFlag(r.body.user, w.address)).toBe(true)
    const rows = await store.query<{ sealed_key: string; user_id: string; wallet_index: number }>('SELECT * FROM wallet_delegations WHERE user_id = $1', [userId])
    expect(rows).toHaveLength(1)
    expect(rows[0].wallet_index).toBe(0)
    const dump = JSON.stringify(await store.query('SELECT * FROM wallet_delegations')) + JSON.stringify(await store.query('SELECT * FROM accounts'))
    expect(dump).not.toContain(w.key.slice(2))
    // The database alone opens nothing: a key from another server secret cannot read the seal.
    const wrong = await importJWK({ ...(await (await import('node:crypto')).generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })) } as JWK, 'ECDH-ES')
    await expect(compactDecrypt(rows[0].sealed_key, wrong)).rejects.toThrow()
    // /users/me shows it too.
    const me = await s.call('/api/v1/users/me', { appId: XPD, token })
    expect(delegatedFlag(me.body.user, w.address)).toBe(true)
    // The host's backend hears of it: one delegation.granted event, in the consent's transaction.
    expect(await eventsOf(userId)).toEqual([{ type: 'delegation.granted', data: { user_id: userId, wallet: { address: w.address, chain_type: 'ethereum' }, expires_at: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number') } }])
  })

  it('refuses an address that is not one of the user’s embedded wallets (spec text), and writes nothing', async () => {
    const mine = ethWallet()
    const { token } = await userWith([mine])
    const theirs = ethWallet()
    await userWith([theirs])
    const before = await snapshot()
    const r = await delegate(token, theirs)
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('Address to delegate is not associated with current user.')
    // An external (non-embedded) wallet of the same user is not delegable either.
    const ext = ethWallet()
    const u = await userWith([])
    await store.query(
      `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at) VALUES ($1, $2, 'wallet', $3, $4, 1, 1, 1)`,
      [u.userId, XPD, `ethereum:${ext.address.toLowerCase()}`, JSON.stringify({ address: ext.address, chain_type: 'ethereum', wallet_client_type: 'metamask' })],
    )
    expect((await delegate(u.token, ext)).body.error).toBe(DELEGATION_MSG.notAssociated)
    expect(await snapshot()).toEqual(before)
  })

  it('needs a Solana wallet to delegate a Solana address (spec text)', async () => {
    const { token } = await userWith([ethWallet()])
    const r = await delegate(token, solWallet())
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('User must have a solana wallet in order to delegate actions')
  })

  it('takes Ethereum and Solana only', async () => {
    const w = ethWallet()
    const { token } = await userWith([w])
    const r = await frameOf(token).call('/api/v1/wallets/delegate', token, { address: w.address, chain_type: 'bitcoin', sealed_key: await seal(w) })
    expect(r.status).toBe(422)
    expect(r.body.error).toContain(DELEGATION_MSG.chainTypes)
  })

  it('refuses a key that is not the wallet’s, a tampered seal, a call without a device proof, and a missing token; nothing written', async () => {
    const w = ethWallet()
    const { token } = await userWith([w])
    const before = await snapshot()
    // The host page cannot delegate a wallet without its key: a key of another wallet is refused.
    const other = ethWallet()
    const r1 = await delegate(token, w, await seal(w, { private_key: other.key }))
    expect([r1.status, r1.body.error]).toEqual([400, DELEGATION_MSG.keyMismatch])
    const r2 = await delegate(token, w, await seal(other, { address: w.address }))
    expect(r2.body.error).toBe(DELEGATION_MSG.keyMismatch)
    const good = await seal(w)
    const parts = good.split('.')
    parts[3] = parts[3].slice(0, -2) + (parts[3].endsWith('AA') ? 'BB' : 'AA')
    const r3 = await delegate(token, w, parts.join('.'))
    expect([r3.status, r3.body.error]).toEqual([400, DELEGATION_MSG.badSeal])
    // The token with the frame's Origin but no device proof (not the frame): refused.
    const r6 = await s.call('/api/v1/wallets/delegate', { appId: XPD, token, headers: { origin: FRAME }, body: { address: w.address, chain_type: 'ethereum', sealed_key: good } })
    expect([r6.status, r6.body.code]).toEqual([403, 'device_proof_required'])
    // The user's own frame without a token: refused.
    const r4 = await frameOf(token).call('/api/v1/wallets/delegate', null, { address: w.address, chain_type: 'ethereum', sealed_key: good })
    expect(r4.status).toBe(401)
    // A token of another app does not carry over (a frame of that app, proof and all).
    const r5 = await delegate(token, w, good, DEMO)
    expect(r5.status).toBe(401)
    expect(await snapshot()).toEqual(before)
  })
})

describe('the host backend signs while a wallet is delegated', () => {
  let eth: TestWallet
  let sol: TestWallet
  let token: string

  beforeAll(async () => {
    eth = ethWallet()
    sol = solWallet()
    ;({ token } = await userWith([eth, sol]))
    expect((await delegate(token, eth, undefined, XPD, BROAD.ethereum)).status).toBe(200)
    const r = await delegate(token, sol, undefined, XPD, BROAD.solana)
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts.filter((a: any) => a.delegated)).toHaveLength(2)
  })

  it('personal_sign (utf-8 and hex), verified with viem', async () => {
    const r = await rpc(eth.address, { method: 'personal_sign', params: { message: 'Hello from the backend', encoding: 'utf-8' } })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ method: 'personal_sign', data: { encoding: 'hex' } })
    expect(await verifyMessage({ address: eth.address as Hex, message: 'Hello from the backend', signature: r.body.data.signature })).toBe(true)
    const hex = await rpc(eth.address.toLowerCase(), { method: 'personal_sign', params: { message: '0xdeadbeef', encoding: 'hex' } })
    expect(await verifyMessage({ address: eth.address as Hex, message: { raw: '0xdeadbeef' }, signature: hex.body.data.signature })).toBe(true)
  })

  it('eth_signTypedData_v4, verified with viem', async () => {
    const typed = {
      domain: { name: 'Portico', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
      types: { Mail: [{ name: 'to', type: 'address' }, { name: 'contents', type: 'string' }] },
      primary_type: 'Mail',
      message: { to: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', contents: 'Hi' },
    }
    const r = await rpc(eth.address, { method: 'eth_signTypedData_v4', params: { typed_data: typed } })
    expect(r.status).toBe(200)
    const ok = await verifyTypedData({
      address: eth.address as Hex,
      domain: typed.domain as never,
      types: typed.types,
      primaryType: 'Mail',
      message: typed.message,
      signature: r.body.data.signature,
    })
    expect(ok).toBe(true)
  })

  it('eth_signTransaction (EIP-1559 and legacy): the signer recovered from the signed transaction is the wallet', async () => {
    const r = await rpc(eth.address, {
      method: 'eth_signTransaction',
      params: { transaction: { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x2386f26fc10000', chain_id: 31337, nonce: 0, gas_limit: 21000, max_fee_per_gas: '0x3b9aca00', max_priority_fee_per_gas: '0x3b9aca00' } },
    })
    expect(r.status).toBe(200)
    const signed = r.body.data.signed_transaction as Hex
    expect(parseTransaction(signed)).toMatchObject({ chainId: 31337, value: 10_000_000_000_000_000n, type: 'eip1559' })
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(eth.address)
    const legacy = await rpc(eth.address, { method: 'eth_signTransaction', params: { transaction: { to: eth.address, value: 1, gas_price: 1_000_000_000, gas_limit: 21000, nonce: 1, chain_id: 1 } } })
    expect(parseTransaction(legacy.body.data.signed_transaction)).toMatchObject({ type: 'legacy' })
  })

  it('Solana signMessage, verified with ed25519', async () => {
    const msg = new TextEncoder().encode('Solana, from the backend')
    const r = await rpc(sol.address, { method: 'signMessage', chain_type: 'solana', params: { message: base64.encode(msg), encoding: 'base64' } })
    expect(r.status).toBe(200)
    expect(ed25519.verify(base64.decode(r.body.data.signature), msg, base58.decode(sol.address))).toBe(true)
  })

  describe('Solana signTransaction: a transfer signed by the backend runs on the SVM', () => {
    let svm: Svm
    beforeAll(async () => {
      svm = await startSvm()
      await svm.airdrop(sol.address, 2_000_000_000n)
    }, 60_000)
    afterAll(() => svm?.stop())

    const blockhash = async () => (await svm.call<{ value: { blockhash: string } }>('getLatestBlockhash', [])).value.blockhash
    const send = (signed: Uint8Array) => svm.call<string>('sendTransaction', [base64.encode(signed), { encoding: 'base64' }])

    it('legacy and versioned transfers: signed by the wallet, accepted by the SVM, lamports moved', async () => {
      const from = new PublicKey(sol.address)
      const to = Keypair.generate().publicKey
      const legacy = new Transaction({ feePayer: from, recentBlockhash: await blockhash() }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 1_000_000 }))
      const r = await rpc(sol.address, { method: 'signTransaction', chain_type: 'solana', params: { transaction: base64.encode(legacy.serialize({ requireAllSignatures: false, verifySignatures: false })) } })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ method: 'signTransaction', data: { encoding: 'base64' } })
      const signed = base64.decode(r.body.data.signed_transaction)
      expect(Transaction.from(signed).verifySignatures()).toBe(true)
      await send(signed)
      expect(await svm.balance(to.toBase58())).toBe(1_000_000)

      const message = new TransactionMessage({ payerKey: from, recentBlockhash: await blockhash(), instructions: [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports: 500_000 })] }).compileToV0Message()
      const v = await rpc(sol.address, { method: 'signTransaction', params: { transaction: base64.encode(new VersionedTransaction(message).serialize()) } })
      expect(v.status).toBe(200)
      const vt = VersionedTransaction.deserialize(base64.decode(v.body.data.signed_transaction))
      expect(ed25519.verify(vt.signatures[0], vt.message.serialize(), base58.decode(sol.address))).toBe(true)
      await send(vt.serialize())
      expect(await svm.balance(to.toBase58())).toBe(1_500_000)
    })

    it("refuses a transaction the wallet does not sign ('Transaction does not contain public key {key}'), garbage, and an Ethereum wallet", async () => {
      const other = Keypair.generate().publicKey
      const tx = new Transaction({ feePayer: other, recentBlockhash: await blockhash() }).add(SystemProgram.transfer({ fromPubkey: other, toPubkey: other, lamports: 1 }))
      const r = await rpc(sol.address, { method: 'signTransaction', params: { transaction: base64.encode(tx.serialize({ requireAllSignatures: false, verifySignatures: false })) } })
      expect(r.status).toBe(400)
      expect(r.body.error).toBe(`Transaction does not contain public key ${sol.address}`)
      const junk = await rpc(sol.address, { method: 'signTransaction', params: { transaction: base64.encode(new Uint8Array([1, 2, 3])) } })
      expect(junk.status).toBe(400)
      expect(junk.body.error).toBe('Invalid transaction request')
      const notB64 = await rpc(sol.address, { method: 'signTransaction', params: { transaction: '%%%' } })
      expect(notB64.status).toBe(422)
      const eth2 = await rpc(eth.address, { method: 'signTransaction', params: { transaction: 'AA==' } })
      expect(eth2.body.error).toBe(DELEGATION_MSG.wrongChain('signTransaction', 'ethereum'))
    })
  })

  it('numeric fields must be numbers or hex strings (the error names the property); other bad params are 422', async () => {
    const r = await rpc(eth.address, { method: 'eth_signTransaction', params: { transaction: { to: eth.address, value: '1000', chain_id: 1 } } })
    expect(r.status).toBe(422)
    expect(r.body.error).toContain('value must be a number, bigint or hex string')
    const t = await rpc(eth.address, { method: 'eth_signTypedData_v4', params: { typed_data: { types: { A: [{ name: 'x', type: 'uint256' }] }, primary_type: 'B', message: { x: 1 } } } })
    expect(t.status).toBeGreaterThanOrEqual(400)
    expect(t.status).toBeLessThan(500)
    expect((await rpc(eth.address, { method: 'personal_sign', params: {} })).status).toBe(422)
    expect((await rpc(eth.address, { method: 'eth_sign', params: {} })).status).toBe(422)
  })

  it('a method of the other chain is refused', async () => {
    const r = await rpc(sol.address, { method: 'personal_sign', params: { message: 'x' } })
    expect(r.status).toBe(400)
    expect(r.body.error).toBe(DELEGATION_MSG.wrongChain('personal_sign', 'solana'))
    const e = await rpc(eth.address, { method: 'signMessage', params: { message: 'AA==' } })
    expect(e.body.error).toBe(DELEGATION_MSG.wrongChain('signMessage', 'ethereum'))
  })

  it('refuses without the app secret, with a wrong one, with another app’s, from a browser, and for an app without one', async () => {
    const body = { method: 'personal_sign', params: { message: 'x' } }
    const before = await snapshot()
    expect((await rpc(eth.address, body, { auth: null })).status).toBe(401)
    expect((await rpc(eth.address, body, { secret: XPD_SECRET + 'x' })).body.error).toBe(DELEGATION_MSG.badSecret)
    expect((await rpc(eth.address, body, { auth: `Bearer ${token}` })).status).toBe(401)
    // The other app's own credentials: valid for it, but this wallet is not delegated to it.
    const other = await rpc(eth.address, body, { appId: OTHER, secret: OTHER_SECRET })
    expect([other.status, other.body.error]).toEqual([404, DELEGATION_MSG.notDelegated])
    // Its secret under this app's id.
    expect((await rpc(eth.address, body, { auth: basic(XPD, OTHER_SECRET) })).status).toBe(401)
    const browser = await rpc(eth.address, body, { headers: { origin: 'http://localhost:5173' } })
    expect([browser.status, browser.body.error]).toEqual([403, DELEGATION_MSG.fromBrowser])
    const none = await rpc(eth.address, body, { appId: DEMO, secret: 'anything-at-all-anything-at-all-anything' })
    expect([none.status, none.body.error]).toEqual([403, DELEGATION_MSG.noSecret])
    expect(await snapshot()).toEqual(before)
  })

  it('a wallet that is not delegated is refused', async () => {
    const w = ethWallet()
    await userWith([w])
    const r = await rpc(w.address, { method: 'personal_sign', params: { message: 'x' } })
    expect([r.status, r.body.code]).toEqual([404, 'wallet_not_delegated'])
  })
})

describe('revoke', () => {
  it('needs a delegated wallet, then revokes them all: the sealed keys are gone and the backend is refused', async () => {
    const eth = ethWallet()
    const sol = solWallet()
    const { token, userId } = await userWith([eth, sol])
    const none = await s.call('/api/v1/wallets/revoke', { appId: XPD, token, body: {} })
    expect([none.status, none.body.error]).toEqual([400, DELEGATION_MSG.nothingToRevoke])
    await delegate(token, eth)
    await delegate(token, sol)
    expect((await rpc(eth.address, { method: 'personal_sign', params: { message: 'before' } })).status).toBe(200)
    const r = await s.call('/api/v1/wallets/revoke', { appId: XPD, token, body: {} })
    expect(r.status).toBe(200)
    expect(r.body.user.linked_accounts.filter((a: any) => a.type === 'wallet').map((a: any) => a.delegated)).toEqual([false, false])
    expect(await store.query('SELECT 1 FROM wallet_delegations WHERE user_id = $1', [userId])).toHaveLength(0)
    const after = await rpc(eth.address, { method: 'personal_sign', params: { message: 'after' } })
    expect([after.status, after.body.code]).toEqual([404, 'wallet_not_delegated'])
    const solAfter = await rpc(sol.address, { method: 'signMessage', params: { message: 'AA==' } })
    expect(solAfter.status).toBe(404)
    expect((await s.call('/api/v1/wallets/revoke', { appId: XPD, token, body: {} })).body.error).toBe(DELEGATION_MSG.nothingToRevoke)
    expect((await s.call('/api/v1/wallets/revoke', { appId: XPD, body: {} })).status).toBe(401)
    // Two grants, then the user's revoke of both; the refused revokes wrote nothing.
    expect((await eventsOf(userId)).map((e) => [e.type, e.data.wallet.address, e.data.reason ?? null])).toEqual([
      ['delegation.granted', eth.address, null],
      ['delegation.granted', sol.address, null],
      ['delegation.revoked', eth.address, 'user'],
      ['delegation.revoked', sol.address, 'user'],
    ])
  })

  it('delegating again after a revoke works (a fresh consent)', async () => {
    const eth = ethWallet()
    const { token } = await userWith([eth])
    await delegate(token, eth)
    await s.call('/api/v1/wallets/revoke', { appId: XPD, token, body: {} })
    expect((await delegate(token, eth)).status).toBe(200)
    expect((await rpc(eth.address, { method: 'personal_sign', params: { message: 'again' } })).status).toBe(200)
  })
})

it('wrong app secrets are limited per client IP (429 after the limit, even for the right one)', async () => {
  const w = ethWallet()
  const body = { method: 'personal_sign', params: { message: 'x' } }
  for (let i = 0; i < SECRET_FAILURES_PER_WINDOW; i++) expect((await rpc(w.address, body, { appId: OTHER, secret: 'wrong' })).status).toBe(401)
  const r = await rpc(w.address, body, { appId: OTHER, secret: OTHER_SECRET })
  expect(r.status).toBe(429)
})

describe('the delegation policy (issue 26): checked before signing, every request audited', () => {
  const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const tx = (over: Record<string, unknown> = {}) => ({
    method: 'eth_signTransaction',
    params: { transaction: { to: TO, value: '0x0', chain_id: 31337, nonce: 0, gas_limit: 21000, max_fee_per_gas: '0x3b9aca00', max_priority_fee_per_gas: '0x1', ...over } },
  })
  const auditOf = async (address: string) =>
    (await store.query<{ method: string; allowed: boolean; reason: string | null; chain_id: string | null; to_address: string | null; value: string | null; requester_ip: string; payload_sha256: string }>(
      'SELECT method, allowed, reason, chain_id::text, to_address, value::text, requester_ip, payload_sha256 FROM wallet_delegation_audit WHERE lower(address) = lower($1) ORDER BY id',
      [address],
    ))

  it('without a policy from the host: message signing only, for 30 days; transactions and typed data are refused', async () => {
    const w = ethWallet()
    const { token, userId } = await userWith([w])
    expect((await delegate(token, w)).status).toBe(200)
    const [row] = await store.query<{ policy: DelegationPolicy; created_at: string; expires_at: string }>('SELECT policy, created_at, expires_at FROM wallet_delegations WHERE user_id = $1', [userId])
    expect(row.policy).toEqual({ methods: ['personal_sign'], chain_ids: [], contracts: null, max_value_per_tx: '0', max_value_per_day: '0', expires_in: 30 * 86400 })
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(30 * 86400)
    expect((await rpc(w.address, { method: 'personal_sign', params: { message: 'ok' } })).status).toBe(200)
    const t = await rpc(w.address, tx())
    expect([t.status, t.body.code, t.body.error, t.body.data.reason]).toEqual([403, 'delegation_policy_violation', DELEGATION_MSG.methodNotAllowed('eth_signTransaction'), 'method_not_allowed'])
    expect((await auditOf(w.address)).map((a) => [a.method, a.allowed, a.reason])).toEqual([
      ['personal_sign', true, null],
      ['eth_signTransaction', false, 'method_not_allowed'],
    ])
  })

  it('refuses an out-of-policy chain, contract and value (per transaction and per rolling day), and audits each with its reason', async () => {
    const w = ethWallet()
    const { token } = await userWith([w])
    const policy = { methods: ['eth_signTransaction' as const], chainIds: [31337], contracts: [TO], maxValuePerTx: '1000', maxValuePerDay: '2500' }
    expect((await delegate(token, w, undefined, XPD, policy)).status).toBe(200)
    const chain = await rpc(w.address, tx({ chain_id: 1 }))
    expect([chain.status, chain.body.error]).toEqual([403, DELEGATION_MSG.chainNotAllowed('1')])
    const other = '0x0000000000000000000000000000000000000bad'
    const contract = await rpc(w.address, tx({ to: other }))
    expect([contract.status, contract.body.error]).toEqual([403, DELEGATION_MSG.contractNotAllowed(other)])
    const overTx = await rpc(w.address, tx({ value: 1001 }))
    expect([overTx.status, overTx.body.error]).toEqual([403, DELEGATION_MSG.overTxCap])
    for (const nonce of [1, 2]) expect((await rpc(w.address, tx({ value: 1000, nonce }))).status).toBe(200)
    const overDay = await rpc(w.address, tx({ value: 600, nonce: 3 }))
    expect([overDay.status, overDay.body.error]).toEqual([403, DELEGATION_MSG.overDayCap])
    expect((await rpc(w.address, tx({ value: 500, nonce: 3 }))).status).toBe(200) // exactly the day's cap
    const log = await auditOf(w.address)
    expect(log.map((a) => [a.allowed, a.reason, a.chain_id, a.value])).toEqual([
      [false, 'chain_not_allowed', '1', '0'],
      [false, 'contract_not_allowed', '31337', '0'],
      [false, 'value_over_tx_cap', '31337', '1001'],
      [true, null, '31337', '1000'],
      [true, null, '31337', '1000'],
      [false, 'value_over_day_cap', '31337', '600'],
      [true, null, '31337', '500'],
    ])
    expect(log[1].to_address).toBe(other)
    expect(log.every((a) => /^[0-9a-f]{64}$/.test(a.payload_sha256) && a.requester_ip.length > 0)).toBe(true)
  })

  it('chain_id is required on every delegated transaction, a legacy one included (no replay across chains)', async () => {
    const w = ethWallet()
    const { token } = await userWith([w])
    expect((await delegate(token, w, undefined, XPD, BROAD.ethereum)).status).toBe(200)
    const legacy = await rpc(w.address, { method: 'eth_signTransaction', params: { transaction: { to: TO, value: 1, gas_price: 1_000_000_000, gas_limit: 21000, nonce: 0 } } })
    expect([legacy.status, legacy.body.error, legacy.body.data.reason]).toEqual([422, DELEGATION_MSG.chainIdRequired, 'chain_id_required'])
    const typed = await rpc(w.address, {
      method: 'eth_signTypedData_v4',
      params: { typed_data: { domain: { name: 'X' }, types: { A: [{ name: 'x', type: 'uint256' }] }, primary_type: 'A', message: { x: 1 } } },
    })
    expect([typed.status, typed.body.error]).toEqual([422, DELEGATION_MSG.typedChainRequired])
    expect((await auditOf(w.address)).map((a) => [a.method, a.allowed, a.reason])).toEqual([
      ['eth_signTransaction', false, 'chain_id_required'],
      ['eth_signTypedData_v4', false, 'chain_id_required'],
    ])
  })

  it('typed data: its domain’s chain and verifying contract must be allowed', async () => {
    const w = ethWallet()
    const { token } = await userWith([w])
    const token1 = '0x1111111111111111111111111111111111111111'
    expect((await delegate(token, w, undefined, XPD, { methods: ['eth_signTypedData_v4'], chainIds: [1], contracts: [token1] })).status).toBe(200)
    const td = (domain: Record<string, unknown>) =>
      rpc(w.address, { method: 'eth_signTypedData_v4', params: { typed_data: { domain: { name: 'T', ...domain }, types: { A: [{ name: 'x', type: 'uint256' }] }, primary_type: 'A', message: { x: 1 } } } })
    expect((await td({ chainId: 1, verifyingContract: token1 })).status).toBe(200)
    expect((await td({ chainId: 8453, verifyingContract: token1 })).body.data.reason).toBe('chain_not_allowed')
    expect((await td({ chainId: 1, verifyingContract: '0x2222222222222222222222222222222222222222' })).body.data.reason).toBe('contract_not_allowed')
    const none = await td({ chainId: 1 })
    expect([none.body.data.reason, none.body.error]).toEqual(['contract_not_allowed', 'This delegation does not allow a contract creation or typed data without a verifyingContract.'])
  })

  it('Solana: the program allow-list and the lamport caps', async () => {
    const w = solWallet()
    const { token } = await userWith([w])
    const memo = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'
    expect((await delegate(token, w, undefined, XPD, { methods: ['signTransaction'], contracts: [SystemProgram.programId.toBase58()], maxValuePerTx: '5000', maxValuePerDay: '5000' })).status).toBe(200)
    const from = new PublicKey(w.address)
    const to = Keypair.generate().publicKey
    const blockhash = base58.encode(new Uint8Array(32).fill(7))
    const wire = (lamports: number, extra?: (t: Transaction) => void) => {
      const t = new Transaction({ feePayer: from, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports }))
      extra?.(t)
      return { method: 'signTransaction', params: { transaction: base64.encode(t.serialize({ requireAllSignatures: false, verifySignatures: false })) } }
    }
    expect((await rpc(w.address, wire(5000))).status).toBe(200)
    expect((await rpc(w.address, wire(5001))).body.data.reason).toBe('value_over_tx_cap')
    expect((await rpc(w.address, wire(1))).body.data.reason).toBe('value_over_day_cap')
    const withMemo = wire(0, (t) => t.add({ programId: new PublicKey(memo), keys: [], data: Buffer.from('hi') }))
    const r = await rpc(w.address, withMemo)
    expect([r.status, r.body.error]).toEqual([403, DELEGATION_MSG.contractNotAllowed(memo)])
    expect((await rpc(w.address, { method: 'signMessage', params: { message: 'AA==' } })).body.data.reason).toBe('method_not_allowed')
  })

  it('an expired delegation cannot sign: refused, audited, and its sealed key deleted', async () => {
    const w = ethWallet()
    const { token, userId } = await userWith([w])
    expect((await delegate(token, w, undefined, XPD, { expiresIn: 60 })).status).toBe(200)
    expect((await rpc(w.address, { method: 'personal_sign', params: { message: 'in time' } })).status).toBe(200)
    await store.query('UPDATE wallet_delegations SET expires_at = $1 WHERE user_id = $2', [Math.floor(Date.now() / 1000) - 1, userId])
    const r = await rpc(w.address, { method: 'personal_sign', params: { message: 'too late' } })
    expect([r.status, r.body.error, r.body.data.reason]).toEqual([403, DELEGATION_MSG.expired, 'expired'])
    expect(await store.query('SELECT 1 FROM wallet_delegations WHERE user_id = $1', [userId])).toHaveLength(0)
    const me = await s.call('/api/v1/users/me', { appId: XPD, token })
    expect(delegatedFlag(me.body.user, w.address)).toBe(false)
    expect((await rpc(w.address, { method: 'personal_sign', params: { message: 'later' } })).body.code).toBe('wallet_not_delegated')
    expect((await auditOf(w.address)).map((a) => [a.allowed, a.reason])).toEqual([
      [true, null],
      [false, 'expired'],
      [false, 'not_delegated'],
    ])
  })

  it('the app revokes a delegation with its secret: the wallet cannot sign any more', async () => {
    const w = ethWallet()
    const { token, userId } = await userWith([w])
    await delegate(token, w)
    const revoke = (body: unknown, secret = XPD_SECRET) => s.call('/api/v1/wallets/delegations/revoke', { appId: XPD, body, headers: { authorization: basic(XPD, secret) } })
    expect((await revoke({ address: w.address }, XPD_SECRET + 'x')).status).toBe(401)
    const r = await revoke({ address: w.address.toLowerCase() })
    expect([r.status, r.body]).toEqual([200, { revoked: true, address: w.address, chain_type: 'ethereum' }])
    expect(await store.query('SELECT 1 FROM wallet_delegations WHERE user_id = $1', [userId])).toHaveLength(0)
    expect((await rpc(w.address, { method: 'personal_sign', params: { message: 'x' } })).status).toBe(404)
    expect((await revoke({ address: w.address })).status).toBe(404)
    expect((await eventsOf(userId)).map((e) => [e.type, e.data.reason ?? null])).toEqual([
      ['delegation.granted', null],
      ['delegation.revoked', 'app'],
    ])
  })

  it('policy the host cannot state: a method of the other chain, transactions without chains, a bad cap', async () => {
    expect(() => normalizePolicy('ethereum', { methods: ['signMessage' as never] })).toThrow('policy.methods')
    expect(() => normalizePolicy('ethereum', { methods: ['eth_signTransaction'] })).toThrow('policy.chainIds')
    expect(() => normalizePolicy('ethereum', { maxValuePerTx: '1.5' })).toThrow('decimal strings')
    expect(() => normalizePolicy('ethereum', { maxValuePerTx: '10', maxValuePerDay: '5' })).toThrow('maxValuePerDay')
    expect(() => normalizePolicy('solana', { chainIds: [1] })).toThrow('Solana')
    expect(() => normalizePolicy('ethereum', { expiresIn: 366 * 86400 })).toThrow('expiresIn')
    // A seal whose policy is invalid is refused; nothing written.
    const w = ethWallet()
    const { token } = await userWith([w])
    const before = await snapshot()
    const bad = await seal(w, { policy: { methods: ['eth_signTransaction'] } as never })
    const r = await delegate(token, w, bad)
    expect([r.status, r.body.error]).toEqual([422, 'policy.chainIds: name the chains transactions and typed data may use'])
    expect(await snapshot()).toEqual(before)
  })

  it('the audit: the user reads their own (bearer) with their delegations’ policies; the app reads all (app secret)', async () => {
    const w = ethWallet()
    const { token, userId } = await userWith([w])
    await delegate(token, w, undefined, XPD, { expiresIn: 3600 })
    await rpc(w.address, { method: 'personal_sign', params: { message: 'audited' } })
    await rpc(w.address, tx())
    const mine = await s.call('/api/v1/wallets/delegations/audit', { appId: XPD, token })
    expect(mine.status).toBe(200)
    expect(mine.body.delegations).toEqual([expect.objectContaining({ address: w.address, chain_type: 'ethereum', policy: expect.objectContaining({ methods: ['personal_sign'], expires_in: 3600 }) })])
    expect(mine.body.entries.map((e: any) => [e.method, e.allowed, e.reason])).toEqual([
      ['eth_signTransaction', false, 'method_not_allowed'],
      ['personal_sign', true, null],
    ])
    expect(mine.body.entries.every((e: any) => e.user_id === userId && e.address === w.address)).toBe(true)
    // Another user sees none of it.
    const stranger = await userWith([ethWallet()])
    expect((await s.call('/api/v1/wallets/delegations/audit', { appId: XPD, token: stranger.token })).body.entries).toEqual([])
    // The app, with its secret, filtered by user.
    const app = await s.call(`/api/v1/wallets/delegations/audit?user_id=${userId}`, { appId: XPD, headers: { authorization: basic(XPD, XPD_SECRET) } })
    expect(app.status).toBe(200)
    expect(app.body.entries).toHaveLength(2)
    expect((await s.call('/api/v1/wallets/delegations/audit', { appId: XPD, headers: { authorization: basic(XPD, 'wrong-secret-wrong-secret-wrong-secret') } })).status).toBe(401)
    expect((await s.call('/api/v1/wallets/delegations/audit', { appId: XPD })).status).toBe(401)
  })
})
