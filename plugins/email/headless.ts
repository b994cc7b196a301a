/** `useLoginWithEmail()`: the e-mail flow without the modal's screens (host-drawn UI). */
import { useCallback, useRef, useState } from 'react'
import { toPorticoError, type PorticoError } from 'portico'
import { useKernel, type LoginSuccess } from 'portico/ui'
import { authenticateEmail, initEmail } from './calls'
import { checkEmail } from './errors'
import { emailOptions } from './options'
import { EMAIL_TEXTS } from './strings'
import { PorticoError as Err } from 'portico'

export type EmailFlowStatus = 'initial' | 'sending-code' | 'awaiting-code-input' | 'submitting-code' | 'done' | 'error'

export interface EmailFlowState {
  status: EmailFlowStatus
  error: PorticoError | null
}

export interface UseLoginWithEmailOptions {
  onComplete?: (result: LoginSuccess) => void
  onError?: (error: PorticoError) => void
}

export function useLoginWithEmail(options: UseLoginWithEmailOptions = {}) {
  const kernel = useKernel()
  const [state, setState] = useState<EmailFlowState>({ status: 'initial', error: null })
  const cb = useRef(options)
  cb.current = options
  const emailRef = useRef<string | null>(null)
  const signupRef = useRef<boolean | undefined>(undefined)

  const fail = useCallback((e: unknown) => {
    const error = toPorticoError(e)
    setState({ status: 'error', error })
    cb.current.onError?.(error)
    throw error
  }, [])

  const sendCode = useCallback(
    async ({ email, disableSignup }: { email: string; disableSignup?: boolean }) => {
      const address = email.trim()
      const check = checkEmail(address, kernel.config.disablePlusEmails)
      if (!check.valid) {
        return fail(
          new Err(check.error ? 'disallowed_plus_email' : 'invalid_data', check.error ?? 'Invalid email address', { kind: 'client_error' }),
        )
      }
      setState({ status: 'sending-code', error: null })
      try {
        await kernel.ready()
        await initEmail(kernel.api, address)
        emailRef.current = address
        signupRef.current = disableSignup
        setState({ status: 'awaiting-code-input', error: null })
      } catch (e) {
        fail(e)
      }
    },
    [kernel, fail],
  )

  const loginWithCode = useCallback(
    async ({ code, email }: { code: string; email?: string }) => {
      const address = email?.trim() ?? emailRef.current
      if (!address) return fail(new Err('invalid_data', 'Call sendCode({ email }) first.'))
      const trimmed = code.replace(/\s+/g, '')
      if (!/^\d{6}$/.test(trimmed)) return fail(new Err('invalid_data', 'Code should be numeric', { kind: 'client_error' }))
      setState({ status: 'submitting-code', error: null })
      try {
        const disable = signupRef.current ?? emailOptions(kernel).disableSignup
        const res = await authenticateEmail(kernel.api, { email: address, code: trimmed, mode: disable ? 'no-signup' : 'login-or-sign-up' })
        const result = await kernel.completeLogin(res, { method: 'email', intent: 'login' })
        setState({ status: 'done', error: null })
        cb.current.onComplete?.({ ...result, method: 'email' })
        return result
      } catch (e) {
        const err = toPorticoError(e)
        if (err.code === 'invalid_credentials') {
          const shown = new Err(err.code, EMAIL_TEXTS.invalidCode, { cause: err, kind: err.kind, status: err.status })
          return fail(shown)
        }
        return fail(err)
      }
    },
    [kernel, fail],
  )

  return { sendCode, loginWithCode, state }
}
