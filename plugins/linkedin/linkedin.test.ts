/**
 * LinkedIn: the descriptor, the contract, and the linked account as the server maps LinkedIn's
 * recorded profile (OpenID Connect userinfo: sub, email, name).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { linkedin, LINKEDIN_PROVIDER } from './index'

pluginContract(() => linkedin(), { loginMethods: ['linkedin'] })

/** A linked account as the server sends it after mapping LinkedIn's profile. */
const RECORDED = { type: 'linkedin_oauth', ...{"subject": "782bbtaQ", "email": "alice@example.com", "name": "Alice Example", "username": null}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('linkedin', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [linkedin()], app: { login_methods: ['linkedin'] } })
    const m = kernel.methods.get('linkedin')!
    expect(m).toMatchObject({ displayName: 'LinkedIn', transferLabel: 'LinkedIn profile', accountTypes: ['linkedin_oauth'], userField: 'linkedin' })
    expect(kernel.methods.forAccountType('linkedin_oauth')?.id).toBe('linkedin')
    expect(kernel.methods.forLinkMethod('linkedin')?.id).toBe('linkedin')
    expect(LINKEDIN_PROVIDER.provider).toBe('linkedin')
    kernel.destroy()
  })

  it("normalises LinkedIn's recorded profile shape into user.linkedin", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [linkedin()], user })
    const account = kernel.session.user!.linkedin!
    expect(account).toMatchObject({ type: 'linkedin_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [linkedin()], app: { login_methods: ['linkedin'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'linkedin', label: 'LinkedIn', group: 'web2', screen: 'linkedin-oauth' }])
    const off = await createTestKernel({ plugins: [linkedin()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
