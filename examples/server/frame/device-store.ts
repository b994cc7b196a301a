/**
 * The device share, kept in this origin's IndexedDB (the wallet service's origin, never the
 * host page's), encrypted under a non-extractable AES-GCM key that is itself stored in
 * IndexedDB (a CryptoKey is stored as a handle: script cannot read its bytes).
 */
import { open as openSealed, randomKey, seal } from './seal'

const DB = 'portico-wallet'
const VERSION = 1
const KEYS = 'keys'
const SHARES = 'device-shares'

function db(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, VERSION)
    req.onupgradeneeded = () => {
      const d = req.result
      if (!d.objectStoreNames.contains(KEYS)) d.createObjectStore(KEYS)
      if (!d.objectStoreNames.contains(SHARES)) d.createObjectStore(SHARES)
    }
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

function run<T>(store: string, mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest): Promise<T> {
  return db().then(
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

const shareKey = (appId: string, entropyId: string) => `${appId}:${entropyId.toLowerCase()}`
const context = (appId: string, entropyId: string) => `portico device share v1|${appId}|${entropyId.toLowerCase()}`

async function deviceKey(): Promise<CryptoKey> {
  const existing = await run<CryptoKey | undefined>(KEYS, 'readonly', (s) => s.get('device'))
  if (existing) return existing
  const key = await randomKey(false)
  await run(KEYS, 'readwrite', (s) => s.put(key, 'device'))
  // Two tabs may race: read back whichever was stored.
  return (await run<CryptoKey | undefined>(KEYS, 'readonly', (s) => s.get('device'))) ?? key
}

export async function saveDeviceShare(appId: string, entropyId: string, share: Uint8Array): Promise<void> {
  const sealed = await seal(share, await deviceKey(), context(appId, entropyId))
  await run(SHARES, 'readwrite', (s) => s.put(sealed, shareKey(appId, entropyId)))
}

/** The device share, or null when this device has none (or it cannot be opened). */
export async function loadDeviceShare(appId: string, entropyId: string): Promise<Uint8Array | null> {
  const sealed = await run<string | undefined>(SHARES, 'readonly', (s) => s.get(shareKey(appId, entropyId)))
  if (!sealed) return null
  try {
    return await openSealed(sealed, await deviceKey(), context(appId, entropyId))
  } catch {
    return null
  }
}

export async function deleteDeviceShare(appId: string, entropyId: string): Promise<void> {
  await run(SHARES, 'readwrite', (s) => s.delete(shareKey(appId, entropyId)))
}
