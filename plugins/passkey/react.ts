import { useCallback, useMemo } from 'react'
import { usePlugin, useStore, useUser } from 'portico/ui'
import { MAX_PASSKEYS, passkeysOf, type PasskeyState } from './state'

/**
 * Headless passkeys: `signUpWithPasskey()`, `loginWithPasskey()`, `linkPasskey()`,
 * `unlinkPasskey(credentialId)`, the user's `passkeys` and whether another may be added.
 */
export function usePasskeys() {
  const api = usePlugin('passkey')
  const state: PasskeyState = useStore(api.state)
  const { user } = useUser()
  const passkeys = useMemo(() => passkeysOf(user), [user])
  const signUpWithPasskey = useCallback(() => api.signUp(), [api])
  const loginWithPasskey = useCallback(() => api.logIn(), [api])
  const linkPasskey = useCallback(() => api.link(), [api])
  const unlinkPasskey = useCallback((credentialId: string) => api.unlink(credentialId), [api])
  return { state, passkeys, canAddPasskey: passkeys.length < MAX_PASSKEYS, supported: api.supported(), signUpWithPasskey, loginWithPasskey, linkPasskey, unlinkPasskey }
}
