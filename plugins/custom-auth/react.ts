import { useCallback, useEffect } from 'react'
import { usePlugin, useStore } from 'portico/ui'
import type { CustomAuthOptions, CustomAuthState } from './flow'

/**
 * Custom auth state and `sync()`. Pass `{ getCustomAccessToken, isLoading }` to keep them in
 * step with the host's auth: when they change (a new token getter, loading finished) the
 * plugin re-syncs.
 */
export function useCustomAuth(options?: CustomAuthOptions) {
  const auth = usePlugin('custom-auth')
  const state: CustomAuthState = useStore(auth.state)
  const getter = options?.getCustomAccessToken
  const isLoading = options?.isLoading
  useEffect(() => {
    if (getter !== undefined || isLoading !== undefined) {
      auth.setOptions({ ...(getter ? { getCustomAccessToken: getter } : {}), ...(isLoading !== undefined ? { isLoading } : {}) })
    }
  }, [auth, getter, isLoading])
  const sync = useCallback(() => auth.sync(), [auth])
  return { status: state.status, error: state.error, sync }
}
