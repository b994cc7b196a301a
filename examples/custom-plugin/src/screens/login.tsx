/**
 * 'acme-id-login': waits for the Acme ID popup, exchanges the code for an id_token, logs in
 * with it, then hands over to `useCompleteLogin()` (terms consent, success, close). Opened
 * with `{ authorization }` from the landing row; without one (or after an error) it shows a
 * button that opens a new popup, inside the click.
 */
import { useEffect, useRef, useState } from 'react'
import { Button, ScreenLayout, StatusIcon, useCompleteLogin, useKernel, useScreen, type ScreenProps } from 'portico/ui'
import { authenticate, exchangeCode } from '../calls'
import { ACME_ID, acmeIdError } from '../errors'
import { beginAuthorization, SCREEN, type AcmeIdSettings } from '../flow'
import { AcmeIcon } from '../icon'
import type { Authorization } from '../popup'
import { ACME_ID_TEXTS as T } from '../strings'

type Status = 'idle' | 'waiting' | 'verifying' | 'success'

export default function AcmeIdLoginScreen({ params }: ScreenProps<{ authorization?: Authorization; settings: AcmeIdSettings }>) {
  const kernel = useKernel()
  const screen = useScreen()
  const complete = useCompleteLogin()
  const { authorization, settings } = params
  const [status, setStatus] = useState<Status>(authorization && !authorization.claimed ? 'waiting' : 'idle')
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    if (authorization?.claim()) void run(authorization)
    return () => {
      alive.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [authorization])

  async function run(a: Authorization) {
    try {
      const grant = await a.result
      if (!alive.current) return
      setStatus('verifying')
      const idToken = await exchangeCode(settings.issuer, settings.clientId, grant, settings.fetch)
      const response = await authenticate(kernel.api, idToken)
      if (!alive.current) return
      setStatus('success')
      await complete(response, { method: ACME_ID })
    } catch (e) {
      if (!alive.current) return
      setStatus('idle')
      screen.error(e, { method: ACME_ID })
    }
  }

  // A new popup must open inside this click; the screen is replaced with the new authorization.
  const retry = () => {
    if (screen.intent !== 'login') return void screen.error(acmeIdError('not_supported', T.loginOnly), { method: ACME_ID })
    screen.replace(SCREEN, { settings, authorization: beginAuthorization(kernel.screens, settings) })
  }

  return (
    <ScreenLayout
      title={T.title}
      icon={
        <StatusIcon status={status === 'success' ? 'success' : 'loading'} label={status}>
          <AcmeIcon width={28} height={28} />
        </StatusIcon>
      }
      description={status === 'waiting' ? T.waiting : status === 'verifying' ? T.verifying : status === 'success' ? T.success : undefined}
    >
      {status === 'idle' && (
        <div className="portico-actions">
          <Button onClick={retry} icon={<AcmeIcon />}>
            {T.start}
          </Button>
        </div>
      )}
      {status === 'waiting' && (
        <div className="portico-actions">
          <Button variant="secondary" onClick={() => authorization?.cancel()}>
            {T.cancel}
          </Button>
        </div>
      )}
    </ScreenLayout>
  )
}
