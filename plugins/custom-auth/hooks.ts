import { useCallback, useEffect, useSyncExternalStore } from 'react'
import { useKernel } from 'portico/ui'
import { customAuthOf, type CustomAuthOptions, type CustomAuthState } from './flow'

/**
 * Custom auth state and `sync()`. Pass `{ getCustomAccessToken, isLoading }` to keep them in
 * step with the host's auth: when they change (a new token getter, loading finished) the
 * plugin re-syncs.
 */
export function useCustomAuth(options?: CustomAuthOptions) {
  const auth = customAuthOf(useKernel())
  const state: CustomAuthState = useSyncExternalStore(auth.subscribe, auth.getState, auth.getState)
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
