/**
 * The MFA code boxes (part 2 sections 4 and 5): the ui's six numeric boxes with the MFA
 * texts — 'Passcode can only be numbers', 'Passcode must be exactly 6 numbers' for a paste
 * longer than 6 digits — paste filling from the box it lands in, Backspace clearing and
 * moving back, submit at the sixth digit. Method plugins' code screens use it too.
 */
import { forwardRef } from 'react'
import { CodeInput, useTexts, type CodeInputHandle } from 'portico/ui/screens'
import { MFA_CODE_LENGTH } from '../index'
import { MFA_TEXTS } from '../strings'

export interface MfaCodeBoxesProps {
  onComplete(code: string): void
  disabled?: boolean
  /** The inline message (wins over the rule texts). */
  error?: string | null
  status?: 'idle' | 'error' | 'success'
}

export const MfaCodeBoxes = forwardRef<CodeInputHandle, MfaCodeBoxesProps>(function MfaCodeBoxes(props, ref) {
  const T = useTexts('mfa', MFA_TEXTS)
  return (
    <div data-mfa-code="">
      <CodeInput
        ref={ref}
        length={MFA_CODE_LENGTH}
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
