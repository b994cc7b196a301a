/**
 * portico/plugins/mfa-sms — the SMS MFA method (spec part 2 sections 2, 4, 5): 'mfa-sms' takes
 * the phone number with the consent text naming the app, 'mfa-sms-code' the code (back
 * returns to the number), then 'SMS verification added'. The server refuses it to a user who
 * logs in with SMS (the method list shows it Disabled). Needs the base:
 * `plugins: [mfa(), mfaSms()]`. Headless: `kernel.plugin('mfa-sms').initEnrollment({ phoneNumber })`,
 * then `submitEnrollment({ phoneNumber, code })`.
 */
import { definePlugin, type PorticoPlugin, type Store, type WireUser } from 'portico'
import { validateMfaCode, type MfaMethodPluginApi } from 'portico/kits/mfa'
import { initSmsEnrollment, submitSmsEnrollment } from './calls'

/** This method's texts (./strings.ts, `MFA_SMS_TEXTS`): its screens load them; apps override them under `texts: { 'mfa-sms': {...} }`. */
export type MfaSmsTexts = typeof import('./strings').MFA_SMS_TEXTS
export { initSmsEnrollment, submitSmsEnrollment } from './calls'

export const MFA_SMS_SCREENS = { enrol: 'mfa-sms', code: 'mfa-sms-code' } as const

/** The number a code was last sent to, and when (ms): back from the code keeps it, and Continue within 30 s sends no second code. */
export interface MfaSmsState {
  phoneNumber: string | null
  sentAt: number | null
}

/** Part 1 section 9: a new code at most every 30 s. */
export const MFA_SMS_RESEND_MS = 30_000

export interface MfaSmsApi extends MfaMethodPluginApi {
  type: 'sms'
  readonly state: Store<MfaSmsState>
  initEnrollment(options: { phoneNumber: string }): Promise<unknown>
  submitEnrollment(options: { phoneNumber: string; code: string }): Promise<{ user: WireUser }>
}

declare module 'portico' {
  interface PluginApis {
    'mfa-sms': MfaSmsApi
  }
}

export function mfaSms(): PorticoPlugin<'mfa-sms'> {
  return definePlugin({
    id: 'mfa-sms',
    kind: 'mfa',
    setup(ctx) {
      const state = ctx.store<MfaSmsState>({ phoneNumber: null, sentAt: null })
      const api: MfaSmsApi = {
        type: 'sms',
        state,
        async initEnrollment({ phoneNumber }) {
          const s = state.get()
          if (s.phoneNumber === phoneNumber && s.sentAt !== null && Date.now() - s.sentAt < MFA_SMS_RESEND_MS) return { success: true }
          const r = await initSmsEnrollment(ctx.api, phoneNumber)
          state.set({ phoneNumber, sentAt: Date.now() })
          return r
        },
        submitEnrollment: async ({ phoneNumber, code }) => submitSmsEnrollment(ctx.api, phoneNumber, validateMfaCode(code, ctx.config.texts.mfa)),
      }
      ctx.provide(api)
      ctx.screens.register({ id: MFA_SMS_SCREENS.enrol, load: () => import('./screens/phone') })
      ctx.screens.register({ id: MFA_SMS_SCREENS.code, load: () => import('./screens/code') })
    },
  })
}
