/**
 * Discord: the descriptor, the contract, and the linked account as the server maps Discord's
 * recorded profile (/users/@me: id, username, global_name, email).
 */
import { describe, expect, it } from 'vitest'
import { createTestKernel, pluginContract, wireUser } from 'portico/testing'
import { discord, DISCORD_PROVIDER } from './index'

pluginContract(() => discord(), { loginMethods: ['discord'] })

/** A linked account as the server sends it after mapping Discord's profile. */
const RECORDED = { type: 'discord_oauth', ...{"subject": "80351110224678912", "email": "alice@example.com", "name": "Alice", "username": "alice"}, verified_at: 1700000000, first_verified_at: 1700000000, latest_verified_at: 1700000100 }

describe('discord', () => {
  it('declares its method: display name, transfer label, account type, user field', async () => {
    const { kernel } = await createTestKernel({ plugins: [discord()], app: { login_methods: ['discord'] } })
    const m = kernel.methods.get('discord')!
    expect(m).toMatchObject({ displayName: 'Discord', transferLabel: 'Discord profile', accountTypes: ['discord_oauth'], userField: 'discord' })
    expect(kernel.methods.forAccountType('discord_oauth')?.id).toBe('discord')
    expect(kernel.methods.forLinkMethod('discord')?.id).toBe('discord')
    expect(DISCORD_PROVIDER.provider).toBe('discord')
    kernel.destroy()
  })

  it("normalises Discord's recorded profile shape into user.discord", async () => {
    const user = wireUser({ accounts: [RECORDED] as never })
    const { kernel } = await createTestKernel({ plugins: [discord()], user })
    const account = kernel.session.user!.discord!
    expect(account).toMatchObject({ type: 'discord_oauth', subject: RECORDED.subject, email: RECORDED.email, name: RECORDED.name, username: RECORDED.username })
    expect(account.latestVerifiedAt).toEqual(new Date(1700000100 * 1000))
    kernel.destroy()
  })

  it('adds its landing row with its name when enabled, none otherwise', async () => {
    const on = await createTestKernel({ plugins: [discord()], app: { login_methods: ['discord'] } })
    const rows = on.kernel.hooks.loginMethods.call([], { config: on.kernel.config, recent: null })
    expect(rows).toMatchObject([{ id: 'discord', label: 'Discord', group: 'web2', screen: 'discord-oauth' }])
    const off = await createTestKernel({ plugins: [discord()], app: { login_methods: ['email'] } })
    expect(off.kernel.hooks.loginMethods.call([], { config: off.kernel.config, recent: null })).toEqual([])
    on.kernel.destroy()
    off.kernel.destroy()
  })
})
