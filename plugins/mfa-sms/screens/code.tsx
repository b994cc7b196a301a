/** 'mfa-sms-code' — the enrolment code (part 2 section 4); back returns to the number; then 'SMS verification added'. */
import { formatText } from 'portico'
import { MFA_SCREENS, MfaEnrolmentCode } from 'portico/kits/mfa'
import { ScreenLayout, icons, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import { MFA_SMS_TEXTS } from '../strings'

export default function MfaSmsCodeScreen() {
  const api = usePlugin('mfa-sms')
  const mfa = usePlugin('mfa')
  const screen = useScreen<{ phoneNumber: string }>()
  const T = useTexts('mfa-sms', MFA_SMS_TEXTS)

  const submit = async (code: string) => {
    mfa.enrolled('sms', await api.submitEnrollment({ phoneNumber: screen.params.phoneNumber, code }))
    screen.open(MFA_SCREENS.success, { title: T.added, method: 'sms' })
  }

  return (
    <ScreenLayout
      title={T.codeTitle}
      description={formatText(T.codeDescription, { number: screen.params.phoneNumber ?? '' })}
      icon={<icons.PhoneIcon width={28} height={28} />}
      back
    >
      <div data-mfa-sms-code="">
        <MfaEnrolmentCode submit={submit} texts={T} />
      </div>
    </ScreenLayout>
  )
}
