/**
 * Farcaster signers (issue 30) over HTTP against the real server, the Farcaster client API
 * stand-in (examples/stand-ins/farcaster-client) on its own port, the IdRegistry on a local
 * hardhat node and the wallet frame's handlers in Node (test/device-client.ts):
 *
 * - the stand-in's own checks: the EIP-712 SignedKeyRequest must be signed by the request FID's
 *   custody address and its deadline must be ahead;
 * - the routes: 'Must have …' errors, init → pending with the approval link, approve → the
 *   linked account gains signer_public_key, revoked and expired kept apart, a key that is not
 *   the caller's, a wrong app FID, an approval by another fid;
 * - the frame: the Ed25519 key is derived inside the frame, the same after a reload, signs.
 */
import { readFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { decodeJwt } from 'jose'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Message } from '@farcaster/core'
import { buildCastAdd } from '../../../plugins/farcaster-signer/cast'
import { createFarcasterClientStandIn } from '../../stand-ins/farcaster-client/server'
import { handlerFor } from '../frame/handlers/index'
import { clearSession } from '../frame/session'
import type { AppSettings } from '../src/config'
import type { Store } from '../src/core/store'
import { SIGNED_KEY_REQUEST_DOMAIN, SIGNED_KEY_REQUEST_TYPES } from '../src/features/farcaster-signer/eip712'
import { deployIdRegistry, farcasterApp, startChain, type Chain, type FarcasterUser, type IdRegistry } from './chain/farcaster'
import { testDevice, type TestDevice } from './device-client'
import { APPS_FILE, ORIGIN, openTestStore, startTestServer, uniqueEmail, type TestServer } from './helpers'

const FC = 'portico-test-farcaster-01'
/** The same app with an app FID its custody key does not own. */
const WRONG_FID = 'portico-test-fcsigner-002'
/** The same app without a signer configuration. */
const NO_SIGNER = 'portico-test-fcsigner-003'
/** Requests that expire after a minute. */
const SHORT = 'portico-test-fcsigner-004'
const FRAME = 'http://127.0.0.1:48830'

let chain: Chain
let reg: IdRegistry
let store: Store
let s: TestServer
let standIn: { url: string; close(): void; approvedKeys(fid: number): Hex[] }
let fidSeq = 5000 + (process.pid % 1000) * 100
const APP_FID = fidSeq++
/** The app FID's custody key (the server reads it from an environment variable). */
const APP_CUSTODY_KEY = generatePrivateKey()
const appCustody = privateKeyToAccount(APP_CUSTODY_KEY)

beforeAll(async () => {
  chain = await startChain()
  reg = await deployIdRegistry(chain.rpc)
  await reg.register(APP_FID, appCustody.address)
  const fc = createFarcasterClientStandIn({ rpcUrl: chain.rpc, idRegistry: reg.address })
  const server = serve({ fetch: fc.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  standIn = { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => void server.close(), approvedKeys: fc.approvedKeys }
  store = await openTestStore()
  const base = JSON.parse(readFileSync(APPS_FILE, 'utf8')).apps as AppSettings[]
  const fcApp = base.find((a) => a.id === FC)!
  const signer = { appFid: APP_FID, custodyKeyEnv: 'PORTICO_TEST_FC_APP_CUSTODY_KEY' }
  process.env.PORTICO_TEST_FC_APP_CUSTODY_KEY = APP_CUSTODY_KEY
  const apps: AppSettings[] = [
    ...base.filter((a) => a.id !== FC),
    { ...fcApp, farcasterSigner: signer },
    { ...fcApp, id: WRONG_FID, farcasterSigner: { ...signer, appFid: APP_FID + 1_000_000 } },
    { ...fcApp, id: NO_SIGNER, farcasterSigner: null },
    { ...fcApp, id: SHORT, farcasterSigner: { ...signer, deadlineS: 60 } },
  ]
  s = await startTestServer(store, { apps, farcaster: { rpcUrl: chain.rpc, idRegistry: reg.address, clientApiUrl: standIn.url }, wallets: { frameOrigin: FRAME } })
}, 120_000)

afterAll(async () => {
  vi.useRealTimers()
  delete process.env.PORTICO_TEST_FC_APP_CUSTODY_KEY
  await s?.close()
  await store?.close()
  standIn?.close()
  chain?.stop()
})

function run<T = any>(device: TestDevice, type: string, payload: Record<string, unknown>): Promise<T> {
  return handlerFor(type)!(payload as never, device.ctx())
}

interface Person {
  appId: string
  token: string
  userId: string
  fid?: number
  fcUser?: FarcasterUser
  device: TestDevice
  ref?: { accessToken: string; entropyId: string; entropyIdVerifier: string }
}

/** A Farcaster login through the channel (init → the Farcaster app signs → status → authenticate): the access token. */
async function farcasterLogin(appId: string, u: FarcasterUser): Promise<string> {
  const call = (path: string, body?: unknown, headers: Record<string, string> = {}) => s.call(path, { appId, body, headers: { origin: ORIGIN, ...headers } })
  const ch = (await call('/api/v1/farcaster/init', {})).body
  await farcasterApp(s.url, ch.connect_uri, u)
  const st = (await call('/api/v1/farcaster/status', undefined, { 'farcaster-channel-token': ch.channel_token })).body
  const r = await call('/api/v1/farcaster/authenticate', { channel_token: ch.channel_token, message: st.message, signature: st.signature, fid: u.fid, mode: 'login-or-sign-up' })
  expect(r.status).toBe(200)
  return r.body.token as string
}

/** A user of `appId`: logged in with Farcaster (a new fid on the IdRegistry) or e-mail, with or without an embedded wallet. */
async function person(o: { appId?: string; farcaster?: boolean; wallet?: boolean } = {}): Promise<Person> {
  const appId = o.appId ?? FC
  let token: string
  let fcUser: FarcasterUser | undefined
  if (o.farcaster !== false) {
    fcUser = { fid: fidSeq++, custody: privateKeyToAccount(generatePrivateKey()), username: `signer${fidSeq}` }
    await reg.register(fcUser.fid, fcUser.custody.address)
    token = await farcasterLogin(appId, fcUser)
  } else {
    const r = await s.emailLogin(uniqueEmail('fcs'), { appId })
    expect(r.status).toBe(200)
    token = r.body.token as string
  }
  const device = testDevice(s, appId)
  const p: Person = { appId, token, userId: (decodeJwt(token) as { sub: string }).sub, fid: fcUser?.fid, fcUser, device }
  if (o.wallet !== false) {
    clearSession()
    const w = await run(device, 'wallets:create', { accessToken: token, chainTypes: ['ethereum'] })
    p.ref = { accessToken: token, entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier }
  }
  return p
}

const signerCall = (p: Pick<Person, 'appId' | 'token'>, route: 'init' | 'status', key: string) =>
  s.call(`/api/v1/farcaster/signer/${route}`, { appId: p.appId, token: p.token, body: { ed25519_public_key: key } })
const randomKey = () => `0x${bytesToHex(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))}`
const standInPost = (path: string, body: unknown) =>
  fetch(standIn.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
const approve = (key: string, userFid: number) => standInPost('/test/signed-key-requests/approve', { key, userFid })
const revoke = (key: string) => standInPost('/test/signed-key-requests/revoke', { key })
const signerRows = async (key: string) => (await store.query<{ state: string; user_id: string }>('SELECT state, user_id FROM farcaster_signers WHERE public_key = $1', [key]))
const accountSigner = async (userId: string) =>
  (await store.query<{ k: string | null }>("SELECT data->>'signer_public_key' AS k FROM accounts WHERE user_id = $1 AND type = 'farcaster'", [userId]))[0]?.k ?? null

/** A SignedKeyRequest as the Farcaster docs build it, signed by `by`. */
async function skr(by: ReturnType<typeof privateKeyToAccount>, o: { requestFid?: number; key?: string; deadline?: number } = {}) {
  const key = (o.key ?? randomKey()) as Hex
  const requestFid = o.requestFid ?? APP_FID
  const deadline = o.deadline ?? Math.floor(Date.now() / 1000) + 3600
  const signature = await by.signTypedData({ domain: SIGNED_KEY_REQUEST_DOMAIN, types: SIGNED_KEY_REQUEST_TYPES, primaryType: 'SignedKeyRequest', message: { requestFid: BigInt(requestFid), key, deadline: BigInt(deadline) } })
  return { key, requestFid, signature, deadline }
}

describe('the Farcaster client API stand-in', () => {
  it("accepts the app FID's custody signature and answers the documented shape", async () => {
    const b = await skr(appCustody)
    const r = await standInPost('/v2/signed-key-requests', b)
    expect(r.status).toBe(200)
    expect(r.body.result.signedKeyRequest).toMatchObject({ key: b.key, state: 'pending', token: expect.any(String), deeplinkUrl: expect.stringMatching(/^farcaster:\/\/signed-key-request\?token=/) })
    const got = await fetch(`${standIn.url}/v2/signed-key-request?token=${r.body.result.signedKeyRequest.token}`).then((x) => x.json())
    expect(got.result.signedKeyRequest.state).toBe('pending')
  })

  it('refuses a bad signature, a signer that is not the custody address, a wrong FID, a past deadline, a bad key', async () => {
    const good = await skr(appCustody)
    const other = privateKeyToAccount(generatePrivateKey())
    const cases: [string, unknown, RegExp][] = [
      ['tampered signature', { ...good, signature: `${good.signature.slice(0, -6)}00001b` }, /custody signature/],
      ['not the custody key', await skr(other), /custody signature/],
      ['signed for another key', { ...good, key: randomKey() }, /custody signature/],
      ['wrong app FID (registered to someone else)', { ...(await skr(appCustody, { requestFid: APP_FID + 1 })) }, /custody signature|not registered/],
      ['unregistered FID', await skr(appCustody, { requestFid: 999_999_999 }), /not registered/],
      ['expired deadline', await skr(appCustody, { deadline: Math.floor(Date.now() / 1000) - 1 }), /deadline has passed/],
      ['bad key', { ...good, key: '0x1234' }, /Ed25519/],
    ]
    for (const [name, body, msg] of cases) {
      const r = await standInPost('/v2/signed-key-requests', body)
      expect(r.status, name).toBe(400)
      expect(r.body.errors[0].message, name).toMatch(msg)
    }
  })
})

describe('POST /farcaster/signer/init and /status', () => {
  it('needs an access token, an embedded wallet and a linked Farcaster account (the spec texts), a well-formed key; nothing written', async () => {
    const key = randomKey()
    expect((await s.call('/api/v1/farcaster/signer/status', { appId: FC, body: { ed25519_public_key: key } })).status).toBe(401)
    const noWallet = await person({ wallet: false })
    for (const route of ['init', 'status'] as const) {
      const r = await signerCall(noWallet, route, key)
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ code: 'invalid_data', error: 'Must have an embedded wallet to use Farcaster signers' })
    }
    const noFarcaster = await person({ farcaster: false })
    for (const route of ['init', 'status'] as const) {
      const r = await signerCall(noFarcaster, route, key)
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ code: 'invalid_data', error: 'Must have Farcaster account to use Farcaster signers' })
    }
    const ok = await person()
    for (const bad of ['0x12', 'zz', `${key}00`, 42]) {
      expect((await s.call('/api/v1/farcaster/signer/init', { appId: FC, token: ok.token, body: { ed25519_public_key: bad } })).status).toBe(422)
    }
    // A deadline of its own: past, or more than 7 days ahead, is refused (422); nothing written.
    for (const deadline of [String(Math.floor(Date.now() / 1000) - 10), Math.floor(Date.now() / 1000) + 8 * 86400, 'soon']) {
      const r = await s.call('/api/v1/farcaster/signer/init', { appId: FC, token: ok.token, body: { ed25519_public_key: key, deadline } })
      expect(r.status, String(deadline)).toBe(422)
    }
    expect(await signerRows(key)).toEqual([])
    // An app without a signer configuration says so (403, not a server error).
    const plain = await person({ appId: NO_SIGNER })
    const off = await signerCall(plain, 'init', key)
    expect(off.status).toBe(403)
    expect(off.body.code).toBe('not_supported')
  }, 60_000)

  it('the frame derives the key; init is pending with the approval link; approval gives the account signer_public_key; a cast hash signed in the frame verifies', async () => {
    const p = await person()
    clearSession()
    const { publicKey } = await run<{ publicKey: string }>(p.device, 'farcaster:init-signer', p.ref!)
    expect(publicKey).toMatch(/^0x[0-9a-f]{64}$/)
    const init = await signerCall(p, 'init', publicKey)
    expect(init.status).toBe(200)
    expect(init.body).toEqual({ public_key: publicKey, status: 'pending_approval', signer_approval_url: expect.stringMatching(/^farcaster:\/\/signed-key-request\?token=0x[0-9a-f]+$/) })
    // The request token is not the answer's key material; init again while pending: the same request.
    expect((await signerCall(p, 'init', publicKey)).body).toEqual(init.body)
    expect((await signerCall(p, 'status', publicKey)).body).toMatchObject({ status: 'pending_approval' })
    expect(await accountSigner(p.userId)).toBeNull()
    expect((await approve(publicKey, p.fid!)).status).toBe(200)
    const st = await signerCall(p, 'status', publicKey)
    expect(st.body).toEqual({ public_key: publicKey, status: 'approved', fid: String(p.fid) })
    expect(await accountSigner(p.userId)).toBe(publicKey)
    const me = await s.call('/api/v1/users/me', { appId: FC, token: p.token })
    expect(me.body.user.linked_accounts.find((a: { type: string }) => a.type === 'farcaster')).toMatchObject({ fid: p.fid, signer_public_key: publicKey })
    // Approved stays approved (no second write); init answers approved too.
    expect((await signerCall(p, 'status', publicKey)).body.status).toBe('approved')
    expect((await signerCall(p, 'init', publicKey)).body.status).toBe('approved')
    // The frame signs with the approved key (a 20-byte Farcaster message hash).
    const hash = `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(20)))}`
    const sig = await run<{ publicKey: string; signature: string }>(p.device, 'farcaster:sign', { ...p.ref!, hash })
    expect(sig.publicKey).toBe(publicKey)
    expect(ed25519.verify(hexToBytes(sig.signature.slice(2)), hexToBytes(hash.slice(2)), hexToBytes(publicKey.slice(2)))).toBe(true)
    expect(standIn.approvedKeys(p.fid!)).toContain(publicKey)
    // A cast built with @farcaster/core (the plugin's cast.ts), its hash signed in the frame, verifies at the hub stand-in.
    const frameSigner = { publicKey: hexToBytes(publicKey.slice(2)), sign: async (h: Uint8Array) => hexToBytes((await run<{ signature: string }>(p.device, 'farcaster:sign', { ...p.ref!, hash: `0x${bytesToHex(h)}` })).signature.slice(2)) }
    const cast = await buildCastAdd({ text: 'gm from the frame' }, { fid: p.fid!, network: 'mainnet' }, frameSigner)
    const submit = (m: typeof cast) => fetch(`${standIn.url}/v1/submitMessage`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Message.encode(m).finish() as Uint8Array<ArrayBuffer> })
    const ok = await submit(cast)
    expect(ok.status).toBe(200)
    expect((await ok.json()).data.castAddBody.text).toBe('gm from the frame')
    // The same cast claimed for another fid, or signed by a key nobody approved, is refused.
    const stranger = ed25519.utils.randomSecretKey()
    const foreign = await buildCastAdd({ text: 'not mine' }, { fid: p.fid!, network: 'mainnet' }, { publicKey: ed25519.getPublicKey(stranger), sign: async (h) => ed25519.sign(h, stranger) })
    const refused = await submit(foreign)
    expect(refused.status).toBe(400)
    expect((await refused.json()).details).toMatch(/not an approved key/)
    const otherFid = await buildCastAdd({ text: 'wrong fid' }, { fid: p.fid! + 1, network: 'mainnet' }, frameSigner)
    expect((await submit(otherFid)).status).toBe(400)
    // A tampered signature fails @farcaster/core's validation.
    const tampered = Message.create({ ...cast, signature: Uint8Array.from(cast.signature, (b, i) => (i === 0 ? b ^ 1 : b)) })
    const bad = await submit(tampered)
    expect(bad.status).toBe(400)
    expect((await bad.json()).details).toMatch(/signature/i)
    // A later Farcaster login does not clear the approved signer: the key stays on the account.
    const again = await farcasterLogin(FC, p.fcUser!)
    expect((decodeJwt(again) as { sub: string }).sub).toBe(p.userId)
    expect(await accountSigner(p.userId)).toBe(publicKey)
  }, 60_000)

  it('the key survives a reload (same root, same key), differs per user, and bad hashes are refused', async () => {
    const p = await person()
    clearSession()
    const a = await run<{ publicKey: string }>(p.device, 'farcaster:init-signer', p.ref!)
    // A reload: the frame forgets its unlocked roots; the key is derived again from the shares.
    clearSession()
    const b = await run<{ publicKey: string }>(p.device, 'farcaster:init-signer', p.ref!)
    expect(b.publicKey).toBe(a.publicKey)
    const q = await person()
    clearSession()
    const c = await run<{ publicKey: string }>(q.device, 'farcaster:init-signer', q.ref!)
    expect(c.publicKey).not.toBe(a.publicKey)
    for (const hash of ['', '0x', 'abcd', `0x${'00'.repeat(65)}`, 12]) {
      await expect(run(p.device, 'farcaster:sign', { ...p.ref!, hash })).rejects.toMatchObject({ type: 'invalid_request_arguments' })
    }
    // Another device without the wallet's share gets nothing.
    const stranger = testDevice(s, FC)
    clearSession()
    await expect(run(stranger, 'farcaster:init-signer', p.ref!)).rejects.toMatchObject({ type: 'wallet_not_on_device' })
  }, 60_000)

  it("refuses a key that is not the caller's (init and status); unknown keys are 404", async () => {
    const a = await person()
    const b = await person()
    const key = randomKey()
    expect((await signerCall(a, 'init', key)).status).toBe(200)
    for (const route of ['init', 'status'] as const) {
      const r = await signerCall(b, route, key)
      expect(r.status, route).toBe(403)
      expect(r.body).toMatchObject({ code: 'forbidden', error: 'This signer key belongs to another user.' })
    }
    expect(await signerRows(key)).toEqual([{ state: 'pending', user_id: a.userId }])
    expect((await signerCall(b, 'status', randomKey())).status).toBe(404)
  }, 60_000)

  it('revoked and expired are distinct; a revoked or expired key may be requested again', async () => {
    const p = await person()
    const key = randomKey()
    await signerCall(p, 'init', key)
    expect((await revoke(key)).status).toBe(200)
    expect((await signerCall(p, 'status', key)).body).toEqual({ public_key: key, status: 'revoked', fid: String(p.fid) })
    expect(await accountSigner(p.userId)).toBeNull()
    const again = await signerCall(p, 'init', key)
    expect(again.body.status).toBe('pending_approval')

    const q = await person({ appId: SHORT })
    const k2 = randomKey()
    const k3 = randomKey()
    expect((await signerCall(q, 'init', k2)).body.status).toBe('pending_approval')
    const first = (await signerCall(q, 'init', k3)).body.signer_approval_url
    // The deadline (60 s) passes: only the clock moves (server and stand-in read the same one).
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 61_000)
      expect((await signerCall(q, 'status', k2)).body).toEqual({ public_key: k2, status: 'expired', fid: String(q.fid) })
      // An approval after the deadline is refused by the Farcaster app.
      expect((await approve(k2, q.fid!)).status).toBe(404)
      expect((await signerCall(q, 'status', k2)).body.status).toBe('expired')
      // A request past its deadline that nobody polled is replaced by a new one on init.
      const renewed = await signerCall(q, 'init', k3)
      expect(renewed.body).toMatchObject({ status: 'pending_approval', signer_approval_url: expect.stringMatching(/^farcaster:/) })
      expect(renewed.body.signer_approval_url).not.toBe(first)
    } finally {
      vi.useRealTimers()
    }
    expect(await signerRows(k2)).toEqual([{ state: 'expired', user_id: q.userId }])
    expect(await accountSigner(q.userId)).toBeNull()
  }, 60_000)

  it('an approval by another fid is refused; a wrong app FID is the operator’s error (503), nothing written', async () => {
    const p = await person()
    const key = randomKey()
    await signerCall(p, 'init', key)
    await approve(key, p.fid! + 424242)
    const r = await signerCall(p, 'status', key)
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/approved by Farcaster account/)
    expect(await accountSigner(p.userId)).toBeNull()

    const w = await person({ appId: WRONG_FID })
    const k2 = randomKey()
    const bad = await signerCall(w, 'init', k2)
    expect(bad.status).toBe(503)
    expect(bad.body).toMatchObject({ code: 'not_supported', error: expect.stringMatching(/refused the request \(400/) })
    expect(await signerRows(k2)).toEqual([])
  }, 60_000)
})
