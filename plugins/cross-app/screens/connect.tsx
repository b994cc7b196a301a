/**
 * 'cross-app-connect': 'Connecting to {app}' while the provider's /oauth/transact popup is
 * open; then POST /cross-app/authenticate (or /link by the modal's intent) with the one-time
 * code and hands over to `useCompleteLogin()`. Opened with `{ connection, transaction }` from
 * the landing row; without a transaction (link, retry) it shows a button that opens the popup
 * inside the click.
 */
import { useEffect, useRef } from 'react'
import { Button, ScreenLayout, StatusIcon, useCompleteLogin, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { authenticateCrossApp, linkCrossApp, type CrossAppConnection } from '../calls'
import { CROSS_APP, CROSS_APP_METHOD } from '../errors'
import { CROSS_APP_SCREEN } from '../flow'
import type { Transaction } from '../popup'
import { CROSS_APP_TEXTS } from '../strings'

export default function CrossAppConnectScreen({ params }: ScreenProps<{ connection?: CrossAppConnection; transaction?: Transaction }>) {
  const kernel = useKernel()
  const xa = usePlugin('cross-app')
  const T = useTexts(CROSS_APP, CROSS_APP_TEXTS)
  const screen = useScreen()
  const complete = useCompleteLogin()
  const { status, connections } = useStore(xa.state)
  const connection = params.connection ?? connections?.[0]
  const { transaction } = params
  const alive = useRef(true)
  const intent = screen.intent === 'link' ? 'link' : 'login'

  useEffect(() => {
    alive.current = true
    if (!connections) void xa.loadConnections().catch((e) => screen.error(e, { method: CROSS_APP_METHOD }))
    xa.state.set({ status: transaction && !transaction.claimed ? 'waiting' : 'idle' })
    if (transaction?.claim() && connection) void run(transaction, connection)
    return () => {
      alive.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [transaction])

  async function run(t: Transaction, c: CrossAppConnection) {
    try {
      const { code, verifier } = await t.result
      if (!alive.current) return
      xa.state.set({ status: 'verifying' })
      const grant = { provider_app_id: c.provider_app_id, code, code_verifier: verifier }
      const response = intent === 'link' ? await linkCrossApp(kernel.api, grant) : await authenticateCrossApp(kernel.api, grant)
      if (!alive.current) return
      xa.state.set({ status: 'success' })
      await complete(response, { method: CROSS_APP_METHOD, intent })
    } catch (e) {
      if (!alive.current) return
      xa.state.set({ status: 'idle' })
      screen.error(e, { method: CROSS_APP_METHOD })
    }
  }

  const start = () => {
    if (!connection) return
    screen.replace(CROSS_APP_SCREEN, { connection, transaction: xa.transact(connection, intent) })
  }
  const app = connection?.provider_app_name ?? ''

  return (
    <ScreenLayout
      title={T.connecting.replace('{app}', app)}
      icon={<StatusIcon status={status === 'success' ? 'success' : 'loading'} label={status} />}
      description={status === 'waiting' ? T.checkPopup : status === 'success' ? T.success : undefined}
    >
      {status === 'idle' && connection && (
        <div className="portico-actions">
          <Button onClick={start}>{T.allow}</Button>
        </div>
      )}
      {status === 'waiting' && (
        <div className="portico-actions">
          <Button variant="secondary" onClick={() => transaction?.cancel()}>
            {T.deny}
          </Button>
        </div>
      )}
    </ScreenLayout>
  )
}
