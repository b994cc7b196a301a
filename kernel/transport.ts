/**
 * The API transport (part 1 section 7): base URL + `/api/v1`, the app-id / client-id /
 * analytics-id / version headers, the bearer token, cookies included, a 20 s time-out,
 * 3 retries at 500 ms tripled on 408 409 425 500 502 503 504, a dedicated abort error,
 * and server error bodies turned into `PorticoError` with the server's code.
 */
import { CLIENT_VERSION } from './config'
import { PorticoAbortError, PorticoError } from './errors'

export const API_PREFIX = '/api/v1'
export const REQUEST_TIMEOUT_MS = 20_000
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 500, 502, 503, 504]
export const RETRIES = 3
export const RETRY_BASE_DELAY_MS = 500
export const RETRY_FACTOR = 3

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** A request as it passes through the `request` hook (captcha, analytics headers ...). */
export interface ApiRequest {
  method: HttpMethod
  /** Path under /api/v1, e.g. '/passwordless/init'. */
  path: string
  body?: unknown
  headers: Record<string, string>
  /**
   * Bearer token handling: 'auto' adds the session's access token when there is one
   * (default), 'none' sends none, a string sends that token.
   */
  auth: 'auto' | 'none' | string
  signal?: AbortSignal
  /** Mark requests made by the modal itself (the `privy-ui` header). */
  fromUi?: boolean
}

export interface RequestOptions {
  headers?: Record<string, string>
  auth?: ApiRequest['auth']
  signal?: AbortSignal
  fromUi?: boolean
}

export interface Api {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>
  request<T = unknown>(request: Partial<ApiRequest> & Pick<ApiRequest, 'method' | 'path'>): Promise<T>
}

export interface TransportDeps {
  baseUrl: () => string
  appId: string
  clientId: () => string | null
  analyticsId: () => string
  /** The session's current access token (refreshing first when needed). */
  accessToken: () => Promise<string | null>
  /** The `request` hook's waterfall. */
  prepare: (req: ApiRequest) => Promise<ApiRequest>
  fetch?: typeof fetch
  /** Injectable for tests (fake timers work with the default). */
  sleep?: (ms: number) => Promise<void>
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Delay before retry number `attempt` (1-based): 500, 1500, 4500 ms. */
export const retryDelay = (attempt: number) => RETRY_BASE_DELAY_MS * RETRY_FACTOR ** (attempt - 1)

async function readError(res: Response): Promise<PorticoError> {
  let body: any = null
  try {
    body = await res.json()
  } catch {
    /* not JSON */
  }
  const code = typeof body?.code === 'string' ? body.code : statusCode(res.status)
  const message =
    (typeof body?.error === 'string' && body.error) ||
    (typeof body?.message === 'string' && body.message) ||
    `Request failed with status ${res.status}`
  const data = body?.data && typeof body.data === 'object' ? body.data : undefined
  return new PorticoError(code, message, {
    kind: 'api_error',
    status: res.status,
    data,
    retryable: RETRY_STATUSES.includes(res.status),
  })
}

function statusCode(status: number): string {
  if (status === 401) return 'missing_or_invalid_token'
  if (status === 429) return 'too_many_requests'
  if (status === 408) return 'client_request_timeout'
  if (status === 400 || status === 422) return 'invalid_data'
  if (status === 404) return 'not_found'
  return 'unknown_auth_error'
}

export function createTransport(deps: TransportDeps): Api {
  const sleep = deps.sleep ?? defaultSleep
  const doFetch = (...a: Parameters<typeof fetch>) => (deps.fetch ?? globalThis.fetch)(...a)

  /** One attempt: resolves to a Response, or throws a PorticoError (timeout, abort, network). */
  async function attempt(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    if (signal?.aborted) throw new PorticoAbortError(signal.reason)
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, REQUEST_TIMEOUT_MS)
    const onAbort = () => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await doFetch(url, { ...init, signal: controller.signal })
    } catch (e) {
      if (timedOut) throw new PorticoError('client_request_timeout', 'Request timeout', { kind: 'api_error', cause: e, retryable: true })
      if (signal?.aborted) throw new PorticoAbortError(signal.reason ?? e)
      throw new PorticoError('network_error', 'Could not reach the server. Check your connection and try again.', {
        kind: 'api_error',
        cause: e,
        retryable: true,
      })
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }

  async function request<T>(partial: Partial<ApiRequest> & Pick<ApiRequest, 'method' | 'path'>): Promise<T> {
    let req: ApiRequest = { auth: 'auto', ...partial, headers: { ...(partial.headers ?? {}) } }
    req = await deps.prepare(req)

    const headers: Record<string, string> = {
      accept: 'application/json',
      'privy-app-id': deps.appId,
      'privy-ca-id': deps.analyticsId(),
      'privy-client': `portico-js:${CLIENT_VERSION}`,
    }
    const clientId = deps.clientId()
    if (clientId) headers['privy-client-id'] = clientId
    if (req.fromUi) headers['privy-ui'] = 't'
    const token = req.auth === 'none' ? null : req.auth === 'auto' ? await deps.accessToken() : req.auth
    if (token) headers.authorization = `Bearer ${token}`
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    Object.assign(headers, req.headers)

    const init: RequestInit = {
      method: req.method,
      headers,
      credentials: 'include',
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    }
    const url = `${deps.baseUrl()}${API_PREFIX}${req.path}`

    for (let n = 0; ; n++) {
      // Only the listed statuses retry: a time-out, a network failure or an abort ends here.
      const res = await attempt(url, init, req.signal)
      if (res.ok) {
        if (res.status === 204) return undefined as T
        const text = await res.text()
        if (!text) return undefined as T
        try {
          return JSON.parse(text) as T
        } catch (e) {
          throw new PorticoError('invalid_response', 'The server sent a response that could not be read.', {
            kind: 'api_error',
            status: res.status,
            cause: e,
          })
        }
      }
      if (RETRY_STATUSES.includes(res.status) && n < RETRIES) {
        await res.body?.cancel().catch(() => {})
        await sleepOrAbort(retryDelay(n + 1), req.signal)
        continue
      }
      throw await readError(res)
    }
  }

  async function sleepOrAbort(ms: number, signal?: AbortSignal) {
    if (signal?.aborted) throw new PorticoAbortError(signal.reason)
    await sleep(ms)
    if (signal?.aborted) throw new PorticoAbortError(signal.reason)
  }

  return {
    request,
    get: (path, o = {}) => request({ method: 'GET', path, ...o }),
    post: (path, body, o = {}) => request({ method: 'POST', path, body: body ?? {}, ...o }),
  }
}
