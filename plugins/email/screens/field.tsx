/** The e-mail field: inline on the landing (`LoginMethod.input`) and on the e-mail form screen. */
import { useState } from 'react'
import { Button, Chip, CHIP_TEXTS, TextInput, useKernel, usePlugin, type LoginInputProps } from 'portico/ui/screens'

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
  // The texts come through the plugin's API, not from '../strings': a lazy screen importing a
  // module of the plugin's entry puts that module in an initial chunk of its own under esbuild's
  // code splitting (issue 11: one chunk more in every host's initial load). `usePlugin`
  // re-renders on config changes, so the app's text overrides apply as with `useTexts`.
  const texts = flow.texts()
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
