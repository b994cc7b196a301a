/**
 * portico/plugins/sms — log in, link, update and unlink with an SMS one-time code (spec part 1
 * sections 2, 4, 5, 7, 8). Landing: an inline phone input (country selector, formatting as
 * typed, Submit disabled while invalid, consent line with the app name), or an 'SMS' row that
 * opens the 'sms-phone' screen; then the 'sms-code' screen (6 boxes, 'Code sent', 'Resend
 * code' with a 30 s cooldown, reset 1.4 s after a failed code), on the shared code-entry flow
 * (`portico/kits/code`). Headless: `useLoginWithSms()`; without React: `kernel.plugin('sms')`.
 */
import { definePlugin, normaliseFields, type PhoneAccount, type PorticoPlugin } from 'portico'
import { PhoneIcon } from 'portico/ui'
import type { SmsApi, SmsState } from './flow'
import { preloadPhoneForm, SmsLoginInput } from './screens/login-input'

// The texts load during start-up; the flow, its calls, error views and screens on first use
// (the flow also with the landing's preload once the app is ready): only their types are here.
export type { SmsApi, SmsState, SmsStatus, SendCodeOptions, SubmitOptions, Completer } from './flow'
export { useLoginWithSms, usePhoneAccount } from './react'
export type { SignupMode } from './calls'

export type SmsTexts = typeof import('./strings').SMS_TEXTS

/**
 * A typed number to E.164 for the given country; rejects with `invalid_data` when it is not
 * valid there. Asynchronous: libphonenumber-js loads on first use (a lazy chunk).
 */
export async function toE164(value: string, country: string = 'US', message?: string): Promise<string> {
  return (await import('./e164')).toE164Sync(value, country, message)
}

declare module 'portico' {
  interface PluginApis {
    sms: SmsApi
  }
  interface UserFields {
    phone?: PhoneAccount
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

export function sms(options: SmsOptions = {}): PorticoPlugin<'sms', SmsTexts> {
  return definePlugin({
    id: 'sms',
    kind: 'login',
    texts: () => import('./strings').then((m) => m.SMS_TEXTS),
    errors: (texts) => import('./errors').then((m) => m.smsErrors(texts)),
    screens: { [SMS_SCREENS.phone]: () => import('./screens/phone-screen'), [SMS_SCREENS.code]: () => import('./screens/code-screen') },
    method: {
      displayName: (t) => t.displayName,
      transferLabel: (t) => t.methodLabel,
      accountTypes: ['phone'],
      userField: 'phone',
      normalise: normalisePhone,
      transfer: async (api, data) => (await import('./calls')).transferSms(api, data.nonce, data.account),
      unlink: async (api, account) => (await import('./calls')).unlinkSms(api, (account as PhoneAccount).number),
    },
    setup(ctx) {
      // The code flow's initial state, inline (as e-mail's): the code kit stays out of the first load.
      const state = ctx.store<SmsState>({ status: 'initial', destination: null, intent: 'login', error: null, codeSentAt: null })
      const flow = ctx.lazy(() => import('./flow').then((m) => m.createSmsFlow(ctx, state, options)))
      ctx.provide<SmsApi>({
        getState: () => state.get(),
        subscribe: (listener) => state.subscribe(listener),
        state,
        ...flow.methods('sendCode', 'resendCode', 'loginWithCode', 'linkWithCode', 'updateWithCode', 'submitCode', 'unlink', 'transfer'),
        reset: () => (flow.current ? flow.current.reset() : state.reset()),
      })
      ctx.hooks.loginMethods.tap('sms', (methods, { config }) => {
        if (!config.loginMethods.includes('sms')) return methods
        return [
          ...methods,
          {
            id: 'sms',
            label: ctx.texts().displayName,
            group: 'web2' as const,
            icon: PhoneIcon,
            screen: SMS_SCREENS.phone,
            params: { disableSignup: options.disableSignup === true },
            input: SmsLoginInput,
            // The phone form (libphonenumber-js) and the flow a submit runs.
            preload: () => Promise.all([preloadPhoneForm(), flow()]),
          },
        ]
      })
    },
  })
}
