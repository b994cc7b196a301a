import { describe, expect, it, vi } from 'vitest'
import { createPortico, type PorticoPlugin } from './index'
import { createMethodRegistry } from './methods'

describe('method registry', () => {
  it('warns when two methods declare one account type; the first keeps it', () => {
    const warn = vi.fn()
    const r = createMethodRegistry(undefined, warn)
    r.declare({ id: 'acme', displayName: 'Acme', accountTypes: ['custom_auth'] })
    expect(warn).not.toHaveBeenCalled()
    r.declare({ id: 'other', displayName: 'Other', accountTypes: ['custom_auth', 'other_type'] })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn).toHaveBeenCalledWith("Account type 'custom_auth' is declared by 'acme' and 'other'; 'acme' wins.")
    expect(r.forAccountType('custom_auth')?.id).toBe('acme')
    expect(r.forAccountType('other_type')?.id).toBe('other')
  })

  it("the kernel reports it as a plugin warning (the host's 'warning' listener, else the console)", () => {
    const plugin = (id: string): PorticoPlugin => ({ id, kind: 'login', setup: (ctx) => void ctx.methods.declare({ id, displayName: id, accountTypes: ['custom_auth'] }) })
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      createPortico({ appId: 'portico-demo-app-00000001', apiUrl: 'http://127.0.0.1:1', plugins: [plugin('one'), plugin('two')], fetch: () => new Promise(() => {}) })
      expect(spy).toHaveBeenCalledWith("[portico] Account type 'custom_auth' is declared by 'one' and 'two'; 'one' wins.")
    } finally {
      spy.mockRestore()
    }
  })
  it('warns once per type, in development, of a user account whose type no method declared', async () => {
    const { toUser } = await import('./user')
    const warn = vi.fn()
    const r = createMethodRegistry(undefined, warn)
    r.declare({ id: 'email', displayName: 'e-mail', accountTypes: ['email'], userField: 'email' })
    const raw = {
      id: 'u1',
      created_at: 1,
      linked_accounts: [
        { type: 'email', address: 'a@example.com', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 },
        { type: 'custom_auth', custom_user_id: 'x', verified_at: 1, first_verified_at: 1, latest_verified_at: 1 },
      ],
      mfa_methods: [],
      has_accepted_terms: false,
      is_guest: false,
    }
    const user = toUser(raw, r)
    toUser(raw, r)
    expect(user.customAuth).toBeUndefined()
    expect(user.linkedAccounts[1]).toMatchObject({ type: 'custom_auth', customUserId: 'x' })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0][0]).toBe("No method declares account type 'custom_auth': it fills no user field (declare its accountTypes and userField).")
    const env = process.env.NODE_ENV
    process.env.NODE_ENV = 'production'
    try {
      const quiet = vi.fn()
      toUser(raw, createMethodRegistry(undefined, quiet))
      expect(quiet).not.toHaveBeenCalled()
    } finally {
      process.env.NODE_ENV = env
    }
  })
})
