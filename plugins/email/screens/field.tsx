/** The e-mail field: inline on the landing (`LoginMethod.input`) and on the e-mail form screen. */
import { useState } from 'react'
import { Button, Chip, CHIP_TEXTS, TextInput, useKernel, usePlugin, useTexts, type LoginInputProps } from 'portico/ui'
// Through the plugin's entry, not '../strings' (it is loaded anyway before any screen): with
// esbuild's code splitting the whole e-mail plugin then shares one initial chunk (issue 11).
import { EMAIL_TEXTS } from 'portico/plugins/email'

export interface EmailFieldProps {
  recent?: boolean
  autoFocus?: boolean
  /** Label of the submit button. Default the 'submit' text. */
  submitLabel?: string
}

/**
 * Validates as typed, sends the code (POST /passwordless/init) through the plugin's code flow
 * for the navigator's intent, and opens 'email-code'.
 */
export function EmailField({ recent, autoFocus, submitLabel }: EmailFieldProps) {
  const kernel = useKernel()
  const flow = usePlugin('email')
  const texts = useTexts('email', EMAIL_TEXTS)
  const [value, setValue] = useState('')
  const [serverError, setServerError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const check = flow.check(value)
  const submit = async () => {
    if (!check.valid || busy) return
    const email = value.trim()
    setBusy(true)
    setServerError(null)
    try {
      await flow.sendCode({ email, intent: kernel.screens.getState().intent ?? 'login' })
      setBusy(false)
      void kernel.screens.open('email-code', { email })
    } catch (e) {
      setBusy(false)
      const view = kernel.screens.resolveError(e, { method: 'email' })
      if (view.inline) setServerError(view.title)
      else kernel.screens.error(e, { method: 'email' })
    }
  }
  return (
    <form
      className="portico-email-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <TextInput
        label={texts.fieldLabel}
        hideLabel
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        placeholder={texts.placeholder}
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => {
          setValue(e.target.value)
          setServerError(null)
        }}
        error={check.error ?? serverError}
        trailing={
          <>
            {recent && !value ? <Chip tone="accent">{CHIP_TEXTS.recent}</Chip> : null}
            <Button type="submit" variant="ghost" fullWidth={false} disabled={!check.valid} loading={busy}>
              {submitLabel ?? texts.submit}
            </Button>
          </>
        }
      />
    </form>
  )
}

/** The landing's inline input. */
export function EmailLandingInput({ recent }: LoginInputProps) {
  return <EmailField recent={recent} />
}
