import { describe, expect, it } from 'vitest'
import { authResponse, createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { isPorticoError, type WireUser } from 'portico'
import { farcaster, FARCASTER_POLL_MS, FARCASTER_TIMEOUT_MS, INITIAL_FARCASTER_STATE } from './index'
import { runFarcaster } from './flow'
import { FARCASTER_TEXTS } from './strings'
import { qrPath } from './screens/qr'

pluginContract(() => farcaster())

const fcAccount = { type: 'farcaster', fid: 42, owner_address: '0xAbC', username: 'alice', display_name: 'Alice', bio: null, profile_picture_url: null, signer_public_key: null, verified_at: 1, first_verified_at: 1, latest_verified_at: 1 }
const fcUser = (): WireUser => wireUser({ accounts: [fcAccount] })

/** A kernel whose server completes the channel after `pending` polls. */
async function setup(pending = 2) {
  const t = await createTestKernel({ plugins: [farcaster()], app: { login_methods: ['farcaster'] } })
  let polls = 0
  t.net.on('POST', '/farcaster/init', { channel_token: 'ch-1', connect_uri: 'https://warpcast.com/~/sign-in-with-farcaster?channelToken=ch-1' })
  t.net.on('GET', '/farcaster/status', () =>
    ++polls > pending ? { state: 'completed', message: 'msg', signature: '0xsig', fid: 42 } : { state: 'pending' },
  )
  t.net.on('POST', '/farcaster/authenticate', authResponse(fcUser()))
  t.net.on('POST', '/farcaster/link', { user: fcUser() })
  // A fake clock: each sleep advances it.
  let clock = 0
  const sleeps: number[] = []
  const sleep = async (ms: number) => {
    sleeps.push(ms)
    clock += ms
  }
  return { ...t, fc: t.kernel.plugin('farcaster'), sleep, now: () => clock, sleeps, polls: () => polls }
}

describe('farcaster()', () => {
  it('declares the method: display name, account type, user field, transfer label, unlink and transfer', async () => {
    const t = await createTestKernel({ plugins: [farcaster()] })
    const m = t.kernel.methods.get('farcaster')!
    expect(m).toMatchObject({ displayName: 'Farcaster', accountTypes: ['farcaster'], userField: 'farcaster', transferLabel: 'Farcaster profile' })
    expect(typeof m.transfer).toBe('function')
    expect(typeof m.unlink).toBe('function')
    const acc = m.normalise!(fcAccount as never) as any
    expect(acc).toMatchObject({ type: 'farcaster', fid: 42, ownerAddress: '0xAbC', username: 'alice', displayName: 'Alice', bio: null, profilePictureUrl: null, signerPublicKey: null })
  })

  it('opens a channel, polls every 2 s until completed, then authenticates with channel_token, message, signature, fid', async () => {
    const { fc, net, sleep, now, sleeps, kernel } = await setup(2)
    const seen: (string | null)[] = []
    fc.state.subscribe((s) => seen.push(s.connectUri))
    const res = await fc.connect({ sleep, now })
    expect(sleeps).toEqual([FARCASTER_POLL_MS, FARCASTER_POLL_MS, FARCASTER_POLL_MS])
    expect(seen).toContain('https://warpcast.com/~/sign-in-with-farcaster?channelToken=ch-1')
    expect(net.callsTo('GET', '/farcaster/status')[0].headers['farcaster-channel-token']).toBe('ch-1')
    expect(net.callsTo('POST', '/farcaster/authenticate')[0].body).toEqual({ channel_token: 'ch-1', message: 'msg', signature: '0xsig', fid: 42 })
    const done = await kernel.completeLogin(res as never, { method: 'farcaster' })
    expect(done.user.farcaster).toMatchObject({ fid: 42, username: 'alice' })
    expect(kernel.recentLogin()?.method).toBe('farcaster')
  })

  it('links with /farcaster/link when the intent is link', async () => {
    const { fc, net, sleep, now } = await setup(0)
    await fc.connect({ intent: 'link', sleep, now })
    expect(net.callsTo('POST', '/farcaster/link')).toHaveLength(1)
    expect(net.callsTo('POST', '/farcaster/authenticate')).toHaveLength(0)
  })

  it("times out after 2 minutes with 'The request timed out. Try again.'", async () => {
    const { fc, sleep, now, polls } = await setup(Infinity)
    const err = await fc.connect({ sleep, now }).catch((e) => e)
    expect(isPorticoError(err, 'client_request_timeout')).toBe(true)
    expect(err.message).toBe('The request timed out. Try again.')
    expect(polls()).toBe(FARCASTER_TIMEOUT_MS / FARCASTER_POLL_MS - 1)
  })

  it('stops polling when aborted', async () => {
    const { kernel, net } = await setup(Infinity)
    const store = kernel.pluginState('farcaster') as never
    const ac = new AbortController()
    const p = runFarcaster(kernel.api, store, { signal: ac.signal, pollMs: 5 })
    await new Promise((r) => setTimeout(r, 20))
    ac.abort()
    await expect(p).rejects.toBeTruthy()
    const n = net.callsTo('GET', '/farcaster/status').length
    await new Promise((r) => setTimeout(r, 30))
    expect(net.callsTo('GET', '/farcaster/status').length).toBe(n)
  })

  it('shows the time-out and a refused message as Farcaster errors', async () => {
    const t = await createTestKernel({ plugins: [farcaster()] })
    await t.kernel.loadDeclarations() // error views declared lazily (the modal's screens wait for them)
    const { farcasterTimeout } = await import('./errors')
    expect(t.kernel.screens.resolveError(farcasterTimeout(), { method: 'farcaster' })).toMatchObject({ title: FARCASTER_TEXTS.failedTitle, detail: FARCASTER_TEXTS.timeout })
  })

  it('refuses a login while someone is logged in', async () => {
    const t = await createTestKernel({ plugins: [farcaster()], user: fcUser() })
    await expect(t.kernel.plugin('farcaster').connect()).rejects.toMatchObject({ code: 'already_logged_in' })
  })

  it('adds the landing row only when the app lists farcaster', async () => {
    const on = await setup()
    expect(on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null }).map((m) => m.id)).toContain('farcaster')
    const off = await createTestKernel({ plugins: [farcaster()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null }).map((m) => m.id)).not.toContain('farcaster')
  })

  it('encodes the connect URI as an SVG path (no inline style)', () => {
    const { size, d } = qrPath('https://warpcast.com/~/sign-in-with-farcaster?channelToken=abc')
    expect(size).toBeGreaterThan(20)
    expect(d).toMatch(/^M\d+ \d+h1v1h-1z/)
    expect(INITIAL_FARCASTER_STATE.status).toBe('idle')
  })
})

