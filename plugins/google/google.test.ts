/**
 * Google: the descriptor, the contract, and the linked account as the server maps Google's
 * recorded profile (OpenID Connect userinfo: sub, email, name (no username)).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { google, GOOGLE_PROVIDER } from './index'

pluginContract(() => google(), { loginMethods: ['google'] })

/** A linked account as the server sends it after mapping Google's profile. */
const RECORDED = { type: 'google_oauth', ...{"subject": "110169484474386276334", "email": "alice@example.com", "name": "Alice Example", "username": null}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('google', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [google()], app: { login_methods: ['google'] } })
    const m = kernel.methods.get('google')!
    expect(m).toMatchObject({ displayName: 'Google', transferLabel: 'Google profile', accountTypes: ['google_oauth'], userField: 'google' })
    expect(kernel.methods.forAccountType('google_oauth')?.id).toBe('google')
    expect(kernel.methods.forLinkMethod('google')?.id).toBe('google')
    expect(GOOGLE_PROVIDER.provider).toBe('google')
    kernel.destroy()
  })

  it("normalises Google's recorded profile shape into user.google", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [google()], user })
    const account = kernel.session.user!.google!
    expect(account).toMatchObject({ type: 'google_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [google()], app: { login_methods: ['google'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'google', label: 'Google', group: 'web2', screen: 'google-oauth' }])
    const off = await createTestKernel({ plugins: [google()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
