/** The e-mail field: inline on the landing (`LoginMethod.input`) and on the e-mail form screen. */
import { useState } from 'react'
import { Button, Chip, CHIP_TEXTS, TextInput, useKernel, type LoginInputProps } from 'portico/ui'
import { initEmail } from '../calls'
import { checkEmail } from '../errors'
import { EMAIL_TEXTS } from '../strings'

export interface EmailFieldProps {
  recent?: boolean
  autoFocus?: boolean
  /** Label of the submit button. Default 'Submit'. */
  submitLabel?: string
}

/** Validates as typed, sends the code (POST /passwordless/init) and opens 'email-code'. */
export function EmailField({ recent, autoFocus, submitLabel = EMAIL_TEXTS.submit }: EmailFieldProps) {
  const kernel = useKernel()
  const [value, setValue] = useState('')
  const [serverError, setServerError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const check = checkEmail(value, kernel.config.disablePlusEmails)
  const submit = async () => {
    if (!check.valid || busy) return
    const email = value.trim()
    setBusy(true)
    setServerError(null)
    try {
      await initEmail(kernel.api, email)
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
        label={EMAIL_TEXTS.fieldLabel}
        hideLabel
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        placeholder={EMAIL_TEXTS.placeholder}
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
              {submitLabel}
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
