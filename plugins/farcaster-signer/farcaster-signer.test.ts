/**
 * The signer flow with the test kit: the server's answers from the kit's network, the wallet
 * frame's two messages answered by a stand-in embedded-wallet plugin that holds a real Ed25519
 * key (@noble/curves). The real frame, server and Farcaster client API: test/e2e/farcaster-signer.spec.ts
 * and examples/server/test/farcaster-signer.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { definePlugin, isPorticoError, type WireUser } from 'portico'
import { farcasterSigner, FARCASTER_SIGNER_POLL_MS, FARCASTER_SIGNER_TIMEOUT_MS } from './index'
import { FARCASTER_SIGNER_TEXTS } from './strings'
import { webLink } from './screens/awaiting'

pluginContract(() => farcasterSigner())

const secret = ed25519.utils.randomSecretKey()
const KEY = `0x${bytesToHex(ed25519.getPublicKey(secret))}`
const fc = { type: 'farcaster', fid: 42, owner_address: '0xAbC', username: 'alice', signer_public_key: null, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }
const wallet = { type: 'wallet', address: '0x1111111111111111111111111111111111111111', chain_type: 'ethereum', wallet_index: 0, wallet_client_type: 'privy', connector_type: 'embedded', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }

/** The embedded-wallet plugin's API as far as the signer uses it: the wallets and a frame answering the two messages. */
function frameStandIn(requests: { type: string; payload: any }[]) {
  return definePlugin({
    id: 'embedded-wallet',
    kind: 'wallet',
    setup(ctx) {
      ctx.provide({
        wallets: () => [{ address: wallet.address, chainType: 'ethereum', walletIndex: 0, entropyId: wallet.address, entropyIdVerifier: 'ethereum-address-verifier' }],
        frame: async () => ({
          request: async (type: string, payload: any) => {
            requests.push({ type, payload })
            if (type === 'farcaster:init-signer') return { publicKey: KEY }
            return { publicKey: KEY, signature: `0x${bytesToHex(ed25519.sign(hexToBytes(payload.hash.slice(2)), secret))}` }
          },
        }),
      } as never)
    },
  })
}

async function setup(user: WireUser, statuses: string[]) {
  const requests: { type: string; payload: any }[] = []
  const t = await createTestKernel({ plugins: [frameStandIn(requests) as never, farcasterSigner()], user })
  await t.kernel.ready()
  // Bodies with a `status` field go in `{ status, body }` (the kit reads a bare `status` as the HTTP status).
  t.net.on('POST', '/farcaster/signer/init', { status: 200, body: { public_key: KEY, status: 'pending_approval', signer_approval_url: 'farcaster://signed-key-request?token=0xabc' } })
  let polls = 0
  t.net.on('POST', '/farcaster/signer/status', () => {
    const s = statuses[Math.min(polls++, statuses.length - 1)]
    return { status: 200, body: s === 'pending_approval' ? { public_key: KEY, status: s, signer_approval_url: 'farcaster://signed-key-request?token=0xabc' } : { public_key: KEY, status: s, fid: '42' } }
  })
  let clock = 0
  const sleeps: number[] = []
  const sleep = async (ms: number) => {
    sleeps.push(ms)
    clock += ms
  }
  return { ...t, api: t.kernel.plugin('farcaster-signer'), requests, sleep, now: () => clock, sleeps }
}

describe('farcasterSigner()', () => {
  it('asks the frame for the key, inits, polls every 2 s until approved, refreshes the user', async () => {
    const approved = wireUser({ accounts: [{ ...fc, signer_public_key: KEY }, wallet] })
    const t = await setup(wireUser({ accounts: [fc, wallet] }), ['pending_approval', 'pending_approval', 'approved'])
    const urls: (string | null)[] = []
    t.api.state.subscribe((s) => urls.push(s.approvalUrl))
    t.net.on('GET', '/users/me', { user: approved })
    const r = await t.api.run({ sleep: t.sleep, now: t.now })
    expect(r.status).toBe('approved')
    expect(t.sleeps).toEqual([FARCASTER_SIGNER_POLL_MS, FARCASTER_SIGNER_POLL_MS, FARCASTER_SIGNER_POLL_MS])
    expect(urls).toContain('farcaster://signed-key-request?token=0xabc')
    expect(t.net.callsTo('POST', '/farcaster/signer/init')[0].body).toEqual({ ed25519_public_key: KEY })
    expect(t.requests[0]).toMatchObject({ type: 'farcaster:init-signer', payload: { entropyId: wallet.address, entropyIdVerifier: 'ethereum-address-verifier' } })
    expect(t.api.state.get().status).toBe('approved')
    expect(t.kernel.session.user?.linkedAccounts.find((a) => a.type === 'farcaster')).toMatchObject({ signerPublicKey: KEY })
  })

  it("'revoked' ends with 'Request rejected'; 5 minutes of pending with 'Connect failed'", async () => {
    const revoked = await setup(wireUser({ accounts: [fc, wallet] }), ['pending_approval', 'revoked'])
    const e1 = await revoked.api.run({ sleep: revoked.sleep, now: revoked.now }).catch((e) => e)
    expect(isPorticoError(e1) && e1.message).toBe(FARCASTER_SIGNER_TEXTS.rejectedDetail)
    expect(revoked.api.state.get().status).toBe('revoked')
    const slow = await setup(wireUser({ accounts: [fc, wallet] }), ['pending_approval'])
    const e2 = await slow.api.run({ sleep: slow.sleep, now: slow.now }).catch((e) => e)
    expect(isPorticoError(e2) && e2.message).toBe(FARCASTER_SIGNER_TEXTS.failedDetail)
    expect(slow.now()).toBe(FARCASTER_SIGNER_TIMEOUT_MS)
    expect(slow.sleeps.length).toBe(FARCASTER_SIGNER_TIMEOUT_MS / FARCASTER_SIGNER_POLL_MS)
    expect(slow.api.state.get().status).toBe('failed')
  })

  it("needs an embedded wallet and a Farcaster account (the spec's texts), before any request", async () => {
    const noFc = await setup(wireUser({ accounts: [wallet] }), ['approved'])
    await expect(noFc.api.run({ sleep: noFc.sleep, now: noFc.now })).rejects.toThrow(FARCASTER_SIGNER_TEXTS.needFarcaster)
    expect(noFc.net.callsTo('POST', '/farcaster/signer/init')).toEqual([])
    const noWallet = await createTestKernel({ plugins: [farcasterSigner()], user: wireUser({ accounts: [fc] }) })
    await noWallet.kernel.ready()
    await expect(noWallet.kernel.plugin('farcaster-signer').getFarcasterSignerPublicKey()).rejects.toThrow(FARCASTER_SIGNER_TEXTS.needWallet)
  })

  it('signFarcasterMessage hands the hash to the frame and returns its Ed25519 signature', async () => {
    const t = await setup(wireUser({ accounts: [fc, wallet] }), ['approved'])
    const hash = Uint8Array.from({ length: 20 }, (_, i) => i)
    const sig = await t.api.signFarcasterMessage(hash)
    expect(ed25519.verify(sig, hash, hexToBytes(KEY.slice(2)))).toBe(true)
    expect(t.requests.at(-1)).toMatchObject({ type: 'farcaster:sign', payload: { hash: `0x${bytesToHex(hash)}` } })
    await expect(t.api.signFarcasterMessage(new Uint8Array(65))).rejects.toThrow(/1 to 64 bytes/)
  })

  it("'Take me to Warpcast' opens the same request as a web link", () => {
    expect(webLink('farcaster://signed-key-request?token=0xabc')).toBe('https://client.warpcast.com/deeplinks/signed-key-request?token=0xabc')
  })
})
