/**
 * Demo controls for the sms, guest, custom-auth and account plugins: update / unlink the
 * phone, create a guest account, and a stand-in "host auth" that issues custom-auth tokens.
 */
import { useCallback, useState, useSyncExternalStore } from 'react'
import type { PorticoError } from 'portico'
import { usePortico } from 'portico/ui'
import { usePhoneAccount } from 'portico/plugins/sms'
import { useGuestAccounts } from 'portico/plugins/guest'
import { useCustomAuth } from 'portico/plugins/custom-auth'
import { hostAuth } from './host-auth'
import { ConfirmButton } from './confirm-button'

export function AccountExtras({ onResult }: { onResult: (text: string) => void }) {
  const { ready, authenticated, user, kernel } = usePortico()
  const phone = usePhoneAccount()
  const { createGuestAccount } = useGuestAccounts()
  const token = useSyncExternalStore(hostAuth.subscribe, hostAuth.token, () => null)
  // A new getter whenever the host's token changes: the plugin re-syncs.
  const getCustomAccessToken = useCallback(async () => token, [token])
  const custom = useCustomAuth({ getCustomAccessToken })
  const [hostUser, setHostUser] = useState('alice')
  const fail = (e: PorticoError) => onResult(`error: ${e.code}`)

  return (
    <section className="demo-actions" aria-label="More account actions" data-testid="account-extras">
      {authenticated ? (
        <>
          <button onClick={() => void phone.update().then((r) => (r.ok ? onResult('complete: update phone') : fail(r.error)))} disabled={!user?.phone}>
            Update phone
          </button>
          <ConfirmButton question="Unlink phone?" onConfirm={() => phone.unlink().then(() => onResult('complete: unlink phone'), fail)} disabled={!user?.phone}>
            Unlink phone
          </ConfirmButton>
        </>
      ) : (
        <button onClick={() => createGuestAccount().then(() => onResult('complete: guest'), fail)} disabled={!ready}>
          Create guest account
        </button>
      )}
      <span className="demo-host-auth">
        <label>
          Host user{' '}
          <input value={hostUser} onChange={(e) => setHostUser(e.target.value)} aria-label="Host user" size={10} />
        </label>{' '}
        {token ? (
          <button onClick={() => hostAuth.signOut()}>Sign out of host</button>
        ) : (
          <button onClick={() => hostAuth.signIn(kernel.config.apiUrl, hostUser).catch((e: Error) => onResult(`error: ${e.message}`))}>
            Sign in to host
          </button>
        )}{' '}
        <span data-testid="custom-auth-status">
          custom auth: {custom.status}
          {custom.error ? ` (${custom.error.message})` : ''}
        </span>
      </span>
    </section>
  )
}
