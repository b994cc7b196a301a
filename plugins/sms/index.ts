/**
 * portico/plugins/sms — log in, link, update and unlink with an SMS one-time code (spec part 1
 * sections 2, 4, 5, 7, 8). Landing: an inline phone input (country selector, formatting as
 * typed, Submit disabled while invalid, consent line with the app name), or an 'SMS' row that
 * opens the 'sms-phone' screen; then the 'sms-code' screen (6 boxes, 'Code sent', 'Resend
 * code' with a 30 s cooldown, reset 1.4 s after a failed code), on the shared code-entry flow
 * (`portico/kits/code`). Headless: `useLoginWithSms()`; without React: `kernel.plugin('sms')`.
 */
import { definePlugin, lazyOnce, normaliseFields, type PhoneAccount, type PorticoPlugin } from 'portico'
import { PhoneIcon } from 'portico/ui'
import type { SmsApi, SmsState } from './flow'
import { smsLabel } from './labels'
import { preloadPhoneForm, SmsLoginInput } from './screens/login-input'

// The flow, its calls, error views and texts load on first use (or with the landing's preload
// once the app is ready): only their types are here.
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
      const label = (key: 'displayName' | 'methodLabel') => smsLabel(ctx.config.texts.sms, key)
      // The code flow's initial state, inline (as e-mail's): the code kit stays out of the first load.
      const state = ctx.store<SmsState>({ status: 'initial', destination: null, intent: 'login', error: null, codeSentAt: null })
      const load = lazyOnce(() => import('./flow').then((m) => m.createSmsFlow(ctx, state, options)))
      ctx.provide<SmsApi>({
        getState: () => state.get(),
        subscribe: (listener) => state.subscribe(listener),
        state,
        sendCode: async (o) => (await load()).sendCode(o),
        resendCode: async (token) => (await load()).resendCode(token),
        loginWithCode: async (o) => (await load()).loginWithCode(o),
        linkWithCode: async (o) => (await load()).linkWithCode(o),
        updateWithCode: async (o) => (await load()).updateWithCode(o),
        submitCode: async (code, o) => (await load()).submitCode(code, o),
        unlink: async (n) => (await load()).unlink(n),
        transfer: async (o) => (await load()).transfer(o),
        reset: () => (load.current ? load.current.reset() : state.reset()),
      })
      ctx.declareErrors(() =>
        Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.smsErrors(() => ctx.texts(s.SMS_TEXTS))),
      )
      ctx.methods.declare({
        id: 'sms',
        displayName: label('displayName'),
        accountTypes: ['phone'],
        userField: 'phone',
        normalise: normalisePhone,
        transferLabel: label('methodLabel'),
        transfer: async (api, data) => (await import('./calls')).transferSms(api, data.nonce, data.account),
        unlink: async (api, account) => (await import('./calls')).unlinkSms(api, (account as PhoneAccount).number),
      })
      ctx.screens.register({ id: SMS_SCREENS.phone, load: () => import('./screens/phone-screen') })
      ctx.screens.register({ id: SMS_SCREENS.code, load: () => import('./screens/code-screen') })
      ctx.hooks.loginMethods.tap('sms', (methods, { config }) => {
        if (!config.loginMethods.includes('sms')) return methods
        return [
          ...methods,
          {
            id: 'sms',
            label: label('displayName'),
            group: 'web2' as const,
            icon: PhoneIcon,
            screen: SMS_SCREENS.phone,
            params: { disableSignup: options.disableSignup === true },
            input: SmsLoginInput,
            // The phone form (libphonenumber-js) and the flow a submit runs.
            preload: () => Promise.all([preloadPhoneForm(), load()]),
          },
        ]
      })
    },
  })
}
