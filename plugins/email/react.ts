/**
 * React hooks of the e-mail plugin: the headless login (`useLoginWithEmail`, the flow without
 * the modal's screens) and the e-mail management (`useUpdateEmail`, `useUnlinkEmail`).
 */
import { useCallback, useRef } from 'react'
import { PorticoError, toPorticoError, type AuthResult, type FlowResult } from 'portico'
import { useKernel, usePlugin, useStore, type FlowCallbacks, type LoginSuccess } from 'portico/ui'
import type { EmailFlowState } from './flow'

export interface UseLoginWithEmailOptions {
  onComplete?: (result: LoginSuccess) => void
  onError?: (error: PorticoError) => void
}

/**
 * Headless e-mail login: `sendCode({ email })`, then `loginWithCode({ code })`; `state` is the
 * flow's state (initial, sending-code, awaiting-code-input, submitting-code, done, error).
 * Both reject with the `PorticoError` (after `onError`); while a non-guest user is logged in
 * they refuse with `already_logged_in`.
 */
export function useLoginWithEmail(options: UseLoginWithEmailOptions = {}) {
  const kernel = useKernel()
  const flow = usePlugin('email')
  const state: EmailFlowState = useStore(flow.state)
  const cb = useRef(options)
  cb.current = options
  const signup = useRef<boolean | undefined>(undefined)

  const fail = useCallback((e: unknown): never => {
    const error = toPorticoError(e)
    cb.current.onError?.(error)
    throw error
  }, [])

  const sendCode = useCallback(
    async ({ email, disableSignup, token }: { email: string; disableSignup?: boolean; token?: string }) => {
      try {
        await kernel.ready()
        await flow.sendCode({ email, intent: 'login', token })
        signup.current = disableSignup
      } catch (e) {
        fail(e)
      }
    },
    [kernel, flow, fail],
  )

  const loginWithCode = useCallback(
    async ({ code, email }: { code: string; email?: string }): Promise<AuthResult> => {
      try {
        const result = await flow.loginWithCode({ code, email, disableSignup: signup.current })
        cb.current.onComplete?.({ ...result, method: 'email' })
        return result
      } catch (e) {
        return fail(e)
      }
    },
    [flow, fail],
  )

  return { sendCode, loginWithCode, state }
}

/** `updateEmail()` opens the e-mail form with intent 'update'; needs a linked e-mail. */
export function useUpdateEmail(callbacks: FlowCallbacks = {}) {
  const kernel = useKernel()
  const cb = useRef(callbacks)
  cb.current = callbacks
  const updateEmail = useCallback(async (): Promise<FlowResult> => {
    let result: FlowResult
    // The texts load during start-up.
    await kernel.ready().catch(() => {})
    const texts = kernel.plugin('email').texts()
    if (!kernel.session.authenticated) {
      result = { ok: false, error: new PorticoError('must_be_authenticated', texts.mustBeAuthenticatedToUpdate) }
    } else if (!kernel.session.user?.email) {
      result = { ok: false, error: new PorticoError('failed_to_update_account', texts.updateRequiresEmail) }
    } else {
      result = await kernel.screens.open('email-form', {}, { intent: 'update' })
    }
    if (result.ok) cb.current.onComplete?.(result.value as never)
    else cb.current.onError?.(result.error)
    return result
  }, [kernel])
  return { updateEmail }
}

/** `unlinkEmail(address?)`: POST /passwordless/unlink; updates the user record. */
export function useUnlinkEmail() {
  const flow = usePlugin('email')
  const unlink = useCallback(
    async (address?: string) => {
      try {
        return await flow.unlink(address)
      } catch (e) {
        throw toPorticoError(e)
      }
    },
    [flow],
  )
  return { unlinkEmail: unlink }
}
