/**
 * Spotify: the descriptor, the contract, and the linked account as the server maps Spotify's
 * recorded profile (/v1/me: id, display_name, email).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { spotify, SPOTIFY_PROVIDER } from './index'

pluginContract(() => spotify(), { loginMethods: ['spotify'] })

/** A linked account as the server sends it after mapping Spotify's profile. */
const RECORDED = { type: 'spotify_oauth', ...{"subject": "alice123", "email": "alice@example.com", "name": "Alice Example", "username": null}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('spotify', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [spotify()], app: { login_methods: ['spotify'] } })
    const m = kernel.methods.get('spotify')!
    expect(m).toMatchObject({ displayName: 'Spotify', transferLabel: 'Spotify profile', accountTypes: ['spotify_oauth'], userField: 'spotify' })
    expect(kernel.methods.forAccountType('spotify_oauth')?.id).toBe('spotify')
    expect(kernel.methods.forLinkMethod('spotify')?.id).toBe('spotify')
    expect(SPOTIFY_PROVIDER.provider).toBe('spotify')
    kernel.destroy()
  })

  it("normalises Spotify's recorded profile shape into user.spotify", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [spotify()], user })
    const account = kernel.session.user!.spotify!
    expect(account).toMatchObject({ type: 'spotify_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [spotify()], app: { login_methods: ['spotify'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'spotify', label: 'Spotify', group: 'web2', screen: 'spotify-oauth' }])
    const off = await createTestKernel({ plugins: [spotify()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
