/**
 * Twitter: the descriptor, the contract, and the linked account as the server maps Twitter's
 * recorded profile (/2/users/me: data.id, data.name, data.username (no e-mail)).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { twitter, TWITTER_PROVIDER } from './index'

pluginContract(() => twitter(), { loginMethods: ['twitter'] })

/** A linked account as the server sends it after mapping Twitter's profile. */
const RECORDED = { type: 'twitter_oauth', ...{"subject": "2244994945", "email": null, "name": "Alice Example", "username": "alice"}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('twitter', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [twitter()], app: { login_methods: ['twitter'] } })
    const m = kernel.methods.get('twitter')!
    expect(m).toMatchObject({ displayName: 'Twitter', transferLabel: 'Twitter profile', accountTypes: ['twitter_oauth'], userField: 'twitter' })
    expect(kernel.methods.forAccountType('twitter_oauth')?.id).toBe('twitter')
    expect(kernel.methods.forLinkMethod('twitter')?.id).toBe('twitter')
    expect(TWITTER_PROVIDER.provider).toBe('twitter')
    kernel.destroy()
  })

  it("normalises Twitter's recorded profile shape into user.twitter", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [twitter()], user })
    const account = kernel.session.user!.twitter!
    expect(account).toMatchObject({ type: 'twitter_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [twitter()], app: { login_methods: ['twitter'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'twitter', label: 'Twitter', group: 'web2', screen: 'twitter-oauth' }])
    const off = await createTestKernel({ plugins: [twitter()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
