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
    expect(warn).toHaveBeenCalledWith("Account type 'custom_auth' is declared by methods 'acme' and 'other'; 'acme' normalises it.")
    expect(r.forAccountType('custom_auth')?.id).toBe('acme')
    expect(r.forAccountType('other_type')?.id).toBe('other')
  })

  it("the kernel reports it as a plugin warning (the host's 'warning' listener, else the console)", () => {
    const plugin = (id: string): PorticoPlugin => ({ id, kind: 'login', setup: (ctx) => void ctx.methods.declare({ id, displayName: id, accountTypes: ['custom_auth'] }) })
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      createPortico({ appId: 'portico-demo-app-00000001', apiUrl: 'http://127.0.0.1:1', plugins: [plugin('one'), plugin('two')], fetch: () => new Promise(() => {}) })
      expect(spy).toHaveBeenCalledWith("[portico] Account type 'custom_auth' is declared by methods 'one' and 'two'; 'one' normalises it.")
    } finally {
      spy.mockRestore()
    }
  })
})
