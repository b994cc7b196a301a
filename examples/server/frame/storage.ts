/**
 * Where the wallet frame keeps what must outlive a page: its device key and its device shares.
 * IndexedDB of the frame's own origin when the browser grants it; a memory store otherwise
 * (third-party storage blocked or partitioned, or Node in tests): the wallet then works for the
 * page session only. CryptoKeys are stored as handles (structured clone), never as bytes.
 */
export type StoreName = 'keys' | 'device-shares'

export interface FrameStore {
  readonly kind: 'indexeddb' | 'memory'
  get<T>(store: StoreName, key: string): Promise<T | undefined>
  put(store: StoreName, key: string, value: unknown): Promise<void>
  delete(store: StoreName, key: string): Promise<void>
}

const DB = 'portico-wallet'
const VERSION = 1
const STORES: StoreName[] = ['keys', 'device-shares']

function db(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(DB, VERSION)
    req.onupgradeneeded = () => {
      const d = req.result
      for (const s of STORES) if (!d.objectStoreNames.contains(s)) d.createObjectStore(s)
    }
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
    req.onblocked = () => reject(new Error('blocked'))
  })
}

function run<T>(factory: IDBFactory, store: StoreName, mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest): Promise<T> {
  return db(factory).then(
    (d) =>
      new Promise<T>((resolve, reject) => {
        const tx = d.transaction(store, mode)
        const req = fn(tx.objectStore(store))
        tx.oncomplete = () => {
          d.close()
          resolve(req.result as T)
        }
        tx.onerror = tx.onabort = () => {
          d.close()
          reject(tx.error ?? req.error)
        }
      }),
  )
}

/** IndexedDB through `factory`: the page's own, or the one a Storage Access handle gives (`handle.indexedDB`). */
export function indexedDbStore(factory: IDBFactory = indexedDB): FrameStore {
  return {
    kind: 'indexeddb',
    get: (store, key) => run(factory, store, 'readonly', (s) => s.get(key)),
    put: async (store, key, value) => {
      await run(factory, store, 'readwrite', (s) => s.put(value, key))
    },
    delete: async (store, key) => {
      await run(factory, store, 'readwrite', (s) => s.delete(key))
    },
  }
}

export function memoryStore(): FrameStore {
  const maps = new Map<StoreName, Map<string, unknown>>(STORES.map((s) => [s, new Map()]))
  return {
    kind: 'memory',
    get: async (store, key) => maps.get(store)!.get(key) as never,
    put: async (store, key, value) => {
      maps.get(store)!.set(key, value)
    },
    delete: async (store, key) => {
      maps.get(store)!.delete(key)
    },
  }
}

let current: FrameStore | null = null

/** The frame's store: IndexedDB where it exists, else memory (until `useFrameStore` picks another). */
export function frameStore(): FrameStore {
  if (!current) current = typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore()
  return current
}

/** Chooses the store (the storage check at start-up; tests). */
export function useFrameStore(store: FrameStore): void {
  current = store
}
