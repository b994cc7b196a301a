/**
 * The wallet frame page's entry (bundled by the reference server, served from the wallet
 * service's own origin, and on the API's, under a strict CSP). It answers requests from its
 * parent window only, and only when the parent's origin is one of the app's allowed origins;
 * everything else is ignored without a reply. Requests come in the frame protocol's envelope
 * or the published client's (envelope.ts, one adapter for both).
 */
import { createApi, type FrameConfig, type FrameContext } from './context'
import { dispatch, readMessage, replyTo, toFrameError } from './envelope'
import { accepts } from './guard'
import { register } from './handlers/registry'
import { checkStorage, resilientStore, storageMode } from './storage-check'
import { memoryStore, useFrameStore } from './storage'

function readConfig(): FrameConfig {
  const el = document.getElementById('portico-frame-config')
  return JSON.parse(el?.textContent ?? '{}') as FrameConfig
}

const config = readConfig()
const api = createApi(config)

// The storage check runs once, before any request is answered (`ready` included, which
// reports its outcome to the host): IndexedDB, IndexedDB through Storage Access, or memory.
const storageChecked: Promise<void> = checkStorage({
  indexedDB: typeof indexedDB === 'undefined' ? undefined : indexedDB,
  document: document as never,
  permissions: typeof navigator !== 'undefined' && navigator.permissions ? (navigator.permissions as never) : undefined,
}).then(
  (r) => useFrameStore(resilientStore(r.store)),
  () => useFrameStore(resilientStore(memoryStore())),
)

window.addEventListener('message', (event: MessageEvent) => {
  if (!accepts(event, window.parent, window, config.allowedOrigins)) return
  // Either envelope (the frame's own, or the published client's JSON string): envelope.ts.
  const m = readMessage(event.data)
  if (!m) return
  const origin = event.origin
  const source = event.source as Window
  const ctx: FrameContext = { config, origin, api }
  storageChecked
    .then(() => dispatch(m, ctx))
    .then(
      (data) => source.postMessage(replyTo(m, { data }), origin),
      (err: unknown) => source.postMessage(replyTo(m, { error: toFrameError(err) }), origin),
    )
})

// `ready` answers from the registry like any request.
register('ready', async () => ({ version: 1, storage: storageMode() }))
