/**
 * Cloud-backup OAuth recovery (spec part 2 sections 2 and 4): backing up to, or recovering
 * from, Google Drive or Apple iCloud. A backup starts at once (the selection's click opened
 * the popup); a recovery starts with the user's click. Failures: 'Back up with {provider}
 * unsuccessful' / 'Recovery with {provider} unsuccessful', with Try again and Close. Success
 * closes after 1.4 s.
 */
import { useEffect, useRef, useState } from 'react'
import { PorticoError } from 'portico'
import { Button, ScreenLayout, StatusIcon, icons, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { RecoverInput, RecoveryController } from '../controller'
import type { CloudMethod } from '../machine'
import { finisher, type OnDone } from '../finish'
import { SUCCESS_CLOSE_MS } from '../ids'
import { RECOVERY_TEXTS } from '../strings'
import { useFocusInside, useMounted } from './mounted'

export interface CloudParams extends Record<string, unknown> {
  controller: RecoveryController
  method: CloudMethod
  action: 'backup' | 'recover' | 'create'
  /** The flow the selection's click started (backup / create). */
  run?: Promise<void>
  /** Connect-time: the wallet plugin's recover. */
  recover?: (input: RecoverInput) => Promise<void>
  onDone?: OnDone
}

export default function CloudRecoveryScreen({ params }: ScreenProps<CloudParams>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  const screen = useScreen()
  const provider = params.method === 'icloud' ? T.icloud : T.googleDrive
  const [status, setStatus] = useState<'idle' | 'running' | 'done' | 'failed'>(params.run ? 'running' : 'idle')
  const [error, setError] = useState<string | null>(null)
  const alive = useMounted()
  const actionsRef = useRef<HTMLDivElement>(null)
  useFocusInside(actionsRef, status)

  const follow = (p: Promise<void>) => {
    setStatus('running')
    setError(null)
    p.then(
      () => alive.current && setStatus('done'),
      (e: PorticoError) => {
        if (!alive.current) return
        setError(e?.message || T.tryAgainError)
        setStatus('failed')
      },
    )
  }
  useEffect(() => {
    if (params.run) follow(params.run)
    // Once: the click that opened this screen started the flow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  useEffect(() => {
    if (status !== 'done') return
    const t = setTimeout(() => finisher(screen, params.onDone).ok({ recoveryMethod: params.method }), SUCCESS_CLOSE_MS)
    return () => clearTimeout(t)
  }, [status, screen, params.method, params.onDone])

  // Inside the click: the popup opens before anything is awaited.
  const start = () => follow(params.controller.runCloud(params.method, params.action, params.controller.openPopup(), params.recover))

  const recovering = params.action === 'recover'
  const title =
    status === 'failed'
      ? (recovering ? T.cloudRecoveryFailed : T.cloudBackupFailed).replace('{provider}', provider)
      : status === 'done'
        ? recovering
          ? T.cloudRecovered
          : T.cloudBackedUp.replace('{provider}', provider)
        : recovering && status === 'idle'
          ? T.recoverTitle
          : T.cloudConnecting.replace('{provider}', provider)
  return (
    <ScreenLayout
      title={title}
      description={<span role={status === 'failed' ? 'alert' : 'status'}>{status === 'failed' ? error : status === 'done' ? T.success : T.cloudDescription.replace('{provider}', provider)}</span>}
      icon={
        <StatusIcon status={status === 'failed' ? 'error' : status === 'done' ? 'success' : status === 'running' ? 'loading' : 'idle'} label={status}>
          <icons.GlobeIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div ref={actionsRef} className="portico-actions">
        {status === 'idle' || status === 'failed' ? <Button onClick={start}>{status === 'failed' ? T.tryAgain : T.cloudContinue.replace('{provider}', provider)}</Button> : null}
        {status === 'failed' ? (
          <Button variant="secondary" onClick={() => finisher(screen, params.onDone).cancel(error ? new PorticoError('recovery_failed', error) : undefined)}>
            {T.close}
          </Button>
        ) : null}
      </div>
    </ScreenLayout>
  )
}
