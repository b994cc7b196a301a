/**
 * 'delegated-actions-revoke' — revoke offline access for every delegated wallet
 * (POST /wallets/revoke); success or the error shows and the modal closes after 2.5 s.
 */
import { formatText } from 'portico'
import { Button, ScreenLayout, StatusIcon, useKernel, usePlugin, useTexts, type ScreenProps } from 'portico/ui/screens'
import { DELEGATED_ACTIONS } from '../ids'
import { DELEGATED_ACTIONS_TEXTS } from '../strings'
import { useResultAction } from './result'

export default function RevokeScreen(_: ScreenProps) {
  const kernel = useKernel()
  const api = usePlugin('delegated-actions')
  const T = useTexts(DELEGATED_ACTIONS, DELEGATED_ACTIONS_TEXTS)
  const { phase, run, decline } = useResultAction(() => api.revoke())
  const app = kernel.config.name || 'This app'
  if (phase.step === 'success' || phase.step === 'error') {
    return (
      <ScreenLayout
        title={phase.step === 'success' ? T.revokeSuccess : T.failedTitle}
        description={phase.step === 'error' ? phase.message : undefined}
        icon={<StatusIcon status={phase.step} />}
        back={false}
        className="delegated-actions-result"
      />
    )
  }
  return (
    <ScreenLayout title={T.revokeTitle} description={formatText(T.revokeDescription, { app })} className="delegated-actions-revoke" back={false}>
      <div className="portico-actions">
        <Button loading={phase.step === 'working'} onClick={run} data-autofocus>
          {T.revoke}
        </Button>
        <Button variant="secondary" disabled={phase.step === 'working'} onClick={decline}>
          {T.cancel}
        </Button>
      </div>
    </ScreenLayout>
  )
}
