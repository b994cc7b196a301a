/** Connect-time recovery with a method this client cannot handle: the failure, with Close. */
import { Button, ScreenLayout, StatusIcon, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import { finisher, type OnDone } from '../finish'
import { RECOVERY_TEXTS } from '../strings'

export default function RecoveryFailureScreen({ params }: ScreenProps<{ message?: string; onDone?: OnDone }>) {
  const T = useTexts('embedded-wallet', RECOVERY_TEXTS)
  const screen = useScreen()
  return (
    <ScreenLayout
      title={T.recoveryFailedTitle}
      description={<span role="alert">{params.message ?? T.methodNotSupported}</span>}
      icon={<StatusIcon status="error" label="error" />}
      back={false}
    >
      <div className="portico-actions">
        <Button onClick={() => finisher(screen, params.onDone).cancel()}>{T.close}</Button>
      </div>
    </ScreenLayout>
  )
}
