/** 'mfa-intro' — the enrolment intro (part 2 section 4): then 'Choose a verification method'. */
import { Button, ScreenLayout, icons, useScreen, useTexts } from 'portico/ui/screens'
import { MFA_SCREENS } from 'portico/kits/mfa'
import { MFA_TEXTS } from '../strings'

export default function MfaIntroScreen() {
  const T = useTexts('mfa', MFA_TEXTS)
  const screen = useScreen()
  return (
    <ScreenLayout title={T.introTitle} description={T.introDescription} icon={<icons.LockIcon width={28} height={28} />}>
      <div className="portico-actions">
        <Button onClick={() => screen.open(MFA_SCREENS.methods)}>{T.introContinue}</Button>
      </div>
    </ScreenLayout>
  )
}
