import { describe, expect, it, vi } from 'vitest'
import { isPorticoError } from 'portico'
import { onPage, pagePath, requestPage, rgbToHex } from './wallet-page'

const PROTOCOL = 'portico-wallet-frame/1'
const origin = 'http://127.0.0.1:8788'

/** A fake host window (its message listeners) and the page's window (what it was sent). */
function fakes() {
  const posted: any[] = []
  const contentWindow = { postMessage: (m: any) => posted.push(m) }
  const listeners: ((e: any) => void)[] = []
  const win = { addEventListener: (_: string, l: any) => listeners.push(l), removeEventListener: (_: string, l: any) => listeners.splice(listeners.indexOf(l), 1) } as any
  const deliver = (data: any, from: { origin?: string; source?: unknown } = {}) => [...listeners].forEach((l) => l({ origin: from.origin ?? origin, source: from.source ?? contentWindow, data }))
  return { posted, contentWindow, listeners, win, deliver }
}

describe('a wallet-service page: the handshake', () => {
  it('builds the request only after ready, maps the page’s error types to the plugin’s codes, and stops listening', async () => {
    const f = fakes()
    const payload = vi.fn(async () => ({ accessToken: 'tok' }))
    const done = requestPage(f, origin, { type: 'x:do', payload, provider: 'x', codes: { invalid_request_arguments: 'invalid_data' } }, { window: f.win })
    expect(f.posted[0]).toMatchObject({ protocol: PROTOCOL, type: 'ready' })
    expect(payload).not.toHaveBeenCalled()
    f.deliver({ protocol: PROTOCOL, id: f.posted[0].id, data: {} })
    await vi.waitFor(() => expect(f.posted.find((m) => m.type === 'x:do')).toMatchObject({ payload: { accessToken: 'tok' } }))
    f.deliver({ protocol: PROTOCOL, id: f.posted.find((m) => m.type === 'x:do').id, error: { type: 'invalid_request_arguments', message: 'Bad policy' } })
    const err = await done.catch((e) => e)
    expect(isPorticoError(err)).toBe(true)
    expect(err).toMatchObject({ code: 'invalid_data', message: 'Bad policy', data: { provider: 'x', frameErrorType: 'invalid_request_arguments' } })
    expect(f.listeners).toHaveLength(0)
  })

  it('an unmapped error type is UNKNOWN_EMBEDDED_WALLET_ERROR; a page that never answers ready times out', async () => {
    const f = fakes()
    const done = requestPage(f, origin, { type: 'x:do', payload: async () => ({}), provider: 'x' }, { window: f.win })
    f.deliver({ protocol: PROTOCOL, id: f.posted[0].id, data: {} })
    await vi.waitFor(() => expect(f.posted.some((m) => m.type === 'x:do')).toBe(true))
    f.deliver({ protocol: PROTOCOL, id: f.posted.find((m) => m.type === 'x:do').id, error: { type: 'invalid_request_arguments', message: 'no' } })
    await expect(done).rejects.toMatchObject({ code: 'UNKNOWN_EMBEDDED_WALLET_ERROR', message: 'no' })
    const g = fakes()
    await expect(requestPage(g, origin, { type: 'x:do', payload: async () => ({}), provider: 'x' }, { window: g.win, readyTimeoutMs: 10 })).rejects.toMatchObject({
      code: 'UNKNOWN_EMBEDDED_WALLET_ERROR',
      message: 'Failed to connect to wallet proxy',
    })
  })

  it('an abort ends it, also one that came before it started', async () => {
    const f = fakes()
    const ac = new AbortController()
    const done = requestPage(f, origin, { type: 'x:do', payload: async () => ({}), provider: 'x' }, { window: f.win, signal: ac.signal })
    ac.abort()
    await expect(done).rejects.toMatchObject({ code: 'request_aborted' })
    await expect(requestPage(f, origin, { type: 'x:do', payload: async () => ({}), provider: 'x' }, { window: f.win, signal: ac.signal })).rejects.toMatchObject({ code: 'request_aborted' })
  })
})

describe('a wallet-service page: its notices', () => {
  it('Escape pressed inside the page is reported to the host, from that frame and origin only', () => {
    const f = fakes()
    let escapes = 0
    const off = onPage(f, origin, { 'wallets:export:escape': () => escapes++ }, f.win)
    const escape = { protocol: PROTOCOL, type: 'wallets:export:escape' }
    f.deliver(escape, { origin: 'http://evil.example' })
    f.deliver(escape, { source: {} })
    f.deliver({ protocol: PROTOCOL, type: 'other' })
    f.deliver({ protocol: PROTOCOL, type: 'hasOwnProperty' })
    expect(escapes).toBe(0)
    f.deliver(escape)
    expect(escapes).toBe(1)
    off()
    f.deliver(escape)
    expect(escapes).toBe(1)
  })

  it('the page’s height comes with its notice', () => {
    const f = fakes()
    const heights: unknown[] = []
    onPage(f, origin, { 'delegated-actions:consent:resize': (m) => heights.push(m.height) }, f.win)
    f.deliver({ protocol: PROTOCOL, type: 'delegated-actions:consent:resize', height: 412 })
    f.deliver({ protocol: 'another', type: 'delegated-actions:consent:resize', height: 1 })
    expect(heights).toEqual([412])
  })
})

it('the dialog’s computed colours become the page’s #rrggbb (or none)', () => {
  expect(rgbToHex('rgb(255, 255, 255)')).toBe('#ffffff')
  expect(rgbToHex('rgb(18, 52, 86)')).toBe('#123456')
  expect(rgbToHex('rgba(0, 0, 0, 0)')).toBeNull()
  expect(rgbToHex('transparent')).toBeNull()
})

describe('pagePath', () => {
  it("a page's path with the dialog's look as its query, nothing else", () => {
    expect(pagePath('app id/x', 'authorize')).toBe('/apps/app%20id%2Fx/embedded-wallets/authorize')
    expect(pagePath('a', 'delegate', { theme: 'dark', accentColor: '#5b4cdb', backgroundColor: null, foregroundColor: '#ffffff' })).toBe(
      '/apps/a/embedded-wallets/delegate?theme=dark&accent_color=%235b4cdb&foreground_color=%23ffffff',
    )
  })
})
