import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFetchDouble } from '../test/kit/fetch-double'
import { PorticoAbortError, PorticoError } from './errors'
import { RETRY_STATUSES, createTransport, retryDelay, type ApiRequest } from './transport'

const APP = 'portico-test-app-00000001'

function setup(opts: { token?: string | null; clientId?: string | null; prepare?: (r: ApiRequest) => Promise<ApiRequest> } = {}) {
  const net = createFetchDouble()
  const api = createTransport({
    baseUrl: () => 'http://api.test',
    appId: APP,
    clientId: () => opts.clientId ?? null,
    analyticsId: () => 'ca-123',
    accessToken: async () => opts.token ?? null,
    prepare: opts.prepare ?? (async (r) => r),
    fetch: net.fetch,
  })
  return { net, api }
}

describe('transport: headers and body', () => {
  it('sends the app, analytics and version headers, the bearer token and JSON to /api/v1', async () => {
    const { net, api } = setup({ token: 'tok-1', clientId: 'client-9' })
    net.on('POST', '/passwordless/init', { success: true })
    await expect(api.post('/passwordless/init', { email: 'a@b.co' })).resolves.toEqual({ success: true })
    const [call] = net.calls
    expect(call.url).toBe('http://api.test/api/v1/passwordless/init')
    expect(call.headers['privy-app-id']).toBe(APP)
    expect(call.headers['privy-client-id']).toBe('client-9')
    expect(call.headers['privy-ca-id']).toBe('ca-123')
    expect(call.headers['privy-client']).toBe('portico-js:1.99.1')
    expect(call.headers.authorization).toBe('Bearer tok-1')
    expect(call.headers['content-type']).toBe('application/json')
    expect(call.body).toEqual({ email: 'a@b.co' })
  })

  it('omits the client id and the bearer token when there is none, and honours auth: none', async () => {
    const { net, api } = setup({ token: 'tok-1' })
    net.on('GET', '/apps/:id', { id: APP })
    await api.get(`/apps/${APP}`, { auth: 'none' })
    expect(net.calls[0].headers).not.toHaveProperty('authorization')
    expect(net.calls[0].headers).not.toHaveProperty('privy-client-id')
  })

  it('includes cookies', async () => {
    let credentials: RequestCredentials | undefined
    const api = createTransport({
      baseUrl: () => '',
      appId: APP,
      clientId: () => null,
      analyticsId: () => 'x',
      accessToken: async () => null,
      prepare: async (r) => r,
      fetch: (async (_u: string, init: RequestInit) => {
        credentials = init.credentials
        return new Response('{}', { status: 200 })
      }) as typeof fetch,
    })
    await api.get('/x')
    expect(credentials).toBe('include')
  })

  it('lets the request hook add headers (captcha, analytics)', async () => {
    const { net, api } = setup({ prepare: async (r) => ({ ...r, headers: { ...r.headers, 'x-captcha': 'c1' } }) })
    net.on('GET', '/x', {})
    await api.get('/x')
    expect(net.calls[0].headers['x-captcha']).toBe('c1')
  })
})

describe('transport: errors', () => {
  it('turns a server error body into a PorticoError with the server code, message, status and data', async () => {
    const { net, api } = setup()
    net.on('POST', '/passwordless/link', {
      status: 400,
      body: { code: 'account_transfer_required', error: 'Transfer needed', data: { nonce: 'n1' } },
    })
    const err = (await api.post('/passwordless/link', {}).catch((e: PorticoError) => e)) as PorticoError
    expect(err).toBeInstanceOf(PorticoError)
    expect(err).toMatchObject({ code: 'account_transfer_required', message: 'Transfer needed', status: 400, kind: 'api_error' })
    expect(err.data).toEqual({ nonce: 'n1' })
  })

  it('maps a bodiless 401 and 429 to the spec codes', async () => {
    const { net, api } = setup()
    net.on('GET', '/a', { status: 401, text: 'nope' })
    net.on('GET', '/b', { status: 429, text: '' })
    await expect(api.get('/a')).rejects.toMatchObject({ code: 'missing_or_invalid_token', status: 401 })
    await expect(api.get('/b')).rejects.toMatchObject({ code: 'too_many_requests', status: 429 })
  })

  it('rejects an unreadable success body with invalid_response', async () => {
    const { net, api } = setup()
    net.on('GET', '/x', { status: 200, text: '<html>' })
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'invalid_response' })
  })

  it('turns a network failure into network_error without retrying', async () => {
    let n = 0
    const api = createTransport({
      baseUrl: () => '',
      appId: APP,
      clientId: () => null,
      analyticsId: () => 'x',
      accessToken: async () => null,
      prepare: async (r) => r,
      fetch: (async () => {
        n++
        throw new TypeError('fetch failed')
      }) as typeof fetch,
    })
    const err = (await api.get('/x').catch((e: PorticoError) => e)) as PorticoError
    expect(err).toMatchObject({ code: 'network_error', kind: 'api_error' })
    expect(err.cause).toBeInstanceOf(TypeError)
    expect(n).toBe(1)
  })
})

describe('transport: retries (3, from 500 ms, tripled, only on 408 409 425 500 502 503 504)', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('computes the delays 500, 1500, 4500 ms', () => {
    expect([1, 2, 3].map(retryDelay)).toEqual([500, 1500, 4500])
  })

  for (const status of RETRY_STATUSES) {
    it(`retries ${status} three times, then fails with the last error`, async () => {
      const { net, api } = setup()
      net.on('GET', '/x', { status, body: { code: 'unknown_auth_error', error: `status ${status}` } })
      const p = api.get('/x').catch((e) => e)
      await vi.advanceTimersByTimeAsync(500 + 1500 + 4500)
      const err = await p
      expect(net.calls).toHaveLength(4)
      expect(err).toMatchObject({ status, message: `status ${status}` })
    })
  }

  for (const status of [400, 401, 403, 404, 413, 422, 429, 501]) {
    it(`does not retry ${status}`, async () => {
      const { net, api } = setup()
      net.on('GET', '/x', { status, body: { code: 'invalid_data', error: 'no' } })
      await expect(api.get('/x')).rejects.toMatchObject({ status })
      expect(net.calls).toHaveLength(1)
    })
  }

  it('waits exactly 500 ms, then 1500 ms, then 4500 ms between attempts', async () => {
    const { net, api } = setup()
    let n = 0
    net.on('GET', '/x', () => (++n < 4 ? { status: 503, body: {} } : { ok: true }))
    const p = api.get('/x')
    await vi.advanceTimersByTimeAsync(0)
    expect(net.calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(499)
    expect(net.calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(net.calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1499)
    expect(net.calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(net.calls).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(4499)
    expect(net.calls).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(1)
    await expect(p).resolves.toEqual({ ok: true })
    expect(net.calls).toHaveLength(4)
  })

  it('times out after 20 s with client_request_timeout', async () => {
    const { net, api } = setup()
    net.on('GET', '/slow', () => new Promise(() => {}))
    const p = api.get('/slow').catch((e) => e)
    await vi.advanceTimersByTimeAsync(19_999)
    let settled = false
    void p.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const err = await p
    expect(err).toMatchObject({ code: 'client_request_timeout', message: 'Request timeout' })
    expect(net.calls).toHaveLength(1)
  })

  it('raises the dedicated abort error when the caller aborts, also during a retry wait', async () => {
    const { net, api } = setup()
    net.on('GET', '/slow', () => new Promise(() => {}))
    net.on('GET', '/flaky', { status: 503, body: {} })
    const c1 = new AbortController()
    const p1 = api.get('/slow', { signal: c1.signal }).catch((e) => e)
    c1.abort()
    const e1 = await p1
    expect(e1).toBeInstanceOf(PorticoAbortError)
    expect(e1).toMatchObject({ code: 'request_aborted', name: 'AbortError' })

    const c2 = new AbortController()
    const p2 = api.get('/flaky', { signal: c2.signal }).catch((e) => e)
    await vi.advanceTimersByTimeAsync(100)
    c2.abort()
    await vi.advanceTimersByTimeAsync(500)
    expect(await p2).toBeInstanceOf(PorticoAbortError)
    expect(net.callsTo('GET', '/flaky')).toHaveLength(1)

    const c3 = new AbortController()
    c3.abort()
    await expect(api.get('/slow', { signal: c3.signal })).rejects.toBeInstanceOf(PorticoAbortError)
  })
})
