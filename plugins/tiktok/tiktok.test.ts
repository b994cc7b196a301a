/**
 * TikTok: the descriptor, the contract, and the linked account as the server maps TikTok's
 * recorded profile (/v2/user/info/: open_id, display_name, username (no e-mail)).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { tiktok, TIKTOK_PROVIDER } from './index'

pluginContract(() => tiktok(), { loginMethods: ['tiktok'] })

/** A linked account as the server sends it after mapping TikTok's profile. */
const RECORDED = { type: 'tiktok_oauth', ...{"subject": "-000OnEXAMPLEopenid", "email": null, "name": "Alice", "username": "alice"}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('tiktok', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [tiktok()], app: { login_methods: ['tiktok'] } })
    const m = kernel.methods.get('tiktok')!
    expect(m).toMatchObject({ displayName: 'TikTok', transferLabel: 'TikTok profile', accountTypes: ['tiktok_oauth'], userField: 'tiktok' })
    expect(kernel.methods.forAccountType('tiktok_oauth')?.id).toBe('tiktok')
    expect(kernel.methods.forLinkMethod('tiktok')?.id).toBe('tiktok')
    expect(TIKTOK_PROVIDER.provider).toBe('tiktok')
    kernel.destroy()
  })

  it("normalises TikTok's recorded profile shape into user.tiktok", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [tiktok()], user })
    const account = kernel.session.user!.tiktok!
    expect(account).toMatchObject({ type: 'tiktok_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [tiktok()], app: { login_methods: ['tiktok'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'tiktok', label: 'TikTok', group: 'web2', screen: 'tiktok-oauth' }])
    const off = await createTestKernel({ plugins: [tiktok()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
