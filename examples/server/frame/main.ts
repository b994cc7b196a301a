/**
 * The wallet frame page's entry (bundled by the reference server, served from the wallet
 * service's own origin under a strict CSP). It answers requests of the frame protocol from
 * its parent window only, and only when the parent's origin is one of the app's allowed
 * origins; everything else is ignored without a reply.
 */
import { FRAME_PROTOCOL, isFrameRequest, type FrameReplyMessage } from '../src/wire/frame'
import { FRAME_TEXTS, FrameFailure, createApi, type FrameConfig, type FrameContext } from './context'
import { accepts } from './guard'
import { handlerFor } from './handlers/index'
import { register } from './handlers/registry'
import { STORAGE_TEXTS, checkStorage, isStorageError, resilientStore, storageMode } from './storage-check'
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
  if (!isFrameRequest(event.data)) return
  const { id, type, payload } = event.data
  const origin = event.origin
  const reply = (m: FrameReplyMessage) => (event.source as Window).postMessage(m, origin)
  const handler = handlerFor(type)
  if (!handler) {
    reply({ protocol: FRAME_PROTOCOL, id, error: { type: 'invalid_request_arguments', message: `${FRAME_TEXTS.unknownType}: ${String(type)}` } })
    return
  }
  const ctx: FrameContext = { config, origin, api }
  storageChecked
    .then(() => handler((payload ?? {}) as never, ctx))
    .then(
      (data) => reply({ protocol: FRAME_PROTOCOL, id, data }),
      (err: unknown) => {
        const e = err instanceof FrameFailure ? err : null
        reply({
          protocol: FRAME_PROTOCOL,
          id,
          error: e
            ? { type: e.type, message: e.message }
            : isStorageError(err)
              ? { type: 'storage_unavailable', message: STORAGE_TEXTS.unavailable }
              : { type: err instanceof RangeError ? 'invalid_request_arguments' : 'error', message: (err as Error)?.message || 'An error has occurred, please try again.' },
        })
      },
    )
})

// `ready` answers from the registry like any request.
register('ready', async () => ({ version: 1, storage: storageMode() }))
