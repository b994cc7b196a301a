/**
 * The MFA code boxes (part 2 sections 4 and 5): the ui's six numeric boxes with the MFA
 * texts — 'Passcode can only be numbers', 'Passcode must be exactly 6 numbers' for a paste
 * longer than 6 digits — paste filling from the box it lands in, Backspace clearing and
 * moving back, submit at the sixth digit. The MFA plugin's verification screen and the method
 * plugins' code screens use it; `MfaEnrolmentCode` is a method's enrolment code step with it.
 */
import { forwardRef, useRef, useState } from 'react'
import { CODE_LENGTH } from 'portico/ui'
import { CodeInput, useTexts, type CodeInputHandle } from 'portico/ui/screens'
import { MFA_CODE_TEXTS } from './code'
import { MFA_ERRORS } from './ids'

export interface MfaCodeBoxesProps {
  onComplete(code: string): void
  disabled?: boolean
  /** The inline message (wins over the rule texts). */
  error?: string | null
  status?: 'idle' | 'error' | 'success'
}

export const MfaCodeBoxes = forwardRef<CodeInputHandle, MfaCodeBoxesProps>(function MfaCodeBoxes(props, ref) {
  const T = useTexts('mfa', MFA_CODE_TEXTS)
  return (
    <div data-mfa-code="">
      <CodeInput
        ref={ref}
        length={CODE_LENGTH}
        label={T.codeLabel}
        onComplete={props.onComplete}
        disabled={props.disabled}
        error={props.error}
        status={props.status ?? (props.error ? 'error' : 'idle')}
        numericError={T.codeNumeric}
        tooLongError={T.codeLength}
      />
    </div>
  )
})

export interface MfaEnrolmentCodeProps {
  /** Send the code to the server (the method's `submitEnrollment`), then go on (the success screen). */
  submit(code: string): Promise<void>
  /** The method's texts for a wrong code and anything else. */
  texts: { invalidCode: string; unknownError: string }
}

/**
 * A method's enrolment code step (mfa-totp, mfa-sms): the boxes, busy while the code is
 * checked; a wrong code shows `invalidCode`, a code the rule refused its rule text, anything
 * else `unknownError`, and the boxes clear.
 */
export default function MfaEnrolmentCode({ submit, texts }: MfaEnrolmentCodeProps) {
  const boxes = useRef<CodeInputHandle>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const onComplete = async (code: string) => {
    setBusy(true)
    setError(null)
    try {
      await submit(code)
    } catch (e) {
      const c = (e as { code?: string })?.code
      setError(c === MFA_ERRORS.invalid ? texts.invalidCode : c === 'invalid_data' ? (e as Error).message : texts.unknownError)
      boxes.current?.reset()
    } finally {
      setBusy(false)
    }
  }
  return <MfaCodeBoxes ref={boxes} disabled={busy} error={error} onComplete={(c) => void onComplete(c)} />
}
