/**
 * `useSetWalletRecovery()`: set or change the embedded wallet's user-owned recovery (the
 * selection, or the password flow when it is the only method). Resolves with the flow's result
 * when the modal closes.
 */
import { useCallback } from 'react'
import { usePlugin } from 'portico/ui'
import type { RecoveryApi } from './index'
import type { UserOwnedMethod } from './machine'

declare module '../wallets' {
  interface EmbeddedWalletApi {
    /** User-owned recovery (set by `registerRecovery` in the plugin's setup). */
    recovery?: RecoveryApi
  }
}

export function useSetWalletRecovery() {
  const api = usePlugin('embedded-wallet')
  const setWalletRecovery = useCallback(
    (options?: { options?: UserOwnedMethod[] }) => {
      if (!api.recovery) return Promise.reject(new Error('Recovery is not available: the embedded-wallet plugin is not set up.'))
      return api.recovery.setWalletRecovery(options)
    },
    [api],
  )
  return { setWalletRecovery }
}
