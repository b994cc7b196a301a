/**
 * The awaiting-code screen body (part 1 sections 2, 4 and 9) that every code method shares:
 * six boxes that submit at the sixth digit, a 'Code sent' indicator for the 30 s resend
 * cooldown, then the help line and 'Resend code', and the inline error that clears with the
 * boxes 1.4 s after a failed code. Errors with a screen of their own go to that screen.
 * The method supplies the texts, the icon and the two calls, usually from its code flow
 * (`portico/kits/code`); the code rule's numbers are ../index.ts's.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button } from './button'
import { CodeInput, type CodeInputHandle } from './code-input'
import { CheckIcon } from './icons'
import { ScreenLayout } from './layout'
import { StatusIcon } from './status'
import { useKernel } from '../context'
import { useScreen } from '../screen-context'
import { CODE_LENGTH, CODE_RESET_MS, RESEND_COOLDOWN_MS } from '../index'

export type CodeEntryStatus = 'awaiting' | 'submitting' | 'success' | 'error'

export interface CodeEntryScreenProps {
  title: ReactNode
  description?: ReactNode
  /** The icon in the status ring (e.g. `icons.MailIcon`). */
  icon: ReactNode
  texts: { codeSent: string; helpLine: string; resendCode: string; success?: string }
  /** The login method, for error mappings ('email', 'sms', ...). */
  method: string
  /**
   * Check the code. Call `verified()` once the server accepted it (the boxes turn green),
   * then finish (e.g. `useCompleteLogin`). Throw to show the error.
   */
  submit(code: string, verified: () => void): Promise<void>
  /** Send a new code. */
  resend(): Promise<void>
  /** The inline message for a failed code. */
  errorMessage(error: unknown): string
  /** Whether an error shows a screen of its own; default: `kernel.screens.hasOwnScreen`. */
  hasOwnScreen?(error: unknown): boolean
  /**
   * When the code was sent (ms since the epoch; the code flow's `codeSentAt`), so the 30 s
   * cooldown counts from the send, not from the screen's mount. Default: when it mounted.
   */
  codeSentAt?: number | null
}

export function CodeEntryScreen(props: CodeEntryScreenProps) {
  const kernel = useKernel()
  const screen = useScreen()
  const boxes = useRef<CodeInputHandle>(null)
  const [status, setStatus] = useState<CodeEntryStatus>('awaiting')
  const [message, setMessage] = useState<string | null>(null)
  const [ownSentAt, setSentAt] = useState(() => Date.now())
  // The flow's send time when given (a resend updates it), else the screen's own.
  const sentAt = props.codeSentAt ?? ownSentAt
  const [now, setNow] = useState(() => Date.now())
  const [resending, setResending] = useState(false)
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null)

  const cooling = now - sentAt < RESEND_COOLDOWN_MS
  useEffect(() => {
    if (!cooling) return
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [cooling, sentAt])
  useEffect(() => () => void (resetTimer.current && clearTimeout(resetTimer.current)), [])

  const ownScreen = (e: unknown) =>
    props.hasOwnScreen ? props.hasOwnScreen(e) : kernel.screens.hasOwnScreen(e, { method: props.method })

  const submit = async (code: string) => {
    if (status === 'submitting' || status === 'success') return
    setStatus('submitting')
    setMessage(null)
    try {
      await props.submit(code, () => setStatus('success'))
      setStatus('success')
    } catch (e) {
      if (ownScreen(e)) {
        setStatus('awaiting')
        boxes.current?.reset()
        screen.error(e, { method: props.method })
        return
      }
      setStatus('error')
      setMessage(props.errorMessage(e))
      resetTimer.current = setTimeout(() => {
        setStatus('awaiting')
        setMessage(null)
        boxes.current?.reset()
      }, CODE_RESET_MS)
    }
  }

  const resend = async () => {
    setResending(true)
    try {
      await props.resend()
      setSentAt(Date.now())
      setNow(Date.now())
      setMessage(null)
      setStatus('awaiting')
      boxes.current?.reset()
    } catch (e) {
      screen.error(e, { method: props.method })
    } finally {
      setResending(false)
    }
  }

  const ring = status === 'success' ? 'success' : status === 'submitting' ? 'loading' : status === 'error' ? 'error' : 'idle'
  return (
    <ScreenLayout
      title={props.title}
      description={props.description}
      icon={
        <StatusIcon status={ring} label={status === 'success' && props.texts.success ? props.texts.success : status}>
          {props.icon}
        </StatusIcon>
      }
    >
      <div data-portico-code-status={status} data-method={props.method}>
        <CodeInput
          ref={boxes}
          length={CODE_LENGTH}
          onComplete={(code) => void submit(code)}
          disabled={status === 'submitting' || status === 'success'}
          status={status === 'success' ? 'success' : status === 'error' ? 'error' : 'idle'}
          error={message}
        />
      </div>
      <p className="portico-help">
        {cooling ? (
          <span className="portico-indicator" data-portico-code-sent="" role="status">
            <CheckIcon width={16} height={16} />
            {props.texts.codeSent}
          </span>
        ) : (
          <>
            <span>{props.texts.helpLine}</span>
            <Button
              variant="ghost"
              fullWidth={false}
              onClick={() => void resend()}
              loading={resending}
              disabled={status === 'submitting' || status === 'success'}
            >
              {props.texts.resendCode}
            </Button>
          </>
        )}
      </p>
    </ScreenLayout>
  )
}
