/**
 * The 'sms-code' screen (part 1 sections 2, 4, 5, 8, 9): six boxes (all six digits submit),
 * 'Code sent' and 'Resend code' with a 30 s cooldown, a help line, success and fail states.
 * A failed code shows 'Invalid or expired verification code' (or the server's message for
 * cannot-link-more, else 'Issue verifying code') and the boxes reset 1.4 s later. Errors with
 * a screen of their own (link conflict, allowlist, region, ...) go there.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { toPorticoError } from 'portico'
import { Button, CodeInput, ScreenLayout, StatusIcon, icons, useCompleteLogin, useKernel, useScreen, type CodeInputHandle } from 'portico/ui'
import { codeErrorMessage, showsOwnScreen } from '../errors'
import { smsFlow } from '../flow'
import { SMS_TEXTS } from '../strings'

const RESEND_COOLDOWN_MS = 30_000
const CODE_RESET_MS = 1400

/** Formats an E.164 number for display ('+1 415 555 0100'). */
const pretty = (number: string) => parsePhoneNumberFromString(number)?.formatInternational() ?? number

export function SmsCodeScreen() {
  const kernel = useKernel()
  const flow = smsFlow(kernel)
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const { intent, params, error: showError } = useScreen<{ disableSignup?: boolean }>()
  const complete = useCompleteLogin()
  const boxes = useRef<CodeInputHandle>(null)
  const [status, setStatus] = useState<'idle' | 'submitting' | 'success' | 'error'>('idle')
  const [message, setMessage] = useState<string | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const [resending, setResending] = useState(false)

  const shown = state.phoneNumber ? pretty(state.phoneNumber) : ''

  const sentAt = state.codeSentAt ?? 0
  const cooling = now - sentAt < RESEND_COOLDOWN_MS
  useEffect(() => {
    if (!cooling) return
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [cooling, sentAt])
  useEffect(() => setNow(Date.now()), [sentAt])

  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => void (resetTimer.current && clearTimeout(resetTimer.current)), [])

  const submit = async (code: string) => {
    if (status === 'submitting' || status === 'success') return
    setStatus('submitting')
    setMessage(null)
    try {
      await flow.submitCode(code, {
        intent,
        disableSignup: params.disableSignup === true,
        complete: async (res, meta) => {
          setStatus('success')
          return complete(res, meta)
        },
      })
      setStatus('success')
    } catch (e) {
      const err = toPorticoError(e)
      if (showsOwnScreen(err)) {
        setStatus('idle')
        boxes.current?.reset()
        showError(err, { method: 'sms' })
        return
      }
      setStatus('error')
      setMessage(codeErrorMessage(err))
      resetTimer.current = setTimeout(() => {
        setStatus('idle')
        setMessage(null)
        boxes.current?.reset()
      }, CODE_RESET_MS)
    }
  }

  const resend = async () => {
    setResending(true)
    try {
      await flow.resendCode()
      setMessage(null)
      setStatus('idle')
      boxes.current?.reset()
    } catch (e) {
      showError(e, { method: 'sms' })
    } finally {
      setResending(false)
    }
  }

  return (
    <ScreenLayout
      title={SMS_TEXTS.codeHeading}
      description={
        shown ? (
          <>
            {SMS_TEXTS.codeSentToBefore} <span className="portico-emphasis">{shown}</span> {SMS_TEXTS.codeSentToAfter}
          </>
        ) : undefined
      }
      icon={
        <StatusIcon status={status === 'success' ? 'success' : status === 'error' ? 'error' : 'loading'} label={status === 'success' ? SMS_TEXTS.success : status}>
          <icons.PhoneIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div data-portico-code-status={status} data-portico-sms-code="">
        <CodeInput
          ref={boxes}
          onComplete={(code) => void submit(code)}
          disabled={status === 'submitting' || status === 'success'}
          status={status === 'success' ? 'success' : status === 'error' ? 'error' : 'idle'}
          error={message}
        />
      </div>
      <p className="portico-help">
        {cooling ? (
          <span className="portico-indicator" data-portico-code-sent="" role="status">
            <icons.CheckIcon width={16} height={16} />
            {SMS_TEXTS.codeSent}
          </span>
        ) : (
          <>
            <span>{SMS_TEXTS.helpLine}</span>
            <Button variant="ghost" fullWidth={false} onClick={() => void resend()} loading={resending} disabled={status === 'submitting' || status === 'success'}>
              {SMS_TEXTS.resendCode}
            </Button>
          </>
        )}
      </p>
    </ScreenLayout>
  )
}

export default SmsCodeScreen
