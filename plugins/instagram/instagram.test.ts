/**
 * Instagram: the descriptor, the contract, and the linked account as the server maps Instagram's
 * recorded profile (/me: id, username (no e-mail)).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { instagram, INSTAGRAM_PROVIDER } from './index'

pluginContract(() => instagram(), { loginMethods: ['instagram'] })

/** A linked account as the server sends it after mapping Instagram's profile. */
const RECORDED = { type: 'instagram_oauth', ...{"subject": "17841400000000000", "email": null, "name": null, "username": "alice.example"}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('instagram', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [instagram()], app: { login_methods: ['instagram'] } })
    const m = kernel.methods.get('instagram')!
    expect(m).toMatchObject({ displayName: 'Instagram', transferLabel: 'Instagram profile', accountTypes: ['instagram_oauth'], userField: 'instagram' })
    expect(kernel.methods.forAccountType('instagram_oauth')?.id).toBe('instagram')
    expect(kernel.methods.forLinkMethod('instagram')?.id).toBe('instagram')
    expect(INSTAGRAM_PROVIDER.provider).toBe('instagram')
    kernel.destroy()
  })

  it("normalises Instagram's recorded profile shape into user.instagram", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [instagram()], user })
    const account = kernel.session.user!.instagram!
    expect(account).toMatchObject({ type: 'instagram_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [instagram()], app: { login_methods: ['instagram'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'instagram', label: 'Instagram', group: 'web2', screen: 'instagram-oauth' }])
    const off = await createTestKernel({ plugins: [instagram()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
