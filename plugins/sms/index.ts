/**
 * portico/plugins/sms — log in, link, update and unlink with an SMS one-time code (spec part 1
 * sections 2, 4, 5, 7, 8). Landing: an inline phone input (country selector, formatting as
 * typed, Submit disabled while invalid, consent line with the app name), or an 'SMS' row that
 * opens the 'sms' screen; then the 'sms-code' screen (6 boxes, 'Code sent', 'Resend code'
 * with a 30 s cooldown, reset 1.4 s after a failed code). Headless: `useLoginWithSms()`.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { icons } from 'portico/ui'
import { smsErrorView } from './errors'
import { createSmsFlow, registerSmsFlow } from './flow'
import { SmsLoginInput } from './screens/login-input'
import { SMS_TEXTS } from './strings'

export { smsFlow, toE164, normaliseCode, type SmsFlow, type SmsState, type SmsStatus, type SendCodeOptions, type Completer } from './flow'
export { useLoginWithSms, usePhoneAccount } from './hooks'
export { codeErrorMessage, smsErrorView } from './errors'
export { SMS_TEXTS } from './strings'
export * as smsCalls from './calls'

/** Screen ids this plugin registers. */
export const SMS_SCREENS = { phone: 'sms', code: 'sms-code' } as const

/** Resend cooldown and code-box reset (part 1 sections 4 and 9), shared by every code screen. */
export { RESEND_COOLDOWN_MS, CODE_RESET_MS } from 'portico/ui'

export interface SmsOptions {
  /** Login only, no sign-up ('no-signup' mode). Default false. */
  disableSignup?: boolean
}

export function sms(options: SmsOptions = {}): PorticoPlugin<'sms'> {
  return definePlugin({
    id: 'sms',
    kind: 'login',
    setup(ctx) {
      const flow = createSmsFlow(ctx)
      const unregisterFlow = registerSmsFlow(ctx.session, flow)
      const offPhone = ctx.screens.register({
        id: SMS_SCREENS.phone,
        load: () => import('./screens/phone-screen').then((m) => m.SmsPhoneScreen),
      })
      const offCode = ctx.screens.register({
        id: SMS_SCREENS.code,
        load: () => import('./screens/code-screen').then((m) => m.SmsCodeScreen),
      })
      ctx.hooks.loginMethods.tap('sms', (methods, { config }) => {
        if (!config.loginMethods.includes('sms')) return methods
        return [
          ...methods,
          {
            id: 'sms',
            label: SMS_TEXTS.displayName,
            group: 'web2' as const,
            icon: icons.PhoneIcon,
            screen: SMS_SCREENS.phone,
            params: { disableSignup: options.disableSignup === true },
            input: SmsLoginInput,
          },
        ]
      })
      ctx.hooks.errorView.tap('sms', (error) => smsErrorView(error))
      return () => {
        unregisterFlow()
        offPhone()
        offCode()
      }
    },
  })
}
