/** The one PKCE and the one popup host (./pkce.ts, ./popup.ts), through the kit's entry. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { base64url, challengeOf, createStateCode, createVerifier, openPopup, watchPopup, type PopupHost, type PopupWindow } from './index'

describe('PKCE', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })

  it('makes a fresh 48-character verifier and a 32-character state code, base64url', () => {
    const v = createVerifier()
    expect(v).toMatch(/^[A-Za-z0-9_-]{48}$/)
    expect(createVerifier()).not.toBe(v)
    expect(createStateCode()).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(base64url(new Uint8Array([251, 255, 191]))).toBe('-_-_')
  })
})

describe('the popup host', () => {
  afterEach(() => vi.useRealTimers())

  function setup() {
    const listeners = new Set<(e: MessageEvent) => void>()
    const popup: PopupWindow = { closed: false, close: vi.fn(() => void (popup.closed = true)), location: { href: '' } }
    const host: PopupHost = {
      open: vi.fn(() => popup),
      addEventListener: (_t, l) => void listeners.add(l),
      removeEventListener: (_t, l) => void listeners.delete(l),
      location: { origin: 'http://app.test' },
    }
    const post = (data: unknown, origin = 'http://idp.test', source: unknown = popup) =>
      [...listeners].forEach((l) => l({ data, origin, source } as MessageEvent))
    const watch = watchPopup<string>(host, popup, {
      origin: 'http://idp.test',
      accept: (d) => {
        const m = d as { type?: string; code?: string; error?: string }
        if (m?.type !== 'answer') return undefined
        return m.error ? { error: new Error(m.error) } : { value: m.code! }
      },
      originMismatch: () => new Error('origin'),
      rejected: () => new Error('rejected'),
      timedOut: () => new Error('timeout'),
      timeoutMs: 1_000,
      pollMs: 100,
    })
    return { host, popup, post, watch, listeners }
  }

  it('opens inside the click, null when the browser refuses', () => {
    const { host, popup } = setup()
    expect(openPopup(host, 'name', 'popup')).toBe(popup)
    expect(openPopup({ open: () => { throw new Error('blocked') } }, 'name', 'popup')).toBeNull()
  })

  it("accepts only its popup's message from the expected origin, then closes it and stops listening", async () => {
    const { post, watch, popup, listeners } = setup()
    post({ type: 'answer', code: 'x' }, 'http://idp.test', {}) // another window: ignored
    post({ type: 'other' }) // not an answer: ignored
    post({ type: 'answer', code: 'abc' })
    await expect(watch.result).resolves.toBe('abc')
    expect(popup.close).toHaveBeenCalled()
    expect(listeners.size).toBe(0)
  })

  it('fails on another origin, on an error answer, on cancel', async () => {
    const a = setup()
    a.post({ type: 'answer', code: 'abc' }, 'http://evil.test')
    await expect(a.watch.result).rejects.toThrow('origin')
    const b = setup()
    b.post({ type: 'answer', error: 'denied' })
    await expect(b.watch.result).rejects.toThrow('denied')
    const c = setup()
    c.watch.cancel()
    await expect(c.watch.result).rejects.toThrow('rejected')
  })

  it('counts a closed window as rejected after one poll of grace, takes an answer posted in that poll, and times out', async () => {
    vi.useFakeTimers()
    const a = setup()
    a.popup.closed = true
    const gone = vi.fn()
    a.watch.result.catch(gone)
    await vi.advanceTimersByTimeAsync(100) // the first poll sees it closed: grace
    expect(gone).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(100)
    await expect(a.watch.result).rejects.toThrow('rejected')
    const late = setup()
    late.popup.closed = true
    vi.advanceTimersByTime(100)
    late.post({ type: 'answer', code: 'late' }) // posted just before the page closed itself
    await expect(late.watch.result).resolves.toBe('late')
    const b = setup()
    vi.advanceTimersByTime(1_000)
    await expect(b.watch.result).rejects.toThrow('timeout')
  })
})

describe('abortableSleep', () => {
  it('resolves after the time, and rejects with the reason when aborted before or during the wait', async () => {
    const { abortableSleep } = await import('./index')
    const started = performance.now()
    await abortableSleep(20)
    expect(performance.now() - started).toBeGreaterThanOrEqual(15)
    const before = new AbortController()
    before.abort(new Error('gone'))
    await expect(abortableSleep(10_000, before.signal)).rejects.toThrow('gone')
    const during = new AbortController()
    const waiting = abortableSleep(10_000, during.signal)
    during.abort(new Error('closed'))
    await expect(waiting).rejects.toThrow('closed')
  })
})
