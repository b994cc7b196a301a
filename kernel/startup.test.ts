/** Start-up (./startup.ts): retries while the API is unreachable, wakes, permanent failures. */
import { describe, expect, it, vi } from 'vitest'
import { TEST_APP_ID } from '../test/kit/index'
import { createFetchDouble } from '../test/kit/fetch-double'
import { createPortico, memoryStorage } from './index'

describe('start-up resilience', () => {
  it('keeps retrying while the API is unreachable, reports it, and is ready without a reload', async () => {
    const net = createFetchDouble()
    let up = false
    net.on('GET', '/apps/:id', () => (up ? { id: TEST_APP_ID, name: 'ok', login_methods: ['email'] } : { status: 503, body: { code: 'unavailable', error: 'down' } }))
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'no' } })
    const listeners = new Map<string, () => void>()
    const wakeTarget = { addEventListener: (t: string, l: () => void) => listeners.set(t, l), removeEventListener: (t: string) => listeners.delete(t) }
    const kernel = createPortico(
      { appId: TEST_APP_ID, apiUrl: 'http://portico.test', storage: memoryStorage(), fetch: net.fetch },
      { locks: null, channel: null, sleep: async () => {}, location: null, wakeTarget, retryDelay: () => 60_000 },
    )
    const statuses: string[] = []
    kernel.events.on('status', (s) => statuses.push(s.status))
    const errors: string[] = []
    kernel.events.on('error', (e) => errors.push(e.code))
    const ready = kernel.ready()
    await vi.waitFor(() => expect(kernel.status).toBe('retrying'))
    expect(kernel.lastError?.code).toBe('api_unreachable')
    expect(errors).toEqual(['api_unreachable'])
    // The browser comes back online: the waiting retry runs at once (not after 60 s).
    up = true
    listeners.get('online')!()
    await ready
    expect(kernel.isReady).toBe(true)
    expect(kernel.lastError).toBeNull()
    expect(statuses).toEqual(['loading', 'retrying', 'ready'])
    kernel.destroy()
  })

  it('retryReady() wakes a waiting retry; a permanent failure rejects at once', async () => {
    const net = createFetchDouble()
    let reply: unknown = { status: 502, body: { code: 'bad_gateway', error: 'proxy' } }
    net.on('GET', '/apps/:id', () => reply)
    net.on('POST', '/sessions', { status: 401, body: { code: 'missing_or_invalid_token', error: 'no' } })
    const kernel = createPortico(
      { appId: TEST_APP_ID, apiUrl: 'http://portico.test', storage: memoryStorage(), fetch: net.fetch },
      { locks: null, channel: null, sleep: async () => {}, location: null, wakeTarget: null, retryDelay: () => 60_000 },
    )
    const ready = kernel.ready()
    await vi.waitFor(() => expect(kernel.status).toBe('retrying'))
    reply = { status: 404, body: { code: 'missing_or_invalid_privy_app_id', error: 'Unknown app' } }
    kernel.retryReady()
    await expect(ready).rejects.toMatchObject({ code: 'missing_or_invalid_privy_app_id' })
    expect(kernel.status).toBe('failed')
    kernel.destroy()
  })
})
