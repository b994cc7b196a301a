/**
 * The provider app's /oauth/transact page (render it at that path of the provider app, inside
 * its <PorticoProvider>). It reads `token` (the requester's state) and `request`, asks the
 * logged-in provider user to consent, gets a one-time code (POST /cross-app/authorize) and
 * posts it to the opener — only to the origin the server confirmed for the requester — then
 * closes. Declining posts `error: 'rejected'`.
 */
import { useState } from 'react'
import { Button, ScreenLayout, useKernel, useLogin, useTexts, useUser } from 'portico/ui/screens'
import { authorizeCrossApp } from '../calls'
import { CROSS_APP } from '../errors'
import { CROSS_APP_RESPONSE, decodeRequest } from '../popup'
import { CROSS_APP_TEXTS } from '../strings'

export default function CrossAppTransactPage({ providerName, search }: { providerName: string; search: string }) {
  const kernel = useKernel()
  const T = useTexts(CROSS_APP, CROSS_APP_TEXTS)
  const { user } = useUser()
  const { login } = useLogin()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const q = new URLSearchParams(search)
  const state = q.get('token')
  const request = decodeRequest(q.get('request') ?? '')
  const opener = typeof window === 'undefined' ? null : window.opener
  const fill = (s: string) => s.replace('{app}', request?.name ?? '').replace('{provider}', providerName)

  if (!state || !request || !opener) return <p className="portico-error" role="alert">{T.unexpectedFlow}</p>

  const allow = async () => {
    setBusy(true)
    try {
      const r = await authorizeCrossApp(kernel.api, { requester_app_id: request.appId, code_challenge: request.code_challenge, origin: request.origin, action: request.action })
      opener.postMessage({ type: CROSS_APP_RESPONSE, state, code: r.code }, r.origin)
      window.close()
    } catch (e) {
      setBusy(false)
      setError((e as Error).message)
    }
  }
  const deny = () => {
    opener.postMessage({ type: CROSS_APP_RESPONSE, state, error: 'rejected' }, request.origin)
    window.close()
  }

  return (
    <div className="portico-transact" data-testid="cross-app-transact">
      <ScreenLayout back={false} close={false} title={fill(T.consentTitle)} description={user ? fill(T.consentBody) : fill(T.loginFirst)}>
        {error && (
          <p className="portico-error" role="alert">
            {error}
          </p>
        )}
        <div className="portico-actions">
          {user ? (
            <Button onClick={() => void allow()} loading={busy}>
              {T.allow}
            </Button>
          ) : (
            <Button onClick={() => void login()}>{T.logIn}</Button>
          )}
          <Button variant="secondary" onClick={deny}>
            {T.deny}
          </Button>
        </div>
      </ScreenLayout>
    </div>
  )
}
