/**
 * GitHub: the descriptor, the contract, and the linked account as the server maps GitHub's
 * recorded profile (/user: id (a number, as a string), login, name, email (null when private)).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { github, GITHUB_PROVIDER } from './index'

pluginContract(() => github(), { loginMethods: ['github'] })

/** A linked account as the server sends it after mapping GitHub's profile. */
const RECORDED = { type: 'github_oauth', ...{"subject": "583231", "email": "alice@example.com", "name": "Alice Example", "username": "octocat"}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('github', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [github()], app: { login_methods: ['github'] } })
    const m = kernel.methods.get('github')!
    expect(m).toMatchObject({ displayName: 'GitHub', transferLabel: 'GitHub profile', accountTypes: ['github_oauth'], userField: 'github' })
    expect(kernel.methods.forAccountType('github_oauth')?.id).toBe('github')
    expect(kernel.methods.forLinkMethod('github')?.id).toBe('github')
    expect(GITHUB_PROVIDER.provider).toBe('github')
    kernel.destroy()
  })

  it("normalises GitHub's recorded profile shape into user.github", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [github()], user })
    const account = kernel.session.user!.github!
    expect(account).toMatchObject({ type: 'github_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [github()], app: { login_methods: ['github'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'github', label: 'GitHub', group: 'web2', screen: 'github-oauth' }])
    const off = await createTestKernel({ plugins: [github()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
