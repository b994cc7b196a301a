/**
 * The device share, kept in the frame's store (storage.ts: this origin's IndexedDB, never the
 * host page's; memory when storage is blocked), encrypted under a non-extractable AES-GCM key
 * that is itself kept there (a CryptoKey is stored as a handle: script cannot read its bytes).
 */
import { open as openSealed, randomKey, seal } from './seal'
import { frameStore } from './storage'

const shareKey = (appId: string, entropyId: string) => `${appId}:${entropyId.toLowerCase()}`
const context = (appId: string, entropyId: string) => `portico device share v1|${appId}|${entropyId.toLowerCase()}`

async function deviceKey(): Promise<CryptoKey> {
  const s = frameStore()
  const existing = await s.get<CryptoKey>('keys', 'device')
  if (existing) return existing
  const key = await randomKey(false)
  await s.put('keys', 'device', key)
  // Two tabs may race: read back whichever was stored.
  return (await s.get<CryptoKey>('keys', 'device')) ?? key
}

export async function saveDeviceShare(appId: string, entropyId: string, share: Uint8Array): Promise<void> {
  const sealed = await seal(share, await deviceKey(), context(appId, entropyId))
  await frameStore().put('device-shares', shareKey(appId, entropyId), sealed)
}

/** The device share, or null when this device has none (or it cannot be opened). */
export async function loadDeviceShare(appId: string, entropyId: string): Promise<Uint8Array | null> {
  const sealed = await frameStore().get<string>('device-shares', shareKey(appId, entropyId))
  if (!sealed) return null
  try {
    return await openSealed(sealed, await deviceKey(), context(appId, entropyId))
  } catch {
    return null
  }
}

export async function deleteDeviceShare(appId: string, entropyId: string): Promise<void> {
  await frameStore().delete('device-shares', shareKey(appId, entropyId))
}
