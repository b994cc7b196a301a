/**
 * portico/plugins/sms — log in, link, update and unlink with an SMS one-time code (spec part 1
 * sections 2, 4, 5, 7, 8). Landing: an inline phone input (country selector, formatting as
 * typed, Submit disabled while invalid, consent line with the app name), or an 'SMS' row that
 * opens the 'sms-phone' screen; then the 'sms-code' screen (6 boxes, 'Code sent', 'Resend
 * code' with a 30 s cooldown, reset 1.4 s after a failed code), on the shared code-entry flow
 * (`portico/plugins/code`). Headless: `useLoginWithSms()`; without React: `kernel.plugin('sms')`.
 */
import { definePlugin, normaliseFields, type PhoneAccount, type PorticoPlugin } from 'portico'
import { PhoneIcon } from 'portico/ui/core'
import { INITIAL_CODE_STATE } from 'portico/plugins/code'
import { transferSms, unlinkSms } from './calls'
import { smsErrors } from './errors'
import { createSmsFlow, type SmsApi, type SmsState } from './flow'
import { preloadPhoneForm, SmsLoginInput } from './screens/login-input'
import { SMS_TEXTS } from './strings'

export { toE164, type SmsApi, type SmsState, type SmsStatus, type SendCodeOptions, type SubmitOptions, type Completer } from './flow'
export { useLoginWithSms, usePhoneAccount } from './react'
export { codeErrorMessage, smsErrors } from './errors'
export { SMS_TEXTS } from './strings'
export { initSms, authenticateSms, linkSms, updateSms, unlinkSms, transferSms, type SignupMode } from './calls'

export type SmsTexts = typeof SMS_TEXTS

declare module 'portico' {
  interface PluginApis {
    sms: SmsApi
  }
}

/** Screen ids this plugin registers. */
export const SMS_SCREENS = { phone: 'sms-phone', code: 'sms-code' } as const

export interface SmsOptions {
  /** Login only, no sign-up ('no-signup' mode). Default false. */
  disableSignup?: boolean
}

/** A phone account from the wire ('number', or the older 'phone_number'). */
function normalisePhone(raw: Parameters<typeof normaliseFields>[0]): PhoneAccount {
  const account = normaliseFields<PhoneAccount>(raw, 'number:S')
  const r = raw as unknown as Record<string, unknown>
  if (!account.number && typeof r.phone_number === 'string') account.number = r.phone_number
  return account
}

export function sms(options: SmsOptions = {}): PorticoPlugin<'sms'> {
  return definePlugin({
    id: 'sms',
    kind: 'login',
    setup(ctx) {
      const texts = () => ctx.texts(SMS_TEXTS)
      const store = ctx.store<SmsState>(INITIAL_CODE_STATE)
      ctx.provide(createSmsFlow(ctx, store, options))
      ctx.declareErrors(smsErrors(texts))
      ctx.methods.declare({
        id: 'sms',
        displayName: texts().displayName,
        accountTypes: ['phone'],
        userField: 'phone',
        normalise: normalisePhone,
        transferLabel: texts().methodLabel,
        transfer: (api, data) => transferSms(api, data.nonce, data.account),
        unlink: (api, account) => unlinkSms(api, (account as PhoneAccount).number),
      })
      ctx.screens.register({ id: SMS_SCREENS.phone, load: () => import('./screens/phone-screen') })
      ctx.screens.register({ id: SMS_SCREENS.code, load: () => import('./screens/code-screen') })
      ctx.hooks.loginMethods.tap('sms', (methods, { config }) => {
        if (!config.loginMethods.includes('sms')) return methods
        return [
          ...methods,
          {
            id: 'sms',
            label: texts().displayName,
            group: 'web2' as const,
            icon: PhoneIcon,
            screen: SMS_SCREENS.phone,
            params: { disableSignup: options.disableSignup === true },
            input: SmsLoginInput,
            preload: preloadPhoneForm,
          },
        ]
      })
    },
  })
}
