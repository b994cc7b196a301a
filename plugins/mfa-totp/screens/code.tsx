/**
 * 'mfa-totp-code' — the first authenticator code (part 2 section 4): six boxes (the MFA
 * rules), then 'Authenticator app verification added' and the app's enrolment callback.
 */
import { MFA_SCREENS, MfaEnrolmentCode } from 'portico/kits/mfa'
import { ScreenLayout, icons, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import { MFA_TOTP_TEXTS } from '../strings'

export default function MfaTotpCodeScreen() {
  const api = usePlugin('mfa-totp')
  const mfa = usePlugin('mfa')
  const screen = useScreen()
  const T = useTexts('mfa-totp', MFA_TOTP_TEXTS)

  const submit = async (code: string) => {
    mfa.enrolled('totp', await api.submitEnrollment({ code }))
    screen.open(MFA_SCREENS.success, { title: T.added, method: 'totp' })
  }

  return (
    <ScreenLayout title={T.codeTitle} description={T.codeDescription} icon={<icons.LockIcon width={28} height={28} />}>
      <div data-mfa-totp-code="">
        <MfaEnrolmentCode submit={submit} texts={T} />
      </div>
    </ScreenLayout>
  )
}
