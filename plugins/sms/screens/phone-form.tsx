/**
 * The phone form shared by the landing input and the 'sms-phone' screen: the UI's PhoneInput
 * (country selector defaulting to intl.defaultCountry, formatting as typed, changing the
 * country clears the number), a Submit button disabled while the number is invalid, and the
 * SMS consent line with the app name.
 */
import { useState } from 'react'
import { formatText, toPorticoError, type Intent } from 'portico'
import { Button, useKernel, usePlugin, useTexts } from 'portico/ui/screens'
import { PhoneInput, type PhoneValue } from 'portico/ui/phone-input'
import { SMS_TEXTS } from '../strings'

export interface PhoneFormProps {
  intent: Intent
  disableSignup?: boolean
  autoFocus?: boolean
}

export function PhoneForm({ intent, disableSignup, autoFocus }: PhoneFormProps) {
  const kernel = useKernel()
  const flow = usePlugin('sms')
  const texts = useTexts('sms', SMS_TEXTS)
  const [value, setValue] = useState<PhoneValue | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const valid = !!value?.valid && !!value.e164

  const submit = async () => {
    if (!valid || busy) return
    setBusy(true)
    setError(null)
    try {
      await flow.sendCode({ phoneNumber: value!.e164!, intent, country: value!.country })
      if (flow.getState().status === 'awaiting-code-input') void kernel.screens.open('sms-code', { disableSignup: !!disableSignup })
    } catch (e) {
      const err = toPorticoError(e)
      // Checks made before any request (no phone to update, not a valid number) stay inline.
      if ((err.code === 'invalid_data' || err.code === 'cannot_link_more_of_type') && err.status === undefined) return setError(err.message)
      const view = kernel.screens.error(err, { method: 'sms' })
      if (view.inline || !kernel.screens.getState().open) setError(view.title)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="portico-form portico-sms-form"
      data-portico-sms-form=""
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <PhoneInput
        label={texts.phonePlaceholder}
        hideLabel
        onChange={(v) => {
          setValue(v)
          setError(null)
        }}
        onSubmit={() => void submit()}
        error={error}
        disabled={busy}
        autoFocus={autoFocus}
        trailing={
          <Button type="submit" variant="primary" fullWidth={false} disabled={!valid} loading={busy}>
            {texts.submit}
          </Button>
        }
      />
      <p className="portico-field-hint portico-sms-consent" data-portico-sms-consent="">
        {formatText(texts.consent, { app: kernel.config.name })}
      </p>
    </form>
  )
}
