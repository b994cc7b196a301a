import { describe, expect, it, vi } from 'vitest'
import { PorticoError } from './errors'
import { defaultErrorView } from './error-views'
import { createNavigator } from './screens'

function nav(errorView = vi.fn((_e: PorticoError) => undefined as never)) {
  const n = createNavigator({ errorView, fallbackView: defaultErrorView })
  for (const id of ['landing', 'code', 'error', 'allowlist-rejection']) n.register({ id, component: id })
  n.register({ id: 'terms', component: 'terms', canClose: false })
  return n
}

describe('navigator', () => {
  it('opens a flow, pushes, goes back, and closes with a result', async () => {
    const n = nav()
    const flow = n.open('landing', {}, { intent: 'login' })
    expect(n.getState()).toMatchObject({ open: true, intent: 'login', current: { id: 'landing' } })
    n.open('code', { email: 'a@b.co' })
    expect(n.getState().current).toEqual({ id: 'code', params: { email: 'a@b.co' } })
    n.back()
    expect(n.getState().current?.id).toBe('landing')
    n.close({ user: 'u' })
    await expect(flow).resolves.toEqual({ ok: true, value: { user: 'u' } })
    expect(n.getState()).toMatchObject({ open: false, stack: [], current: null })
  })

  it('reports exits by intent when the user dismisses', async () => {
    for (const [intent, code] of [
      ['login', 'exited_auth_flow'],
      ['link', 'exited_link_flow'],
      ['update', 'exited_update_flow'],
    ] as const) {
      const n = nav()
      const flow = n.open('landing', {}, { intent })
      n.dismiss()
      const r = await flow
      expect(r.ok).toBe(false)
      expect(!r.ok && r.error.code).toBe(code)
    }
  })

  it('a nested flow (opened with nested: true over an open one) returns to the screen it was opened from, with its own result (issue 25)', async () => {
    const n = nav()
    const outer = n.open('landing', {}, { intent: 'update' })
    let outerDone = false
    void outer.then(() => (outerDone = true))
    const inner = n.open('code', { step: 1 }, { nested: true })
    n.open('error', {})
    n.close({ method: 'manual' })
    await expect(inner).resolves.toEqual({ ok: true, value: { method: 'manual' } })
    expect(n.getState()).toMatchObject({ open: true, current: { id: 'landing' } })
    await Promise.resolve()
    expect(outerDone).toBe(false)
    // Back from its first screen leaves the nested flow only (exited); the outer one goes on.
    const again = n.open('code', {}, { nested: true })
    n.back()
    const r = await again
    expect(!r.ok && r.error.code).toBe('exited_update_flow')
    expect(n.getState().current?.id).toBe('landing')
    // Dismissing (× / Escape) closes the dialog: both flows end as exited.
    const third = n.open('code', {}, { nested: true })
    n.dismiss()
    expect((await third).ok).toBe(false)
    const o = await outer
    expect(!o.ok && o.error.code).toBe('exited_update_flow')
    expect(n.getState().open).toBe(false)
    // With no flow open, nested: true opens a flow as usual.
    const alone = n.open('landing', {}, { nested: true, intent: 'update' })
    n.close('x')
    await expect(alone).resolves.toEqual({ ok: true, value: 'x' })
  })

  it('back() from the first screen dismisses', async () => {
    const n = nav()
    const flow = n.open('landing')
    n.back()
    expect((await flow).ok).toBe(false)
  })

  it('shows the error screen, which returns to the previous screen', () => {
    const n = nav()
    void n.open('landing')
    n.open('code')
    const err = new PorticoError('too_many_requests', 'slow down', { status: 429 })
    const view = n.error(err)
    expect(view).toEqual(defaultErrorView(err))
    expect(n.getState().current).toMatchObject({ id: 'error', params: { error: err, view } })
    n.back()
    expect(n.getState().current?.id).toBe('code')
  })

  it('routes mapped errors to their screen and lets plugins claim an error first', () => {
    const claimed = { title: 'Mine' }
    const n = nav(vi.fn((e: PorticoError) => (e.code === 'plugin_code' ? claimed : undefined)) as never)
    void n.open('landing')
    n.error(new PorticoError('allowlist_rejected', 'no'))
    expect(n.getState().current?.id).toBe('allowlist-rejection')
    expect(n.error(new PorticoError('plugin_code', 'x'))).toBe(claimed)
    expect(n.error(new Error('plain'))).toMatchObject({ title: 'Something went wrong', detail: 'Try again later' })
  })

  it('keeps inline errors on the current screen', () => {
    const n = nav()
    void n.open('landing')
    const view = n.error(new PorticoError('disallowed_plus_email', "Please enter a valid email address without a '+'."))
    expect(view.inline).toBe(true)
    expect(n.getState().current?.id).toBe('landing')
  })

  it('knows which screens cannot be closed', () => {
    const n = nav()
    void n.open('landing')
    expect(n.canClose).toBe(true)
    n.open('terms')
    expect(n.canClose).toBe(false)
  })

  it('refuses bad registrations and unknown screens with clear errors', async () => {
    const n = nav()
    expect(() => n.register({ id: 'landing', component: 'x' })).toThrow("A screen with id 'landing' is already registered")
    expect(() => n.register({ id: '' } as never)).toThrow('non-empty string id')
    expect(() => n.register({ id: 'empty' })).toThrow("Screen 'empty' needs a component or a load() function.")
    await expect(n.open('nope')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('notifies subscribers and stops after unsubscribe; unregister removes the screen', () => {
    const n = nav()
    const l = vi.fn()
    const off = n.subscribe(l)
    void n.open('landing')
    expect(l).toHaveBeenCalledTimes(1)
    off()
    n.close()
    expect(l).toHaveBeenCalledTimes(1)
    const un = n.register({ id: 'temp', load: async () => ({ default: 'x' }) })
    expect(n.has('temp')).toBe(true)
    un()
    expect(n.has('temp')).toBe(false)
  })
})
