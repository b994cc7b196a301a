/**
 * Attacker suite (issue 26): delegated signing. The attacker holds the app's secret (a
 * compromised backend), or a user's stolen access token, forges any header and runs a wallet
 * frame of its own (a device key of its own, proofs and all). A delegation signs only inside the
 * policy the user consented to; a revoked or expired one signs nothing; the app's secret cannot
 * widen a policy; a stolen token cannot create a delegation. The user's consent (every positive
 * control) goes through the user's own device (token and device proof), as the real frame sends it.
 * Each claim runs on every target (PGlite, and PostgreSQL where installed).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { JWK } from 'jose'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealWalletKey } from '../../frame/delegation-seal'
import { normalizePolicy, type DelegationPolicyInput } from '../../../../plugins/delegated-actions/policy'
import { DELEGATION_MSG } from '../../src/features/delegation/errors'
import { testDevice, type TestDevice } from '../device-client'
import { uniqueEmail } from '../helpers'
import { FRAME_ORIGIN, attacker, startTargets, type Target } from './harness'

const XPD = 'portico-test-xpd-00000001'
const XPD_SECRET = 'xpd-test-app-secret-not-for-production-000000'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

let targets: Target[] = []
beforeAll(async () => {
  targets = await startTargets()
}, 180_000)
afterAll(async () => {
  for (const t of targets) await t.close()
})

interface Wallet {
  chain: 'ethereum' | 'solana'
  address: string
  key: `0x${string}`
}
const ethWallet = (): Wallet => {
  const key = generatePrivateKey()
  return { chain: 'ethereum', address: privateKeyToAccount(key).address, key }
}
const solWallet = (): Wallet => {
  const seed = ed25519.utils.randomSecretKey()
  return { chain: 'solana', address: base58.encode(ed25519.getPublicKey(seed)), key: `0x${Buffer.from(seed).toString('hex')}` }
}

interface Victim {
  token: string
  userId: string
  /** The user's wallet frame (its device key signs a proof on each call). */
  device: TestDevice
}

/** A user of the app with `w` as an embedded wallet (as the wallet frame's create leaves it), and their frame's device. */
async function victim(t: Target, w: Wallet): Promise<Victim> {
  const login = await t.s.emailLogin(uniqueEmail('atk-deleg'), { appId: XPD })
  expect(login.status).toBe(200)
  const userId = login.body.user.id as string
  await t.store.query(
    `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at) VALUES ($1, $2, 'wallet', $3, $4, 1, 1, 1)`,
    [
      userId,
      XPD,
      `${w.chain}:${w.chain === 'ethereum' ? w.address.toLowerCase() : w.address}`,
      JSON.stringify({ address: w.address, chain_type: w.chain, wallet_client_type: 'privy', connector_type: 'embedded', imported: false, delegated: false, recovery_method: 'privy', wallet_index: 0 }),
    ],
  )
  return { token: login.body.token as string, userId, device: testDevice(t.s, XPD) }
}

/** The user's consent as the consent page sends it from the user's frame (token and device proof): the wallet's key and the policy, sealed to the server. */
async function consent(t: Target, v: Victim, w: Wallet, policy?: DelegationPolicyInput) {
  const jwk = (await t.s.call('/api/v1/wallets/delegation_key', { appId: XPD })).body.jwk as JWK
  const sealed = await sealWalletKey(jwk, { address: w.address, chain_type: w.chain, private_key: w.key, policy: normalizePolicy(w.chain, policy) })
  const r = await v.device.call('/api/v1/wallets/delegate', v.token, { address: w.address, chain_type: w.chain, sealed_key: sealed })
  expect(r.status).toBe(200)
}

const basic = (secret = XPD_SECRET) => `Basic ${Buffer.from(`${XPD}:${secret}`).toString('base64')}`
/** The compromised backend: the app's secret, any header. */
const backend = (t: Target, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.s.call(`/api/v1${path}`, { appId: XPD, body, headers: { authorization: basic(), ...headers } })
const sign = (t: Target, w: Wallet, body: unknown) => backend(t, `/wallets/${w.address}/rpc`, body)
const ethTx = (over: Record<string, unknown> = {}) => ({
  method: 'eth_signTransaction',
  params: { transaction: { to: TO, value: 0, chain_id: 1, nonce: 0, gas_limit: 21000, max_fee_per_gas: 1_000_000_000, max_priority_fee_per_gas: 1, ...over } },
})
const audit = (t: Target, userId: string) =>
  t.store.query<{ allowed: boolean; reason: string | null }>('SELECT allowed, reason FROM wallet_delegation_audit WHERE user_id = $1 ORDER BY id', [userId])

describe('attacker: delegated signing', () => {
  it('with the app secret: an out-of-policy chain, contract or value (per transaction, per day) is refused and audited', async () => {
    for (const t of targets) {
      const w = ethWallet()
      const v = await victim(t, w)
      const { userId } = v
      await consent(t, v, w, { methods: ['eth_signTransaction'], chainIds: [1], contracts: [TO], maxValuePerTx: '100', maxValuePerDay: '150' })
      expect((await sign(t, w, ethTx({ chain_id: 8453 }))).body.data.reason).toBe('chain_not_allowed')
      expect((await sign(t, w, ethTx({ to: '0x000000000000000000000000000000000000dEaD' }))).body.data.reason).toBe('contract_not_allowed')
      expect((await sign(t, w, ethTx({ to: undefined }))).body.data.reason).toBe('contract_not_allowed') // a contract creation
      expect((await sign(t, w, ethTx({ value: 101 }))).body.data.reason).toBe('value_over_tx_cap')
      expect((await sign(t, w, ethTx({ value: 100 }))).status).toBe(200)
      const day = await sign(t, w, ethTx({ value: 100, nonce: 1 }))
      expect([day.status, day.body.code, day.body.data.reason]).toEqual([403, 'delegation_policy_violation', 'value_over_day_cap'])
      expect((await sign(t, w, { method: 'personal_sign', params: { message: 'not in the policy' } })).body.data.reason).toBe('method_not_allowed')
      expect((await audit(t, userId)).map((a) => a.reason)).toEqual(['chain_not_allowed', 'contract_not_allowed', 'contract_not_allowed', 'value_over_tx_cap', null, 'value_over_day_cap', 'method_not_allowed'])
    }
  })

  it('with the app secret: parallel requests cannot overrun the per-day cap', async () => {
    for (const t of targets) {
      const w = ethWallet()
      await consent(t, await victim(t, w), w, { methods: ['eth_signTransaction'], chainIds: [1], maxValuePerTx: '100', maxValuePerDay: '300' })
      const results = await Promise.all([0, 1, 2, 3, 4, 5].map((nonce) => sign(t, w, ethTx({ value: 100, nonce }))))
      expect(results.filter((r) => r.status === 200)).toHaveLength(3)
      expect(results.filter((r) => r.status === 403).every((r) => r.body.data.reason === 'value_over_day_cap')).toBe(true)
    }
  })

  it('with the app secret: a transaction without chain_id (legacy included) is refused', async () => {
    for (const t of targets) {
      const w = ethWallet()
      const v = await victim(t, w)
      const { userId } = v
      await consent(t, v, w, { methods: ['eth_signTransaction'], chainIds: [1], maxValuePerTx: '100' })
      const legacy = await sign(t, w, { method: 'eth_signTransaction', params: { transaction: { to: TO, value: 0, gas_price: 1_000_000_000, gas_limit: 21000, nonce: 0 } } })
      expect([legacy.status, legacy.body.error]).toEqual([422, DELEGATION_MSG.chainIdRequired])
      const eip1559 = await sign(t, w, ethTx({ chain_id: undefined }))
      expect(eip1559.status).toBe(422)
      expect((await audit(t, userId)).map((a) => [a.allowed, a.reason])).toEqual([
        [false, 'chain_id_required'],
        [false, 'chain_id_required'],
      ])
    }
  })

  it('a delegation revoked by the user, or by the app, cannot sign', async () => {
    for (const t of targets) {
      const a = ethWallet()
      const byUser = await victim(t, a)
      await consent(t, byUser, a)
      expect((await sign(t, a, { method: 'personal_sign', params: { message: 'before' } })).status).toBe(200)
      expect((await t.s.call('/api/v1/wallets/revoke', { appId: XPD, token: byUser.token, body: {} })).status).toBe(200)
      const after = await sign(t, a, { method: 'personal_sign', params: { message: 'after' } })
      expect([after.status, after.body.code]).toEqual([404, 'wallet_not_delegated'])

      const b = solWallet()
      const byApp = await victim(t, b)
      await consent(t, byApp, b)
      expect((await backend(t, '/wallets/delegations/revoke', { address: b.address })).status).toBe(200)
      expect((await sign(t, b, { method: 'signMessage', params: { message: 'AA==' } })).body.code).toBe('wallet_not_delegated')
      expect((await audit(t, byApp.userId)).map((x) => x.reason)).toEqual(['not_delegated'])
    }
  })

  it('an expired delegation cannot sign (and its sealed key is deleted)', async () => {
    for (const t of targets) {
      const w = ethWallet()
      const v = await victim(t, w)
      const { userId } = v
      await consent(t, v, w, { expiresIn: 60 })
      await t.store.query('UPDATE wallet_delegations SET expires_at = $1 WHERE user_id = $2', [Math.floor(Date.now() / 1000) - 1, userId])
      const r = await sign(t, w, { method: 'personal_sign', params: { message: 'expired' } })
      expect([r.status, r.body.data.reason]).toEqual([403, 'expired'])
      expect(await t.store.query('SELECT 1 FROM wallet_delegations WHERE user_id = $1', [userId])).toHaveLength(0)
    }
  })

  it('the app secret cannot widen a policy: no route takes one from the app, and a widened database row is not what the server checks', async () => {
    for (const t of targets) {
      const w = ethWallet()
      const v = await victim(t, w)
      const { userId } = v
      await consent(t, v, w) // message signing only
      // The consent route is the user's (bearer through the frame guard): the app secret is refused.
      const jwk = (await t.s.call('/api/v1/wallets/delegation_key', { appId: XPD })).body.jwk as JWK
      const wide = await sealWalletKey(jwk, {
        address: w.address,
        chain_type: 'ethereum',
        private_key: ethWallet().key, // the app does not hold the user's key either
        policy: normalizePolicy('ethereum', { methods: ['eth_signTransaction'], chainIds: [1], maxValuePerTx: '1000000000000000000000' }),
      })
      const asApp = await backend(t, '/wallets/delegate', { address: w.address, chain_type: 'ethereum', sealed_key: wide })
      expect([401, 403]).toContain(asApp.status)
      const asAppFromFrameOrigin = await backend(t, '/wallets/delegate', { address: w.address, chain_type: 'ethereum', sealed_key: wide }, { origin: FRAME_ORIGIN })
      expect([401, 403]).toContain(asAppFromFrameOrigin.status)
      // Even the stored copy widened (a database write): the server checks the policy sealed with the key.
      await t.store.query(`UPDATE wallet_delegations SET policy = $1 WHERE user_id = $2`, [JSON.stringify(normalizePolicy('ethereum', { methods: ['eth_signTransaction'], chainIds: [1], maxValuePerTx: '1000000000000000000000' })), userId])
      const r = await sign(t, w, ethTx({ value: 1 }))
      expect([r.status, r.body.data.reason]).toEqual([403, 'method_not_allowed'])
    }
  })

  it('a stolen user token cannot create a delegation without the frame’s consent: no device proof, no wallet key → refused, nothing written', async () => {
    for (const t of targets) {
      const w = ethWallet()
      const { token, userId } = await victim(t, w)
      const jwk = (await t.s.call('/api/v1/wallets/delegation_key', { appId: XPD })).body.jwk as JWK
      const mine = ethWallet()
      const forged = await sealWalletKey(jwk, { address: w.address, chain_type: 'ethereum', private_key: mine.key, policy: normalizePolicy('ethereum', null) })
      const body = { address: w.address, chain_type: 'ethereum', sealed_key: forged }
      // Outside the wallet frame (no frame Origin, no device proof): the wallet guard refuses.
      const plain = await t.s.call('/api/v1/wallets/delegate', { appId: XPD, token, body })
      expect([plain.status, plain.body.code]).toEqual([403, 'device_proof_required'])
      // Forging the frame's Origin and Referer does not help: no device proof.
      const withHeaders = await attacker(t.s, token, { appId: XPD }).post('/wallets/delegate', body)
      expect([withHeaders.status, withHeaders.body.code]).toEqual([403, 'device_proof_required'])
      // A frame of its own (a device key of its own, proofs and all) passes the guard on a session no device holds yet,
      // but the seal must hold the wallet's own key, which only the user's frame rebuilds.
      const own = await testDevice(t.s, XPD).call('/api/v1/wallets/delegate', token, body, { headers: { origin: FRAME_ORIGIN } })
      expect([own.status, own.body.error]).toEqual([400, DELEGATION_MSG.keyMismatch])
      expect(await t.store.query('SELECT 1 FROM wallet_delegations WHERE user_id = $1', [userId])).toHaveLength(0)
      expect((await sign(t, w, { method: 'personal_sign', params: { message: 'x' } })).status).toBe(404)
    }
  })
})
