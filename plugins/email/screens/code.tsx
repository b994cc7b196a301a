/**
 * 'email-code', awaiting passwordless code (part 1 sections 2 and 4): six boxes, submits at
 * the sixth digit, 'Code sent' indicator, 'Resend code' with a 30 s cooldown, boxes reset
 * 1.4 s after a failed code. The navigator's intent picks authenticate, link or update.
 */
import { useEffect, useRef, useState } from 'react'
import {
  Button,
  CodeInput,
  ScreenLayout,
  StatusIcon,
  icons,
  useCompleteLogin,
  useKernel,
  useScreen,
  type CodeInputHandle,
  type ScreenProps,
} from 'portico/ui'
import { authenticateEmail, initEmail, linkEmail, updateEmail } from '../calls'
import { codeErrorMessage } from '../errors'
import { CODE_LENGTH, CODE_RESET_MS, EMAIL_TEXTS, RESEND_COOLDOWN_MS } from '../strings'
import { emailOptions } from '../options'

type Status = 'awaiting' | 'submitting' | 'success' | 'error'

export default function EmailCodeScreen({ params }: ScreenProps<{ email: string }>) {
  const kernel = useKernel()
  const screen = useScreen()
  const complete = useCompleteLogin()
  const email = String(params.email ?? '')
  const boxes = useRef<CodeInputHandle>(null)
  const [status, setStatus] = useState<Status>('awaiting')
  const [message, setMessage] = useState<string | null>(null)
  const [cooldownUntil, setCooldownUntil] = useState(() => Date.now() + RESEND_COOLDOWN_MS)
  const [now, setNow] = useState(() => Date.now())
  const [resending, setResending] = useState(false)
  const timers = useRef<ReturnType<typeof setTimeout>[]>([])

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => {
      clearInterval(t)
      timers.current.forEach(clearTimeout)
    }
  }, [])
  const cooling = now < cooldownUntil

  const submit = async (code: string) => {
    setStatus('submitting')
    setMessage(null)
    try {
      const intent = screen.intent
      let res
      if (intent === 'link') res = await linkEmail(kernel.api, { email, code })
      else if (intent === 'update') {
        const oldAddress = kernel.session.user?.email?.address
        if (!oldAddress) throw new Error(EMAIL_TEXTS.updateRequiresEmail)
        res = await updateEmail(kernel.api, { oldAddress, newAddress: email, code })
      } else {
        const mode = emailOptions(kernel).disableSignup ? 'no-signup' : 'login-or-sign-up'
        res = await authenticateEmail(kernel.api, { email, code, mode })
      }
      setStatus('success')
      await complete(res, { method: 'email', intent })
    } catch (e) {
      const view = kernel.screens.resolveError(e, { method: 'email' })
      if (view.screen) {
        setStatus('awaiting')
        boxes.current?.reset()
        screen.error(e, { method: 'email' })
        return
      }
      setStatus('error')
      setMessage(codeErrorMessage(e))
      timers.current.push(
        setTimeout(() => {
          setStatus('awaiting')
          boxes.current?.reset()
        }, CODE_RESET_MS),
      )
    }
  }

  const resend = async () => {
    setResending(true)
    try {
      await initEmail(kernel.api, email)
      setCooldownUntil(Date.now() + RESEND_COOLDOWN_MS)
      setNow(Date.now())
      setMessage(null)
      setStatus('awaiting')
      boxes.current?.reset()
    } catch (e) {
      screen.error(e, { method: 'email' })
    } finally {
      setResending(false)
    }
  }

  return (
    <ScreenLayout
      title={EMAIL_TEXTS.codeTitle}
      description={
        <>
          {EMAIL_TEXTS.codeDescriptionBefore} <span className="portico-emphasis">{email}</span> {EMAIL_TEXTS.codeDescriptionAfter}
        </>
      }
      icon={
        <StatusIcon
          status={status === 'success' ? 'success' : status === 'submitting' ? 'loading' : status === 'error' ? 'error' : 'idle'}
          label={status}
        >
          <icons.MailIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      <div data-portico-code-status={status}>
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
          <span className="portico-indicator" data-portico-code-sent="">
            <icons.CheckIcon width={16} height={16} />
            {EMAIL_TEXTS.codeSent}
          </span>
        ) : (
          <>
            <span>{EMAIL_TEXTS.didNotGetEmail}</span>
            <Button variant="ghost" fullWidth={false} onClick={resend} loading={resending}>
              {EMAIL_TEXTS.resendCode}
            </Button>
          </>
        )}
      </p>
    </ScreenLayout>
  )
}
