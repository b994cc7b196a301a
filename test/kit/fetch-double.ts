/**
 * A transport double at the fetch boundary: routes answer with JSON like the reference
 * server would, every call is recorded. Nothing above fetch is faked.
 */
export interface RecordedCall {
  method: string
  /** Path under /api/v1 (or the full path when outside it). */
  path: string
  url: string
  headers: Record<string, string>
  body: any
}

export interface RouteReply {
  status?: number
  body?: unknown
  /** Raw text body instead of JSON (to test unreadable responses). */
  text?: string
  headers?: Record<string, string>
}

export type RouteHandler = (call: RecordedCall) => RouteReply | Promise<RouteReply> | unknown

export interface FetchDouble {
  fetch: typeof fetch
  calls: RecordedCall[]
  /** Answer `METHOD path` (path under /api/v1; `:param` segments match anything). Later routes win.
   *  `handler` is a function, a reply ({status, body}) or a plain JSON body (200). */
  on(method: string, path: string | RegExp, handler: RouteHandler | RouteReply | object): FetchDouble
  /** Calls to one route. */
  callsTo(method: string, path: string | RegExp): RecordedCall[]
  reset(): void
}

const isReply = (v: unknown): v is RouteReply =>
  !!v && typeof v === 'object' && ('status' in v || 'body' in v || 'text' in v)

function matcher(path: string | RegExp): (p: string) => boolean {
  if (path instanceof RegExp) return (p) => path.test(p)
  const re = new RegExp('^' + path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-zA-Z_]+/g, '[^/]+') + '$')
  return (p) => re.test(p)
}

export function createFetchDouble(): FetchDouble {
  const routes: { method: string; match: (p: string) => boolean; handler: RouteHandler | RouteReply | object }[] = []
  const calls: RecordedCall[] = []

  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const signal = init.signal
    if (signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
    const u = new URL(url, 'http://localhost')
    const path = u.pathname.startsWith('/api/v1') ? u.pathname.slice('/api/v1'.length) : u.pathname
    const headers: Record<string, string> = {}
    new Headers(init.headers).forEach((v, k) => (headers[k] = v))
    let body: any = undefined
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body)
      } catch {
        body = init.body
      }
    }
    const method = (init.method ?? 'GET').toUpperCase()
    const call: RecordedCall = { method, path: path + u.search, url, headers, body }
    calls.push(call)
    const route = [...routes].reverse().find((r) => r.method === method && r.match(path))
    const work = (async () => {
      if (!route) return { status: 404, body: { code: 'not_found', error: `No test route for ${method} ${path}` } }
      const out = typeof route.handler === "function" ? await (route.handler as RouteHandler)(call) : route.handler
      return isReply(out) ? out : { status: 200, body: out }
    })()
    // Honour aborts while a handler is pending (time-out tests).
    const reply = await new Promise<RouteReply>((resolve, reject) => {
      const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'))
      signal?.addEventListener('abort', onAbort, { once: true })
      work.then(resolve, reject).finally(() => signal?.removeEventListener('abort', onAbort))
    })
    const status = reply.status ?? 200
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body))
    return new Response(status === 204 ? null : text, {
      status,
      headers: { 'content-type': 'application/json', ...(reply.headers ?? {}) },
    })
  }

  const double: FetchDouble = {
    fetch: fetchImpl as typeof fetch,
    calls,
    on(method, path, handler) {
      routes.push({ method: method.toUpperCase(), match: matcher(path), handler })
      return double
    },
    callsTo(method, path) {
      const m = matcher(path)
      return calls.filter((c) => c.method === method.toUpperCase() && m(c.path.split('?')[0]))
    },
    reset() {
      calls.length = 0
    },
  }
  return double
}
