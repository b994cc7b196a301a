/**
 * The frame's storage check at start-up (issue 26, 'Storage blocked or partitioned').
 *
 * A frame on another site than the page (the demo at localhost with the frame on 127.0.0.1;
 * Chrome with third-party cookies blocked, incognito, Brave, Edge strict) may find its
 * IndexedDB refused ('The user denied permission to access the database.') or partitioned.
 * So before any wallet work the frame:
 * 1. writes, reads back and deletes a value in its IndexedDB (with a time-out): works →
 *    persistent storage;
 * 2. else, where the browser offers the Storage Access API and the user already allowed this
 *    frame on this site (`storage-access` permission 'granted'), asks for it without a gesture
 *    (`document.requestStorageAccess({ indexedDB: true })`, Chromium's handle; other browsers
 *    open their unpartitioned storage to the page's own `indexedDB`) and checks that the same
 *    way. The frame is hidden, so it has no user gesture of its own: a 'prompt' state is left
 *    alone (a refused request may count against the site);
 * 3. else keeps everything in memory: the wallet works for the page session ('session'), and
 *    the device share is obtained again through recovery on the next page load.
 *
 * `resilientStore` wraps whichever store won: when a write fails later (quota, the user
 * clearing site data, a browser changing its mind) the value stays in memory and the frame
 * turns session-only, so a wallet whose shares the server already holds is never lost on this
 * device; a read of something this page never saw becomes `storage_unavailable` with a clear
 * text, never the raw IndexedDB message.
 */
import type { FrameStorage } from '../src/wire/frame'
import { FrameFailure } from './context'
import { frameStore, indexedDbStore, memoryStore, type FrameStore } from './storage'

/**
 * How long the IndexedDB check, and then the Storage Access steps together, may take (an
 * IndexedDB open can hang: some private modes; Chromium's Storage Access handle here).
 */
export const PROBE_TIMEOUT_MS = 3000

export const STORAGE_TEXTS = {
  unavailable: 'This browser doesn’t let the wallet use its storage on this site, so this can’t be done here. Please try another browser.',
} as const

/** What the Storage Access API offers (Chromium: a handle with `indexedDB`; others: nothing). */
export interface StorageAccessDocument {
  hasStorageAccess?(): Promise<boolean>
  requestStorageAccess?(types?: { indexedDB?: boolean }): Promise<{ indexedDB?: IDBFactory } | undefined | void>
}

export interface StorageEnv {
  /** The page's IndexedDB (undefined in Node). */
  indexedDB?: IDBFactory
  document?: StorageAccessDocument
  permissions?: { query(descriptor: { name: string }): Promise<{ state: string }> }
  /** The store over an IndexedDB factory (default `indexedDbStore`). */
  storeFor?: (factory: IDBFactory) => FrameStore
  timeoutMs?: number
}

export interface StorageCheck {
  store: FrameStore
  storage: FrameStorage
  /** Which way was found: the page's IndexedDB, a Storage Access grant, or memory. */
  via: 'indexeddb' | 'storage-access' | 'memory'
}

const TIMED_OUT = Symbol('timed out')
function within<T>(p: Promise<T> | undefined, ms: number): Promise<T | typeof TIMED_OUT> {
  if (!p) return Promise.resolve(TIMED_OUT)
  let timer: ReturnType<typeof setTimeout> | undefined
  const t = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms)
  })
  return Promise.race([p, t]).finally(() => clearTimeout(timer))
}

/** A real round trip: write a random value, read it back, delete it. Any error or time-out: false. */
export async function probe(store: FrameStore, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const value = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')
  const key = `storage-probe:${value}`
  const trip = (async () => {
    await store.put('keys', key, value)
    const back = await store.get<string>('keys', key)
    await store.delete('keys', key)
    return back === value
  })()
  const r = await within(
    trip.catch(() => false),
    timeoutMs,
  )
  return r === true
}

/** An IndexedDB the Storage Access API opens without a gesture (permission granted before), or null. */
async function storageAccess(env: StorageEnv, timeoutMs: number): Promise<IDBFactory | null> {
  const doc = env.document
  if (!doc || typeof doc.requestStorageAccess !== 'function' || !env.permissions) return null
  try {
    const status = await within(env.permissions.query({ name: 'storage-access' }), timeoutMs)
    if (status === TIMED_OUT || status.state !== 'granted') return null
    const handle = await within(doc.requestStorageAccess({ indexedDB: true }), timeoutMs)
    if (handle === TIMED_OUT) return null
    return (handle && handle.indexedDB) || env.indexedDB || null
  } catch {
    return null
  }
}

/** The storage check: persistent IndexedDB, IndexedDB through Storage Access, or memory (session). */
export async function checkStorage(env: StorageEnv): Promise<StorageCheck> {
  const storeFor = env.storeFor ?? indexedDbStore
  const t = env.timeoutMs ?? PROBE_TIMEOUT_MS
  if (env.indexedDB) {
    const s = storeFor(env.indexedDB)
    if (await probe(s, t)) return { store: s, storage: 'persistent', via: 'indexeddb' }
  }
  // The Storage Access steps share one time budget: the frame answers `ready` within ~2 × t.
  const viaGrant = (async () => {
    const granted = await storageAccess(env, t)
    if (!granted) return null
    const s = storeFor(granted)
    return (await probe(s, t)) ? s : null
  })()
  const granted = await within(viaGrant, t)
  if (granted && granted !== TIMED_OUT) return { store: granted, storage: 'persistent', via: 'storage-access' }
  return { store: memoryStore(), storage: 'session', via: 'memory' }
}

/**
 * `primary` with a memory copy of what this page wrote or read. A failed write keeps the value
 * in memory and turns the store session-only (`kind: 'memory'`); a failed read answers from
 * that copy, or fails with `storage_unavailable` when this page never saw the value.
 */
export function resilientStore(primary: FrameStore): FrameStore {
  const copy = memoryStore()
  let failed = primary.kind === 'memory'
  return {
    get kind() {
      return failed ? 'memory' : primary.kind
    },
    async get<T>(store: Parameters<FrameStore['get']>[0], key: string): Promise<T | undefined> {
      if (failed) return copy.get<T>(store, key)
      try {
        const v = await primary.get<T>(store, key)
        if (v === undefined) await copy.delete(store, key)
        else await copy.put(store, key, v)
        return v
      } catch {
        failed = true
        const v = await copy.get<T>(store, key)
        if (v === undefined) throw new FrameFailure('storage_unavailable', STORAGE_TEXTS.unavailable)
        return v
      }
    },
    async put(store, key, value) {
      await copy.put(store, key, value)
      if (failed) return
      try {
        await primary.put(store, key, value)
      } catch {
        // Kept for the page session: the wallet goes on working here, and the next page load
        // obtains its share again through recovery.
        failed = true
      }
    },
    async delete(store, key) {
      await copy.delete(store, key)
      if (failed) return
      try {
        await primary.delete(store, key)
      } catch {
        failed = true
      }
    },
  }
}

/** Whether what the frame keeps outlives the page ('persistent') or the tab only ('session'). */
export function storageMode(): FrameStorage {
  return frameStore().kind === 'memory' ? 'session' : 'persistent'
}

/** An error of the browser's storage (it escaped a store): never shown as is. */
export function isStorageError(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false
  const { name, message } = e as { name?: unknown; message?: unknown }
  return (
    name === 'QuotaExceededError' ||
    (typeof message === 'string' && /indexeddb|the database|storage/i.test(message) && typeof DOMException !== 'undefined' && e instanceof DOMException)
  )
}
