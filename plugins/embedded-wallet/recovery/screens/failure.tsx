/** Connect-time recovery with a method this client cannot handle: the failure, with Close. */
import { Button, ScreenLayout, StatusIcon, useScreen, useTexts, type ScreenProps } from 'portico/ui'
import { RECOVERY_TEXTS } from '../strings'

export default function RecoveryFailureScreen({ params }: ScreenProps<{ message?: string }>) {
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
        <Button onClick={() => screen.dismiss()}>{T.close}</Button>
      </div>
    </ScreenLayout>
  )
}
