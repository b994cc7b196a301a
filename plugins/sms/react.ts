/** React hooks of the SMS plugin: the headless login and the phone-account management. */
import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { PorticoError, type FlowResult, type User } from 'portico'
import { useKernel } from 'portico/ui'
import { smsFlow, type SmsState } from './flow'
import { SMS_TEXTS } from './strings'

/**
 * Headless SMS login: `sendCode({ phoneNumber })`, then `loginWithCode({ code })`; `state`
 * is the flow's state (initial, sending-code, awaiting-code-input, submitting-code, done, error).
 */
export function useLoginWithSms() {
  const flow = smsFlow(useKernel())
  const state: SmsState = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const sendCode = useCallback(
    (options: { phoneNumber: string; token?: string; country?: string }) => flow.sendCode({ ...options, intent: 'login' }),
    [flow],
  )
  const loginWithCode = useCallback(
    (options: { code: string; disableSignup?: boolean }) => flow.loginWithCode(options),
    [flow],
  )
  return { sendCode, loginWithCode, state }
}

/**
 * Manage the user's phone number with the modal: `link()` and `update()` open the phone screen
 * with intent 'link' / 'update' (then the code screen); `unlink()` removes it.
 */
export function usePhoneAccount() {
  const kernel = useKernel()
  const flow = smsFlow(kernel)
  const open = useCallback(
    async (intent: 'link' | 'update'): Promise<FlowResult> => {
      if (!kernel.session.authenticated || !kernel.session.user) {
        return { ok: false, error: new PorticoError('must_be_authenticated', SMS_TEXTS.mustBeAuthenticated) }
      }
      if (intent === 'update' && !kernel.session.user.phone) {
        return { ok: false, error: new PorticoError('invalid_data', SMS_TEXTS.needPhoneToUpdate) }
      }
      await kernel.ready().catch(() => {})
      flow.reset()
      return kernel.screens.open('sms', {}, { intent })
    },
    [kernel, flow],
  )
  const link = useCallback(() => open('link'), [open])
  const update = useCallback(() => open('update'), [open])
  const unlink = useCallback(
    (phoneNumber?: string): Promise<User> => {
      const n = phoneNumber ?? kernel.session.user?.phone?.number
      if (!n) return Promise.reject(new PorticoError('invalid_data', 'The user has no phone number to unlink.'))
      return flow.unlink(n)
    },
    [kernel, flow],
  )
  return useMemo(() => ({ link, update, unlink }), [link, update, unlink])
}
