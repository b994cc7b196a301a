/**
 * Sign In With Farcaster over HTTP against the real server: the channel (init → relay →
 * status), verification with @farcaster/auth-client (custody address from a tiny IdRegistry
 * on a local hardhat node, the server's configurable Optimism RPC), login, link, unlink,
 * transfer; and the bad inputs: replayed channel, forged signature, wrong custody, stale or
 * expired message, wrong domain / nonce, missing token — each with no partial write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Store } from '../src/core/store'
import { deployIdRegistry, farcasterApp, signIn, startChain, type Chain, type FarcasterUser, type IdRegistry } from './chain/farcaster'
import { ORIGIN, startTestServer, uniqueEmail, type TestServer, openTestStore } from './helpers'

const FC = 'portico-test-farcaster-01'
let chain: Chain
let reg: IdRegistry
let store: Store
let s: TestServer
let deadRpc: TestServer
let fidSeq = 1000 + (process.pid % 1000) * 100

async function newUser(over: Partial<FarcasterUser> = {}): Promise<FarcasterUser> {
  const u: FarcasterUser = { fid: fidSeq++, custody: privateKeyToAccount(generatePrivateKey()), username: `user${fidSeq}`, displayName: 'Fc User', bio: 'hi', pfpUrl: 'https://example.com/p.png', ...over }
  await reg.register(u.fid, u.custody.address)
  return u
}

const call = (path: string, o: Parameters<TestServer['call']>[1] = {}) => s.call(path, { appId: FC, ...o, headers: { origin: ORIGIN, ...o.headers } })
const init = async () => {
  const r = await call('/api/v1/farcaster/init', { body: {} })
  expect(r.status).toBe(200)
  return r.body as { channel_token: string; connect_uri: string; nonce: string }
}
const status = (token: string) => call('/api/v1/farcaster/status', { headers: { 'farcaster-channel-token': token } })
const count = async (sql: string, args: unknown[] = []) => Number((await store.query<{ n: number }>(sql, args))[0].n)
const users = () => count('SELECT count(*)::int AS n FROM users WHERE app_id = $1', [FC])

/** A full sign-in through the channel: init, the app signs and posts, status completes. */
async function channelSignIn(u: FarcasterUser) {
  const ch = await init()
  expect((await status(ch.channel_token)).body.state).toBe('pending')
  await farcasterApp(s.url, ch.connect_uri, u)
  const st = await status(ch.channel_token)
  expect(st.body).toMatchObject({ state: 'completed', fid: u.fid, username: u.username })
  return { channel_token: ch.channel_token, message: st.body.message as string, signature: st.body.signature as string, fid: u.fid }
}

beforeAll(async () => {
  chain = await startChain()
  reg = await deployIdRegistry(chain.rpc)
  store = await openTestStore()
  s = await startTestServer(store, { farcaster: { rpcUrl: chain.rpc, idRegistry: reg.address } })
  deadRpc = await startTestServer(store, { farcaster: { rpcUrl: 'http://127.0.0.1:9', idRegistry: reg.address } })
}, 90_000)

afterAll(async () => {
  await s?.close()
  await deadRpc?.close()
  await store?.close()
  chain?.stop()
})

describe('Farcaster: channel and login', () => {
  it('logs a new user in through the channel, then the same user again', async () => {
    const u = await newUser()
    const before = await users()
    const r = await call('/api/v1/farcaster/authenticate', { body: { ...(await channelSignIn(u)), mode: 'login-or-sign-up' } })
    expect(r.status).toBe(200)
    expect(r.body.is_new_user).toBe(true)
    expect(r.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'farcaster',
        fid: u.fid,
        owner_address: u.custody.address,
        username: u.username,
        display_name: 'Fc User',
        bio: 'hi',
        profile_picture_url: 'https://example.com/p.png',
      }),
    ])
    expect(await users()).toBe(before + 1)
    const again = await call('/api/v1/farcaster/authenticate', { body: await channelSignIn(u) })
    expect(again.status).toBe(200)
    expect(again.body.user.id).toBe(r.body.user.id)
    expect(again.body.is_new_user).toBe(false)
  })

  it('connect_uri carries the channel, nonce, origin and domain; the token is stored only hashed', async () => {
    const ch = await init()
    const q = new URL(ch.connect_uri).searchParams
    expect(q.get('channelToken')).toBe(ch.channel_token)
    expect(q.get('nonce')).toBe(ch.nonce)
    expect(q.get('siweUri')).toBe(ORIGIN)
    expect(q.get('domain')).toBe('localhost:5173')
    expect(await count('SELECT count(*)::int AS n FROM farcaster_channels WHERE token_hash = $1', [ch.channel_token])).toBe(0)
  })

  it('refuses a replayed channel, with no second session', async () => {
    const u = await newUser()
    const body = await channelSignIn(u)
    expect((await call('/api/v1/farcaster/authenticate', { body })).status).toBe(200)
    const sessions = await count('SELECT count(*)::int AS n FROM sessions')
    const replay = await call('/api/v1/farcaster/authenticate', { body })
    expect(replay.status).toBe(401)
    expect(replay.body.code).toBe('invalid_credentials')
    expect(await count('SELECT count(*)::int AS n FROM sessions')).toBe(sessions)
    // The used channel's status is gone too.
    expect((await status(body.channel_token)).status).toBe(401)
  })

  it('refuses a forged signature, a signer that is not the custody address, a fid that does not match; nothing written, channel still usable', async () => {
    const u = await newUser()
    const before = await users()
    const good = await channelSignIn(u)
    const other = privateKeyToAccount(generatePrivateKey())
    const forged = await other.signMessage({ message: good.message })
    const bad = [
      { ...good, signature: forged },
      { ...good, signature: good.signature.slice(0, -4) + '0000' },
      { ...good, signature: 'not-hex' },
      { ...good, fid: u.fid + 1 },
    ]
    for (const body of bad) {
      const r = await call('/api/v1/farcaster/authenticate', { body })
      expect(r.status, JSON.stringify(body.signature)).toBe(401)
      expect(r.body.code).toBe('invalid_credentials')
    }
    // A message signed by a key that is not the fid's custody address (valid signature).
    const impostor: FarcasterUser = { ...u, custody: other }
    const ch = await init()
    const signed = await signIn(ch.connect_uri, impostor)
    const r = await call('/api/v1/farcaster/authenticate', { body: { channel_token: ch.channel_token, message: signed.message, signature: signed.signature, fid: u.fid } })
    expect(r.status).toBe(401)
    expect(r.body.error).toMatch(/does not own fid/)
    expect(await users()).toBe(before)
    expect((await call('/api/v1/farcaster/authenticate', { body: good })).status).toBe(200)
  })

  it('refuses an expired, not-yet-valid or stale message, another nonce, domain or URI, another channel', async () => {
    const u = await newUser()
    const before = await users()
    const cases: [string, Parameters<typeof signIn>[2]][] = [
      ['expired', { expirationTime: new Date(Date.now() - 60_000) }],
      ['not before', { notBefore: new Date(Date.now() + 3600_000) }],
      ['stale issued at', { issuedAt: new Date(Date.now() - 3600_000) }],
      ['nonce', { nonce: 'abcdefgh12345678' }],
      ['domain', { domain: 'evil.example' }],
      ['uri', { uri: 'https://evil.example' }],
    ]
    for (const [name, over] of cases) {
      const ch = await init()
      const m = await signIn(ch.connect_uri, u, over)
      const r = await call('/api/v1/farcaster/authenticate', { body: { channel_token: ch.channel_token, message: m.message, signature: m.signature, fid: u.fid } })
      expect(r.status, name).toBe(401)
      expect(r.body.code, name).toBe('invalid_credentials')
    }
    // A message signed for one channel, presented with another.
    const a = await init()
    const b = await init()
    const m = await signIn(a.connect_uri, u)
    expect((await call('/api/v1/farcaster/authenticate', { body: { channel_token: b.channel_token, message: m.message, signature: m.signature, fid: u.fid } })).status).toBe(401)
    expect(await users()).toBe(before)
  })

  it('refuses missing or unknown channel tokens, bad bodies, wrong origin, another app; never 5xx', async () => {
    expect((await call('/api/v1/farcaster/status')).status).toBe(400)
    expect((await status('nope')).status).toBe(401)
    expect((await call('/api/v1/farcaster/authenticate', { body: {} })).status).toBe(422)
    expect((await call('/api/v1/farcaster/authenticate', { body: { channel_token: 'x', message: 'm', signature: '0x00', fid: -1 } })).status).toBe(422)
    expect((await call('/api/v1/farcaster/authenticate', { body: { channel_token: 'x', message: 'm', signature: '0x00', fid: 1 } })).status).toBe(401)
    const wrongOrigin = await call('/api/v1/farcaster/init', { body: {}, headers: { origin: 'https://evil.example' } })
    expect(wrongOrigin.status).toBe(400)
    // The demo app does not enable Farcaster.
    const off = await s.call('/api/v1/farcaster/init', { body: {}, headers: { origin: ORIGIN } })
    expect(off.status).toBe(403)
    expect(off.body.code).toBe('disallowed_login_method')
    // A channel of this app is unknown to another app.
    const ch = await init()
    expect((await s.call('/api/v1/farcaster/status', { headers: { 'farcaster-channel-token': ch.channel_token } })).status).toBe(403)
  })

  it('the relay: needs the channel token, completes a channel once, refuses bad bodies', async () => {
    const u = await newUser()
    const ch = await init()
    const relay = (token: string | null, body: unknown) =>
      fetch(`${s.url}/farcaster-relay/v1/channel/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })
    const m = await signIn(ch.connect_uri, u)
    expect((await relay(null, { message: m.message, signature: m.signature, fid: u.fid })).status).toBe(401)
    expect((await relay(ch.channel_token, { message: m.message })).status).toBe(400)
    expect((await relay(ch.channel_token, { message: m.message, signature: m.signature, fid: u.fid })).status).toBe(201)
    expect((await relay(ch.channel_token, { message: m.message, signature: m.signature, fid: u.fid })).status).toBe(401)
  })

  it('an unreachable Optimism RPC disables only Farcaster (503, nothing written); e-mail still works', async () => {
    const u = await newUser()
    const ch = await deadRpc.call('/api/v1/farcaster/init', { appId: FC, body: {}, headers: { origin: ORIGIN } })
    const m = await signIn(ch.body.connect_uri, u)
    const before = await users()
    const r = await deadRpc.call('/api/v1/farcaster/authenticate', { appId: FC, body: { channel_token: ch.body.channel_token, message: m.message, signature: m.signature, fid: u.fid } })
    expect(r.status).toBe(503)
    expect(await users()).toBe(before)
    expect((await deadRpc.emailLogin(uniqueEmail('fc'), { appId: FC })).status).toBe(200)
  })
})

describe('Farcaster: link, unlink, transfer', () => {
  it('links to an e-mail user, unlinks, refuses a second Farcaster account, and transfers from another user', { timeout: 60_000 }, async () => {
    const login = await s.emailLogin(uniqueEmail('fc'), { appId: FC })
    const token = login.body.token as string
    const u = await newUser()
    // Link needs a bearer.
    expect((await call('/api/v1/farcaster/link', { body: await channelSignIn(u) })).status).toBe(401)
    const linked = await call('/api/v1/farcaster/link', { token, body: await channelSignIn(u) })
    expect(linked.status).toBe(200)
    expect(linked.body.user.linked_accounts.map((a: { type: string }) => a.type).sort()).toEqual(['email', 'farcaster'])
    // One Farcaster account per user.
    const u2 = await newUser()
    const more = await call('/api/v1/farcaster/link', { token, body: await channelSignIn(u2) })
    expect(more.body.code).toBe('cannot_link_more_of_type')
    // Unlink.
    expect((await call('/api/v1/farcaster/unlink', { token, body: { fid: u2.fid } })).status).toBe(400)
    const unlinked = await call('/api/v1/farcaster/unlink', { token, body: { fid: u.fid } })
    expect(unlinked.status).toBe(200)
    expect(unlinked.body.user.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])

    // u2 belongs to a Farcaster-only user; linking it here asks for a transfer.
    const owner = await call('/api/v1/farcaster/authenticate', { body: await channelSignIn(u2) })
    expect(owner.status).toBe(200)
    const conflict = await call('/api/v1/farcaster/link', { token, body: await channelSignIn(u2) })
    expect(conflict.status).toBe(400)
    expect(conflict.body.code).toBe('account_transfer_required')
    expect(conflict.body.data).toMatchObject({ link_method: 'farcaster', account_type: 'farcaster', account: String(u2.fid) })
    // A wrong fid or nonce moves nothing.
    expect((await call('/api/v1/farcaster/transfer', { token, body: { nonce: conflict.body.data.nonce, farcaster_id: u.fid } })).status).toBe(401)
    const moved = await call('/api/v1/farcaster/transfer', { token, body: { nonce: conflict.body.data.nonce, farcaster_id: u2.fid } })
    expect(moved.status).toBe(200)
    expect(moved.body.user.linked_accounts.find((a: { type: string }) => a.type === 'farcaster').fid).toBe(u2.fid)
    expect(await count('SELECT count(*)::int AS n FROM users WHERE id = $1', [owner.body.user.id])).toBe(0)
    // The nonce is single use.
    expect((await call('/api/v1/farcaster/transfer', { token, body: { nonce: conflict.body.data.nonce, farcaster_id: u2.fid } })).status).toBe(401)
  })
})
