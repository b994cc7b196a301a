import { forwardRef, useCallback, useEffect, useId, useImperativeHandle, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react'

import { CODE_NUMERIC_ERROR } from './code-texts'

export { CODE_NUMERIC_ERROR }

export interface CodeInputHandle {
  /** Clear every box and focus the first. */
  reset(): void
  focus(): void
}

export interface CodeInputProps {
  /** Number of boxes. Default 6. */
  length?: number
  /** Called once when every box holds a digit. */
  onComplete?: (code: string) => void
  /** Called on every change with the digits so far. */
  onChange?: (code: string) => void
  disabled?: boolean
  /** 'error' and 'success' colour the boxes. */
  status?: 'idle' | 'error' | 'success'
  /** A message under the boxes (wins over the numeric warning). */
  error?: string | null
  /** Accessible name of the group. Default 'Verification code'. */
  label?: string
  autoFocus?: boolean
  /** The numeric-rule text (default 'Code should be numeric'; MFA: 'Passcode can only be numbers'). */
  numericError?: string
  /** When set, a paste of more digits than the boxes hold is refused with this text (MFA). */
  tooLongError?: string
}

/**
 * Six single-digit boxes. Paste fills from the box it lands in; whitespace is stripped;
 * anything else than digits shows 'Code should be numeric'; Backspace clears a box and moves
 * back; `onComplete` fires at the last digit. `ref.reset()` clears it.
 */
export const CodeInput = forwardRef<CodeInputHandle, CodeInputProps>(function CodeInput(
  { length = 6, onComplete, onChange, disabled, status = 'idle', error, label = 'Verification code', autoFocus = true, numericError, tooLongError },
  ref,
) {
  const [digits, setDigits] = useState<string[]>(() => Array(length).fill(''))
  const [ruleError, setRuleError] = useState<'numeric' | 'long' | false>(false)
  const setNumericError = (on: boolean) => setRuleError(on ? 'numeric' : false)
  const boxes = useRef<(HTMLInputElement | null)[]>([])
  const completed = useRef(false)
  const msgId = useId()

  const focusBox = (i: number, select = true) => {
    const el = boxes.current[Math.max(0, Math.min(length - 1, i))]
    el?.focus()
    if (select) el?.select()
    else el?.setSelectionRange(el.value.length, el.value.length)
  }

  const commit = useCallback(
    (next: string[]) => {
      setDigits(next)
      const code = next.join('')
      onChange?.(code)
      if (next.every((d) => d !== '')) {
        if (!completed.current) {
          completed.current = true
          onComplete?.(code)
        }
      } else completed.current = false
    },
    [onChange, onComplete],
  )

  useImperativeHandle(
    ref,
    () => ({
      reset() {
        completed.current = false
        setNumericError(false)
        setDigits(Array(length).fill(''))
        onChange?.('')
        setTimeout(() => focusBox(0), 0)
      },
      focus: () => focusBox(digits.findIndex((d) => d === '')),
    }),
    [length, onChange, digits],
  )

  useEffect(() => {
    if (autoFocus) focusBox(0)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  /** Put `text` into the boxes from `start`. */
  const fill = (start: number, raw: string) => {
    const text = raw.replace(/\s+/g, '')
    if (text === '') return
    if (!/^\d+$/.test(text)) {
      setNumericError(true)
      return
    }
    if (tooLongError && text.length > length) {
      setRuleError('long')
      return
    }
    setNumericError(false)
    const next = [...digits]
    let i = start
    for (const ch of text) {
      if (i >= length) break
      next[i++] = ch
    }
    commit(next)
    focusBox(i >= length ? length - 1 : i, i < length)
  }

  const onInput = (i: number, value: string) => {
    const prev = digits[i]
    // A typed character replaces the box; keep what is new when the box already held a digit.
    const incoming = prev && value.length > 1 && value.startsWith(prev) ? value.slice(prev.length) : prev && value.endsWith(prev) && value.length > 1 ? value.slice(0, -prev.length) : value
    if (incoming === '') {
      const next = [...digits]
      next[i] = ''
      commit(next)
      return
    }
    fill(i, incoming)
  }

  const onKeyDown = (i: number, e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault()
      const next = [...digits]
      if (next[i]) {
        next[i] = ''
        commit(next)
        focusBox(i - 1)
      } else if (i > 0) {
        next[i - 1] = ''
        commit(next)
        focusBox(i - 1)
      }
      setNumericError(false)
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault()
      focusBox(i - 1)
    } else if (e.key === 'ArrowRight') {
      e.preventDefault()
      focusBox(i + 1)
    }
  }

  const onPaste = (i: number, e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault()
    fill(i, e.clipboardData.getData('text'))
  }

  const message = error || (ruleError === 'long' ? tooLongError : ruleError ? (numericError ?? CODE_NUMERIC_ERROR) : null) || null
  const shownStatus = message ? 'error' : status
  return (
    <div className="portico-code">
      <div
        className="portico-code-boxes"
        role="group"
        aria-label={label}
        aria-describedby={message ? msgId : undefined}
        data-status={shownStatus}
      >
        {digits.map((d, i) => (
          <input
            key={i}
            ref={(el) => {
              boxes.current[i] = el
            }}
            className="portico-code-box"
            value={d}
            inputMode="numeric"
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            aria-label={`Digit ${i + 1} of ${length}`}
            aria-invalid={shownStatus === 'error' || undefined}
            disabled={disabled}
            onChange={(e) => onInput(i, e.target.value)}
            onKeyDown={(e) => onKeyDown(i, e)}
            onPaste={(e) => onPaste(i, e)}
            onFocus={(e) => e.target.select()}
          />
        ))}
      </div>
      {message ? (
        <p id={msgId} className="portico-field-error portico-code-error" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  )
})
