/**
 * 'delegated-actions-consent' — 'Enable offline access': what the app may do, the wallet, and
 * Enable / Not now. Enable asks the wallet frame to seal the wallet's key to the server
 * (`delegated-actions:consent`); then success or the error shows and the modal closes after 2.5 s.
 */
import { formatText } from 'portico'
import { Button, Chip, ScreenLayout, StatusIcon, useKernel, usePlugin, useTexts, type ScreenProps } from 'portico/ui'
import { DELEGATED_ACTIONS } from '../ids'
import type { ConsentScreenParams } from '../flow'
import { DELEGATED_ACTIONS_TEXTS } from '../strings'
import type { EmbeddedWalletApi } from 'portico/plugins/embedded-wallet'
import { useResultAction } from './result'

const short = (a: string) => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a)

export default function ConsentScreen({ params }: ScreenProps<ConsentScreenParams>) {
  const kernel = useKernel()
  const api = usePlugin('delegated-actions')
  const T = useTexts(DELEGATED_ACTIONS, DELEGATED_ACTIONS_TEXTS)
  const ew: EmbeddedWalletApi | null = kernel.hasPlugin('embedded-wallet') ? kernel.plugin('embedded-wallet') : null
  const { phase, run, decline } = useResultAction(() => api.consent(ew, params))
  const app = kernel.config.name || 'This app'
  if (phase.step === 'success' || phase.step === 'error') {
    return (
      <ScreenLayout
        title={phase.step === 'success' ? T.consentSuccess : T.failedTitle}
        description={phase.step === 'error' ? phase.message : undefined}
        icon={<StatusIcon status={phase.step} />}
        back={false}
        className="delegated-actions-result"
      />
    )
  }
  return (
    <ScreenLayout title={T.consentTitle} description={formatText(T.consentDescription, { app })} className="delegated-actions-consent" back={false}>
      <p className="portico-help">{T.consentDetail}</p>
      <div className="portico-field">
        <span className="portico-label">{T.walletLabel}</span>
        <span className="portico-emphasis" title={params.address} data-testid="delegated-wallet">
          {short(params.address)} <Chip>{params.chainType === 'solana' ? 'Solana' : 'Ethereum'}</Chip>
        </span>
      </div>
      <div className="portico-actions">
        <Button loading={phase.step === 'working'} onClick={run} data-autofocus>
          {T.accept}
        </Button>
        <Button variant="secondary" disabled={phase.step === 'working'} onClick={decline}>
          {T.decline}
        </Button>
      </div>
    </ScreenLayout>
  )
}
