/**
 * The last-used login method, per app and browser (part 1 section 2, the 'Recent' chip), and
 * the small never-throwing storage access the kernel's keyed records share (plugin storage).
 */
import type { TokenStorage } from './config'
import type { LoginMeta } from './plugin'

export interface RecentLogin {
  method: string
  walletClientType: string | null
  chainType: string | null
}

/** Read and write keys of a storage that may be unavailable (private mode, a sandboxed frame). */
export function safeStorage(storage: TokenStorage) {
  return {
    get(key: string): string | null {
      try {
        return storage.getItem(key)
      } catch {
        return null
      }
    },
    set(key: string, value: string | null | undefined): void {
      try {
        if (value) storage.setItem(key, value)
        else storage.removeItem(key)
      } catch {
        /* storage unavailable: nothing to remember */
      }
    },
  }
}

export interface RecentLogins {
  /** The last-used method, or null. */
  get(): RecentLogin | null
  /** Remember a finished login's method (the kernel checks the descriptor's `remembered`). */
  remember(meta: LoginMeta & { method: string }): void
}

export function createRecentLogins(storage: TokenStorage, appId: string): RecentLogins {
  const store = safeStorage(storage)
  const key = (name: string) => `portico:${appId}:recent-${name}`
  const keys = { method: key('login-method'), walletClientType: key('wallet-client-type'), chainType: key('chain-type') }
  return {
    get() {
      const method = store.get(keys.method)
      return method ? { method, walletClientType: store.get(keys.walletClientType), chainType: store.get(keys.chainType) } : null
    },
    remember(meta) {
      store.set(keys.method, meta.method)
      store.set(keys.walletClientType, meta.walletClientType)
      store.set(keys.chainType, meta.chainType)
    },
  }
}
