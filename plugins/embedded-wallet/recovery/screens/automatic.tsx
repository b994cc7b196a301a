/**
 * 'Automatically secure your account' (spec part 2 section 2; chosen first when automatic
 * recovery is enabled, 'Choosing the recovery screen'): moves the wallet to automatic
 * (`privy`) recovery. The frame splits the root afresh, so the old password or cloud backup no
 * longer combines with anything. A wallet already on automatic recovery just says so.
 */
import { useEffect, useRef, useState } from 'react'
import { Button, ScreenLayout, StatusIcon, icons, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { RecoveryController } from '../controller'
import { finisher, type OnDone } from '../finish'
import { SUCCESS_CLOSE_MS } from '../ids'
import { RECOVERY_TEXTS } from '../strings'
import { useFocusInside, useMounted } from './mounted'

export default function AutomaticRecoveryScreen({ params }: ScreenProps<{ controller: RecoveryController; onDone?: OnDone }>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  const screen = useScreen()
  const c = params.controller
  const [status, setStatus] = useState<'idle' | 'securing' | 'done' | 'failed'>(() => (c.currentMethod() === 'privy' ? 'done' : 'idle'))
  const already = useRef(status === 'done').current
  const alive = useMounted()
  const actionsRef = useRef<HTMLDivElement>(null)
  useFocusInside(actionsRef, status)
  // Success closes after 1.4 s (spec part 2 section 9), unless nothing changed.
  useEffect(() => {
    if (status !== 'done' || already) return
    const t = setTimeout(() => finisher(screen, params.onDone).ok({ recoveryMethod: 'privy' }), SUCCESS_CLOSE_MS)
    return () => clearTimeout(t)
  }, [status, already, screen, params.onDone])

  const secure = async () => {
    setStatus('securing')
    try {
      await c.secureAutomatically()
      if (alive.current) setStatus('done')
    } catch {
      if (alive.current) setStatus('failed')
    }
  }
  const done = status === 'done'
  const failed = status === 'failed'
  return (
    <ScreenLayout
      title={failed ? T.failed : T.automaticTitle}
      description={<span role={done ? 'status' : failed ? 'alert' : undefined}>{done ? T.automaticDone : failed ? T.automaticFailed : T.automaticDescription}</span>}
      icon={
        <StatusIcon status={done ? 'success' : failed ? 'error' : status === 'securing' ? 'loading' : 'idle'} label={done ? 'success' : failed ? 'error' : 'recovery'}>
          <icons.KeyIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div ref={actionsRef} className="portico-actions" data-step={status}>
        {done ? (
          <Button onClick={() => finisher(screen, params.onDone).ok({ recoveryMethod: 'privy' })}>{T.close}</Button>
        ) : (
          <>
            <Button onClick={() => void secure()} loading={status === 'securing'}>
              {failed ? T.tryAgain : T.automaticConfirm}
            </Button>
            <Button variant="ghost" disabled={status === 'securing'} onClick={() => finisher(screen, params.onDone).cancel()}>
              {T.cancel}
            </Button>
          </>
        )}
      </div>
    </ScreenLayout>
  )
}
