/**
 * The pending authorization of redirect mode: verifier, state code, intent and sign-up mode,
 * kept in sessionStorage (it survives the full-page redirect and stays in this tab) under a
 * key scoped to the app and the provider plugin, read once (single use) and dropped after
 * 10 minutes (the server's state lifetime). Without sessionStorage the plugin's own storage.
 */
import type { Intent, PluginStorage } from 'portico'

export const PENDING_TTL_MS = 10 * 60_000

export interface PendingAuthorization {
  provider: string
  state: string
  verifier: string
  intent: Intent
  disableSignup: boolean
  createdAt: number
}

export interface PendingStore {
  save(p: PendingAuthorization): void
  /** Read and delete (single use); null when missing, unreadable or expired. */
  take(now?: number): PendingAuthorization | null
}

function sessionBacked(key: string): PluginStorage | null {
  try {
    const s = (globalThis as { sessionStorage?: Storage }).sessionStorage
    if (!s) return null
    const probe = `${key}:probe`
    s.setItem(probe, '1')
    s.removeItem(probe)
    return {
      get: (k) => s.getItem(`${key}:${k}`),
      set: (k, v) => (v === null ? s.removeItem(`${key}:${k}`) : s.setItem(`${key}:${k}`, v)),
    }
  } catch {
    return null
  }
}

export function createPendingStore(appId: string, pluginId: string, fallback: PluginStorage): PendingStore {
  const KEY = 'pending'
  const store = () => sessionBacked(`portico:${appId}:${pluginId}`) ?? fallback
  return {
    save(p) {
      store().set(KEY, JSON.stringify(p))
    },
    take(now = Date.now()) {
      const s = store()
      const raw = s.get(KEY)
      s.set(KEY, null)
      if (!raw) return null
      try {
        const p = JSON.parse(raw) as PendingAuthorization
        if (typeof p?.state !== 'string' || typeof p.verifier !== 'string' || now - p.createdAt > PENDING_TTL_MS) return null
        return p
      } catch {
        return null
      }
    },
  }
}
