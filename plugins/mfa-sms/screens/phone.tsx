/** 'mfa-sms' — the number to enrol, with the consent text naming the app (part 2 sections 4 and 5). */
import { useState, type FormEvent } from 'react'
import { formatText } from 'portico'
import { Button, ScreenLayout, TextInput, icons, useKernel, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import { MFA_SMS_TEXTS } from '../strings'

export default function MfaSmsPhoneScreen() {
  const kernel = useKernel()
  const api = usePlugin('mfa-sms')
  const screen = useScreen()
  const T = useTexts('mfa-sms', MFA_SMS_TEXTS)
  const [phone, setPhone] = useState(() => api.state.get().phoneNumber ?? '')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await api.initEnrollment({ phoneNumber: phone.trim() })
      screen.open('mfa-sms-code', { phoneNumber: phone.trim() })
    } catch (err) {
      const code = (err as { code?: string })?.code
      setError(code === 'invalid_data' ? (err as Error).message : T.unknownError)
    } finally {
      setBusy(false)
    }
  }

  return (
    <ScreenLayout title={T.phoneTitle} description={T.phoneDescription} icon={<icons.PhoneIcon width={28} height={28} />}>
      <form onSubmit={(e) => void submit(e)} data-mfa-sms-phone="">
        <TextInput label={T.phoneLabel} type="tel" autoComplete="tel" value={phone} onChange={(e) => setPhone(e.target.value)} error={error} autoFocus />
        <p className="portico-field-hint" data-mfa-sms-consent="">
          {formatText(T.consent, { app: kernel.config.name })}
        </p>
        <div className="portico-actions">
          <Button type="submit" loading={busy} disabled={!phone.trim()}>
            {T.continue}
          </Button>
        </div>
      </form>
    </ScreenLayout>
  )
}
