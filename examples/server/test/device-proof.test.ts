/**
 * Device proofs (issue 26): the frame's device key signs every wallet request (frame/device-key.ts,
 * frame/context.ts createApi) and the server verifies it (src/features/wallets/device.ts). The frame code
 * runs in Node against a real server and database; the forged requests come from a Node client.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { createApi, FrameFailure, type FrameContext } from '../frame/context'
import { deviceKey, proof, tokenHash } from '../frame/device-key'
import { handlerFor } from '../frame/handlers/index'
import { clearSession } from '../frame/session'
import { memoryStore, useFrameStore, type FrameStore } from '../frame/storage'
import type { Store } from '../src/core/store'
import { DEVICE_NONCE_HEADER, DEVICE_PROOF_HEADER } from '../src/wire/custody'
import { DEMO, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'

const FRAME = 'http://127.0.0.1:48791'
let store: Store
let s: TestServer

beforeAll(async () => {
  store = await openTestStore()
  s = await startTestServer(store, { wallets: { frameOrigin: FRAME, recoveryKey: 'device-proof-test-recovery-key-0000000000026' } })
}, 120_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
})
beforeEach(() => clearSession())

/** One browser's wallet frame: its own store (device key, device shares) and API client. */
function device(): { store: FrameStore; ctx: FrameContext; run<T = any>(type: string, payload: Record<string, unknown>): Promise<T> } {
  const fs = memoryStore()
  const ctx: FrameContext = { config: { appId: DEMO, apiUrl: s.url, allowedOrigins: [] }, origin: 'http://localhost:5173', api: createApi({ appId: DEMO, apiUrl: s.url, allowedOrigins: [] }, { store: fs }) }
  return {
    store: fs,
    ctx,
    run: async (type, payload) => {
      useFrameStore(fs)
      return handlerFor(type)!(payload as never, ctx)
    },
  }
}

async function login(): Promise<string> {
  const r = await s.emailLogin(uniqueEmail('proof'))
  expect(r.status).toBe(200)
  return r.body.token as string
}

async function nonce(token: string): Promise<string> {
  const r = await s.call('/api/v1/wallets/device_nonce', { token, body: {} })
  expect(r.status).toBe(200)
  expect(r.headers.get(DEVICE_NONCE_HEADER)).toBe(r.body.nonce)
  return r.body.nonce
}

async function created(token: string) {
  const d = device()
  const w = await d.run('wallets:create', { accessToken: token, chainTypes: ['ethereum'] })
  return { d, entropyId: w.entropyId as string, ref: { accessToken: token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier } }
}

describe('device proofs', () => {
  it("the frame's proofs open the wallet: create, then sign with device share + auth share", async () => {
    const token = await login()
    const { d, ref } = await created(token)
    clearSession()
    const sig = await d.run('wallets:rpc', { ...ref, chainType: 'ethereum', hdWalletIndex: 0, request: { method: 'personal_sign', params: ['0x68656c6c6f', ref.entropyId] } })
    expect(sig.data).toMatch(/^0x[0-9a-f]{130}$/)
  })

  it('a request without a proof is refused (device_proof_required), whatever its Origin', async () => {
    const token = await login()
    const { entropyId } = await created(token)
    const r = await s.call('/api/v1/wallets/auth_share', { token, body: { entropy_id: entropyId }, headers: { origin: FRAME } })
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: 'device_proof_required', error: 'Wallet secrets are released to a registered wallet device only.' })
    expect(r.headers.get(DEVICE_NONCE_HEADER)).toBeTruthy()
  })

  it('a proof is single use: the same proof again is refused with a fresh nonce; the frame retries once', async () => {
    const token = await login()
    const { d, entropyId } = await created(token)
    const key = await deviceKey(DEMO, d.store)
    const p = await proof(key, { htm: 'POST', htu: '/wallets/auth_share', accessToken: token, entropyId, nonce: await nonce(token) })
    const first = await s.call('/api/v1/wallets/auth_share', { token, body: { entropy_id: entropyId }, headers: { [DEVICE_PROOF_HEADER]: p } })
    expect(first.status).toBe(200)
    const again = await s.call('/api/v1/wallets/auth_share', { token, body: { entropy_id: entropyId }, headers: { [DEVICE_PROOF_HEADER]: p } })
    expect(again.status).toBe(401)
    expect(again.body.code).toBe('device_proof_nonce')
    expect(again.headers.get(DEVICE_NONCE_HEADER)).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    // The frame's client: a stale nonce is retried once with the answer's nonce.
    // The nonce the frame kept is used up (as if another tab of the frame spent it): one 401, one retry.
    await store.query('UPDATE wallet_proof_nonces SET used_at = 1 WHERE used_at IS NULL')
    const statuses: number[] = []
    const realFetch = globalThis.fetch
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const r = await realFetch(...args)
      if (String(args[0]).endsWith('/wallets/auth_share')) statuses.push(r.status)
      return r
    }
    const res = await d.ctx.api<{ share: string }>('/wallets/auth_share', { entropy_id: entropyId }, token).finally(() => (globalThis.fetch = realFetch))
    expect(statuses).toEqual([401, 200])
    expect(res.share).toBeTruthy()
  })

  it("a proof for another path, another token, another root or another session's nonce is refused", async () => {
    const token = await login()
    const { d, entropyId } = await created(token)
    const key = await deviceKey(DEMO, d.store)
    const call = (p: string, t = token) => s.call('/api/v1/wallets/auth_share', { token: t, body: { entropy_id: entropyId }, headers: { [DEVICE_PROOF_HEADER]: p } })
    const wrongPath = await call(await proof(key, { htm: 'POST', htu: '/wallets/recovery_share', accessToken: token, entropyId, nonce: await nonce(token) }))
    expect(wrongPath.body.code).toBe('device_proof_required')
    const other = await login()
    const wrongToken = await call(await proof(key, { htm: 'POST', htu: '/wallets/auth_share', accessToken: other, entropyId, nonce: await nonce(token) }))
    expect(wrongToken.body.code).toBe('device_proof_required')
    const wrongRoot = await call(await proof(key, { htm: 'POST', htu: '/wallets/auth_share', accessToken: token, entropyId: '0x000000000000000000000000000000000000dEaD', nonce: await nonce(token) }))
    expect(wrongRoot.body.code).toBe('device_proof_required')
    const foreignNonce = await call(await proof(key, { htm: 'POST', htu: '/wallets/auth_share', accessToken: token, entropyId, nonce: await nonce(other) }))
    expect(foreignNonce.body.code).toBe('device_proof_nonce')
    for (const r of [wrongPath, wrongToken, wrongRoot]) expect(r.status).toBe(403)
  })

  it('a proof that is not ES256 by its embedded key, or too old, is refused', async () => {
    const token = await login()
    const { entropyId } = await created(token)
    const call = (p: string) => s.call('/api/v1/wallets/auth_share', { token, body: { entropy_id: entropyId }, headers: { [DEVICE_PROOF_HEADER]: p } })
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const other = await generateKeyPair('ES256', { extractable: true })
    const claims = async () => ({ htm: 'POST', htu: '/wallets/auth_share', nonce: await nonce(token), ath: await tokenHash(token), eid: entropyId.toLowerCase() })
    // Signed by another key than the one in the header.
    const mismatch = await new SignJWT(await claims()).setProtectedHeader({ alg: 'ES256', typ: 'portico-device+jwt', jwk: await exportJWK(other.publicKey) }).setIssuedAt().setJti('x').sign(privateKey)
    expect((await call(mismatch)).body.code).toBe('device_proof_required')
    // Too old.
    const old = await new SignJWT(await claims()).setProtectedHeader({ alg: 'ES256', typ: 'portico-device+jwt', jwk: await exportJWK(publicKey) }).setIssuedAt(Math.floor(Date.now() / 1000) - 600).setJti('x').sign(privateKey)
    expect((await call(old)).body.code).toBe('device_proof_required')
    // HS256 with the "key" in the header.
    const hs = await new SignJWT(await claims()).setProtectedHeader({ alg: 'HS256', typ: 'portico-device+jwt' }).setIssuedAt().setJti('x').sign(new Uint8Array(32))
    expect((await call(hs)).body.code).toBe('device_proof_required')
  })

  it('the device key is non-extractable and its id is the JWK thumbprint, stable across loads', async () => {
    const fs = memoryStore()
    const a = await deviceKey(DEMO, fs)
    expect(a.privateKey.extractable).toBe(false)
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const again = await deviceKey(DEMO, fs)
    expect(again.id).toBe(a.id)
    expect((await deviceKey(DEMO, memoryStore())).id).not.toBe(a.id)
  })

  it("another device on a session the user's frame already used is refused (device_step_up_required)", async () => {
    const token = await login()
    const { entropyId } = await created(token)
    const thief = device()
    const err = await thief.ctx.api('/wallets/auth_share', { entropy_id: entropyId }, token).catch((e) => e)
    expect(err).toBeInstanceOf(FrameFailure)
    expect(err).toMatchObject({ type: 'device_step_up_required', message: 'Confirm it’s you to use your wallet on this device.' })
  })
})
