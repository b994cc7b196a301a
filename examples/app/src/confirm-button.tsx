/**
 * A demo button that asks before it acts (issue 25: unlinking took one click): 'Unlink email'
 * turns into 'Unlink email? [Unlink] [Cancel]'; focus moves to 'Unlink', and back to the
 * button on Cancel.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react'

export function ConfirmButton({
  children,
  question,
  confirmLabel = 'Unlink',
  onConfirm,
  disabled,
}: {
  children: ReactNode
  question: string
  confirmLabel?: string
  onConfirm: () => void
  disabled?: boolean
}) {
  const [asking, setAsking] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const confirm = useRef<HTMLButtonElement>(null)
  const answered = useRef(false)
  useEffect(() => {
    if (asking) confirm.current?.focus()
    else if (answered.current) button.current?.focus()
  }, [asking])
  if (!asking) {
    return (
      <button ref={button} disabled={disabled} onClick={() => setAsking(true)}>
        {children}
      </button>
    )
  }
  return (
    <span className="demo-confirm" role="group" aria-label={question} data-demo-confirm="">
      <span>{question}</span>
      <button
        ref={confirm}
        onClick={() => {
          answered.current = true
          setAsking(false)
          onConfirm()
        }}
      >
        {confirmLabel}
      </button>
      <button
        onClick={() => {
          answered.current = true
          setAsking(false)
        }}
      >
        Cancel
      </button>
    </span>
  )
}
