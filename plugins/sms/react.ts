/** React hooks of the SMS plugin: the headless login and the phone-account management. */
import { useCallback, useMemo } from 'react'
import { PorticoError, type FlowResult, type User } from 'portico'
import { useKernel, usePlugin, useStore } from 'portico/ui'
import type { SmsState } from './flow'

/**
 * Headless SMS login: `sendCode({ phoneNumber })`, then `loginWithCode({ code })`; `state`
 * is the flow's state (initial, sending-code, awaiting-code-input, submitting-code, done, error).
 * Refuses with `already_logged_in` while a non-guest user is logged in.
 */
export function useLoginWithSms() {
  const flow = usePlugin('sms')
  const state: SmsState = useStore(flow.state)
  const sendCode = useCallback(
    (options: { phoneNumber: string; token?: string; country?: string }) => flow.sendCode({ ...options, intent: 'login' }),
    [flow],
  )
  const loginWithCode = useCallback((options: { code: string; disableSignup?: boolean }) => flow.loginWithCode(options), [flow])
  return { sendCode, loginWithCode, state }
}

/**
 * Manage the user's phone number with the modal: `link()` and `update()` open the phone screen
 * with intent 'link' / 'update' (then the code screen); `unlink()` removes it.
 */
export function usePhoneAccount() {
  const kernel = useKernel()
  const flow = usePlugin('sms')
  const open = useCallback(
    async (intent: 'link' | 'update'): Promise<FlowResult> => {
      // The texts load with the phone screen's chunk (not in the page's first load).
      const texts = kernel.texts('sms', (await import('./strings')).SMS_TEXTS)
      if (!kernel.session.authenticated || !kernel.session.user) {
        return { ok: false, error: new PorticoError('must_be_authenticated', texts.mustBeAuthenticated) }
      }
      if (intent === 'update' && !kernel.session.user.phone) {
        return { ok: false, error: new PorticoError('invalid_data', texts.needPhoneToUpdate) }
      }
      await kernel.ready().catch(() => {})
      flow.reset()
      return kernel.screens.open('sms-phone', {}, { intent })
    },
    [kernel, flow],
  )
  const link = useCallback(() => open('link'), [open])
  const update = useCallback(() => open('update'), [open])
  const unlink = useCallback((phoneNumber?: string): Promise<User> => flow.unlink(phoneNumber), [flow])
  return useMemo(() => ({ link, update, unlink }), [link, update, unlink])
}
