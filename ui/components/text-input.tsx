import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react'

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  /** Visible label (or screen-reader-only with `hideLabel`). */
  label: string
  hideLabel?: boolean
  /** Inline error under the field; sets `aria-invalid`. */
  error?: string | null
  /** A help line under the field when there is no error. */
  hint?: ReactNode
  /** Content inside the field on the right (a submit button). */
  trailing?: ReactNode
  /** Content inside the field on the left (an icon). */
  leading?: ReactNode
}

/** A labelled text field with an inline error. */
export const TextInput = forwardRef<HTMLInputElement, TextInputProps>(function TextInput(
  { label, hideLabel, error, hint, trailing, leading, id, className, ...rest },
  ref,
) {
  const auto = useId()
  const inputId = id ?? `portico-input-${auto}`
  const msgId = `${inputId}-msg`
  const hasMsg = !!error || !!hint
  return (
    <div className={`portico-field${className ? ` ${className}` : ''}`} data-invalid={error ? '' : undefined}>
      <label htmlFor={inputId} className={hideLabel ? 'portico-visually-hidden' : 'portico-label'}>
        {label}
      </label>
      <div className="portico-input-wrap">
        {leading ? <span className="portico-input-leading">{leading}</span> : null}
        <input
          ref={ref}
          id={inputId}
          className="portico-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={hasMsg ? msgId : undefined}
          {...rest}
        />
        {trailing ? <span className="portico-input-trailing">{trailing}</span> : null}
      </div>
      {error ? (
        <p id={msgId} className="portico-field-error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={msgId} className="portico-field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  )
})
