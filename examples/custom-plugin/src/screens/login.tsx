/**
 * 'acme-id-login': waits for the Acme ID popup, exchanges the code for an id_token, logs in
 * with it, then hands over to `useCompleteLogin()` (terms consent, success, close). Opened
 * with `{ authorization }` from the landing row; without one (or after an error) it shows a
 * button that opens a new popup, inside the click. Its status is the plugin's kernel state.
 */
import { useEffect, useRef } from 'react'
import { Button, ScreenLayout, StatusIcon, useCompleteLogin, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { authenticateAcmeId, exchangeCode } from '../calls'
import { ACME_ID, acmeIdError } from '../errors'
import { SCREEN } from '../flow'
import { AcmeIcon } from '../icon'
import type { Authorization } from '../popup'
import { ACME_ID_TEXTS } from '../strings'

export default function AcmeIdLoginScreen({ params }: ScreenProps<{ authorization?: Authorization }>) {
  const kernel = useKernel()
  const acme = usePlugin('acme-id')
  const T = useTexts(ACME_ID, ACME_ID_TEXTS)
  const screen = useScreen()
  const complete = useCompleteLogin()
  const { authorization } = params
  const { status } = useStore(acme.state)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    acme.state.set({ status: authorization && !authorization.claimed ? 'waiting' : 'idle' })
    if (authorization?.claim()) void run(authorization)
    return () => {
      alive.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [authorization])

  async function run(a: Authorization) {
    const { settings } = acme
    try {
      const grant = await a.result
      if (!alive.current) return
      acme.state.set({ status: 'verifying' })
      const idToken = await exchangeCode(settings.issuer, settings.clientId, grant, acme.fetch, T)
      const response = await authenticateAcmeId(kernel.api, idToken)
      if (!alive.current) return
      acme.state.set({ status: 'success' })
      await complete(response, { method: ACME_ID })
    } catch (e) {
      if (!alive.current) return
      acme.state.set({ status: 'idle' })
      screen.error(e, { method: ACME_ID })
    }
  }

  // A new popup must open inside this click; the screen is replaced with the new authorization.
  const retry = () => {
    if (screen.intent !== 'login') return void screen.error(acmeIdError('method_not_supported', T.loginOnly), { method: ACME_ID })
    screen.replace(SCREEN, { authorization: acme.authorize() })
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
