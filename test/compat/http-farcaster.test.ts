/**
 * Wire compatibility (issue 31), HTTP half: Sign In With Farcaster through the published client
 * (`@privy-io/js-sdk-core`, pinned), against the reference server. Farcaster's custody lookup
 * needs an Optimism node: a local hardhat chain with a tiny IdRegistry stands in for it, and
 * the Farcaster app's part (sign the SIWF message with the custody key, post it to the channel
 * relay) is @farcaster/auth-client's, as in examples/server/test/farcaster.test.ts. Its own
 * file: the chain starts once, only here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Privy, { InMemoryCache } from '@privy-io/js-sdk-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Store } from '../../examples/server/src/core/store'
import { openTestStore, startTestServer, uniqueEmail, type TestServer } from '../../examples/server/test/helpers'
import { deployIdRegistry, farcasterApp, startChain, type Chain, type FarcasterUser, type IdRegistry } from '../../examples/server/test/chain/farcaster'

const FC = 'portico-test-farcaster-01'

let chain: Chain
let reg: IdRegistry
let store: Store
let s: TestServer
let fid = 700_000 + (process.pid % 1000) * 100

beforeAll(async () => {
  chain = await startChain()
  reg = await deployIdRegistry(chain.rpc)
  store = await openTestStore()
  s = await startTestServer(store, { farcaster: { rpcUrl: chain.rpc, idRegistry: reg.address } })
}, 90_000)
afterAll(async () => {
  await s?.close()
  await store?.close()
  chain?.stop()
})

const client = () => new Privy({ appId: FC, storage: new InMemoryCache(), baseUrl: s.url } as ConstructorParameters<typeof Privy>[0])

async function farcasterUser(): Promise<FarcasterUser> {
  const u: FarcasterUser = { fid: ++fid, custody: privateKeyToAccount(generatePrivateKey()), username: `fc${fid}`, displayName: 'Fc User', bio: 'hi', pfpUrl: 'https://example.com/p.png' }
  await reg.register(u.fid, u.custody.address)
  return u
}

/** The client opens a channel, the Farcaster app signs in on it, the client reads the result. */
async function signedIn(p: Privy, u: FarcasterUser) {
  const ch = await p.auth.farcaster.initializeAuth({})
  expect(ch.connect_uri).toContain(ch.channel_token)
  expect((await p.auth.farcaster.getFarcasterStatus({ channel_token: ch.channel_token })).state).toBe('pending')
  await farcasterApp(s.url, ch.connect_uri, u)
  const st = await p.auth.farcaster.getFarcasterStatus({ channel_token: ch.channel_token })
  expect(st).toMatchObject({ state: 'completed', fid: u.fid, username: u.username })
  const done = st as { message: string; signature: string }
  return { channel_token: ch.channel_token, message: done.message, signature: done.signature, fid: u.fid }
}

describe('the published client against the reference server: Farcaster', () => {
  it('logs in with Farcaster (channel, status, authenticate), links one to an e-mail user, unlinks it', async () => {
    const u = await farcasterUser()
    const p = client()
    const r = await p.auth.farcaster.authenticate(await signedIn(p, u))
    const acct = r.user.linked_accounts.find((a: { type: string }) => a.type === 'farcaster') as { fid: number; username: string }
    expect(acct).toMatchObject({ fid: u.fid, username: u.username })
    expect(r.is_new_user).toBe(true)

    const q = client()
    const email = uniqueEmail('compat-fc')
    await q.auth.email.sendCode(email)
    const er = await q.auth.email.loginWithCode(email, await s.code(email))
    const v = await farcasterUser()
    const linked = await q.auth.farcaster.link(await signedIn(q, v))
    expect(linked.user.id).toBe(er.user.id)
    expect(linked.user.linked_accounts.filter((a: { type: string }) => a.type === 'farcaster')).toMatchObject([{ fid: v.fid }])
    const unlinked = await q.auth.farcaster.unlink({ fid: v.fid })
    expect(unlinked.user.linked_accounts.filter((a: { type: string }) => a.type === 'farcaster')).toHaveLength(0)
  })
})
