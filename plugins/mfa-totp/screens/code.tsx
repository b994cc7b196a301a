/**
 * 'mfa-totp-code' — the first authenticator code (part 2 section 4): six boxes (the base's
 * MFA rules), then 'Authenticator app verification added' and the app's enrolment callback.
 */
import { useRef, useState } from 'react'
import { ScreenLayout, icons, usePlugin, useScreen, useTexts, type CodeInputHandle } from 'portico/ui/screens'
import { MFA_ERRORS, MFA_SCREENS, MfaCodeBoxes } from 'portico/plugins/mfa'
import { MFA_TOTP_TEXTS } from '../strings'

export default function MfaTotpCodeScreen() {
  const api = usePlugin('mfa-totp')
  const mfa = usePlugin('mfa')
  const screen = useScreen()
  const T = useTexts('mfa-totp', MFA_TOTP_TEXTS)
  const boxes = useRef<CodeInputHandle>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (code: string) => {
    setBusy(true)
    setError(null)
    try {
      const res = await api.submitEnrollment({ code })
      mfa.enrolled('totp', res)
      screen.open(MFA_SCREENS.success, { title: T.added, method: 'totp' })
    } catch (e) {
      const code = (e as { code?: string })?.code
      setError(code === MFA_ERRORS.invalid || code === 'invalid_data' ? (code === 'invalid_data' ? (e as Error).message : T.invalidCode) : T.unknownError)
      boxes.current?.reset()
    } finally {
      setBusy(false)
    }
  }

  return (
    <ScreenLayout title={T.codeTitle} description={T.codeDescription} icon={<icons.LockIcon width={28} height={28} />}>
      <div data-mfa-totp-code="">
        <MfaCodeBoxes ref={boxes} disabled={busy} error={error} onComplete={(c) => void submit(c)} />
      </div>
    </ScreenLayout>
  )
}
