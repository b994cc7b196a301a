/**
 * A wallet frame's device for HTTP-level tests (issue 26): its own store (device key, device
 * shares), a proof on every call (the frame's own device-key.ts), and a FrameContext for
 * running the frame's handlers in Node (frame/context.ts createApi).
 */
import { createApi, type FrameContext } from '../frame/context'
import { deviceKey, proof } from '../frame/device-key'
import { memoryStore, useFrameStore, type FrameStore } from '../frame/storage'
import { DEVICE_PROOF_HEADER } from '../src/wire/custody'
import { DEMO, type Res, type TestServer } from './helpers'

export interface TestDevice {
  store: FrameStore
  /** Its id (the key's thumbprint). */
  id(): Promise<string>
  /** POST `path` (with /api/v1) with `token` and a device proof (a fresh nonce each time). */
  call<T = any>(path: string, token: string | null, body: unknown, opts?: { headers?: Record<string, string>; sign?: (nonce: string, deviceId: string) => Promise<Record<string, unknown>> }): Promise<Res<T>>
  /** The frame's context for handlers (makes this device's store the frame's store). */
  ctx(): FrameContext
  /** Makes this device's store the frame's store (before running frame code). */
  use(): void
}

export function testDevice(s: TestServer, appId = DEMO): TestDevice {
  const store = memoryStore()
  const config = { appId, apiUrl: s.url, allowedOrigins: [] }
  const api = createApi(config, { store })
  return {
    store,
    id: async () => (await deviceKey(appId, store)).id,
    async call(path, token, body, opts = {}) {
      const headers = opts.headers ?? {}
      if (!token) return s.call(path, { token, body, appId, headers })
      const n = await s.call('/api/v1/wallets/device_nonce', { token, body: {}, appId })
      const eid = body && typeof body === 'object' && typeof (body as { entropy_id?: unknown }).entropy_id === 'string' ? (body as { entropy_id: string }).entropy_id : null
      const key = await deviceKey(appId, store)
      const nonce = n.body.nonce ?? 'none'
      const p = await proof(key, { htm: 'POST', htu: path.replace(/^\/api\/v1/, ''), accessToken: token, entropyId: eid, nonce })
      const sent = opts.sign ? { ...(body as object), ...(await opts.sign(nonce, key.id)) } : body
      return s.call(path, { token, body: sent, appId, headers: { ...headers, [DEVICE_PROOF_HEADER]: p } })
    },
    ctx() {
      useFrameStore(store)
      return { config, origin: 'http://localhost:5173', api }
    },
    use: () => useFrameStore(store),
  }
}
