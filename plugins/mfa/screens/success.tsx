/**
 * 'mfa-success' — '<Method> verification added' (part 2 sections 2 and 4); the app's
 * enrolment callback already ran (`api.enrolled`); Done completes the flow.
 */
import { Button, ScreenLayout, StatusIcon, useScreen, useTexts } from 'portico/ui/screens'
import { MFA_TEXTS } from '../strings'

export default function MfaSuccessScreen() {
  const T = useTexts('mfa', MFA_TEXTS)
  const screen = useScreen<{ title?: string; method?: string }>()
  return (
    <ScreenLayout title={screen.params.title ?? T.successTitle} icon={<StatusIcon status="success" label="success" />} back={false}>
      <div className="portico-actions" data-mfa-success={screen.params.method ?? ''}>
        <Button onClick={() => screen.close({ mfaEnrolled: true, method: screen.params.method })}>{T.done}</Button>
      </div>
    </ScreenLayout>
  )
}
