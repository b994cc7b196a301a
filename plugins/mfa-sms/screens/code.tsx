/** 'mfa-sms-code' — the enrolment code (part 2 section 4); back returns to the number; then 'SMS verification added'. */
import { useRef, useState } from 'react'
import { formatText } from 'portico'
import { ScreenLayout, icons, usePlugin, useScreen, useTexts, type CodeInputHandle } from 'portico/ui/screens'
import { MFA_ERRORS, MFA_SCREENS, MfaCodeBoxes } from 'portico/plugins/mfa'
import { MFA_SMS_TEXTS } from '../strings'

export default function MfaSmsCodeScreen() {
  const api = usePlugin('mfa-sms')
  const mfa = usePlugin('mfa')
  const screen = useScreen<{ phoneNumber: string }>()
  const T = useTexts('mfa-sms', MFA_SMS_TEXTS)
  const boxes = useRef<CodeInputHandle>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (code: string) => {
    setBusy(true)
    setError(null)
    try {
      const res = await api.submitEnrollment({ phoneNumber: screen.params.phoneNumber, code })
      mfa.enrolled('sms', res)
      screen.open(MFA_SCREENS.success, { title: T.added, method: 'sms' })
    } catch (e) {
      const c = (e as { code?: string })?.code
      setError(c === MFA_ERRORS.invalid ? T.invalidCode : c === 'invalid_data' ? (e as Error).message : T.unknownError)
      boxes.current?.reset()
    } finally {
      setBusy(false)
    }
  }

  return (
    <ScreenLayout
      title={T.codeTitle}
      description={formatText(T.codeDescription, { number: screen.params.phoneNumber ?? '' })}
      icon={<icons.PhoneIcon width={28} height={28} />}
      back
    >
      <div data-mfa-sms-code="">
        <MfaCodeBoxes ref={boxes} disabled={busy} error={error} onComplete={(c) => void submit(c)} />
      </div>
    </ScreenLayout>
  )
}
