/**
 * Apple: the descriptor, the contract, and the linked account as the server maps Apple's
 * recorded profile (id_token claims: sub, email (a relay address when hidden); the name comes only on first consent, by form_post).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { apple, APPLE_PROVIDER } from './index'

pluginContract(() => apple(), { loginMethods: ['apple'] })

/** A linked account as the server sends it after mapping Apple's profile. */
const RECORDED = { type: 'apple_oauth', ...{"subject": "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234", "email": "alice@privaterelay.appleid.com", "name": null, "username": null}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('apple', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [apple()], app: { login_methods: ['apple'] } })
    const m = kernel.methods.get('apple')!
    expect(m).toMatchObject({ displayName: 'Apple', transferLabel: 'Apple profile', accountTypes: ['apple_oauth'], userField: 'apple' })
    expect(kernel.methods.forAccountType('apple_oauth')?.id).toBe('apple')
    expect(kernel.methods.forLinkMethod('apple')?.id).toBe('apple')
    expect(APPLE_PROVIDER.provider).toBe('apple')
    kernel.destroy()
  })

  it("normalises Apple's recorded profile shape into user.apple", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [apple()], user })
    const account = kernel.session.user!.apple!
    expect(account).toMatchObject({ type: 'apple_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [apple()], app: { login_methods: ['apple'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'apple', label: 'Apple', group: 'web2', screen: 'apple-oauth' }])
    const off = await createTestKernel({ plugins: [apple()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
