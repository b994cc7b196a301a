/**
 * portico/plugins/mfa-sms — the SMS MFA method (spec part 2 sections 2, 4, 5): 'mfa-sms' takes
 * the phone number with the consent text naming the app, 'mfa-sms-code' the code (back
 * returns to the number), then 'SMS verification added'. The server refuses it to a user who
 * logs in with SMS (the method list shows it Disabled). Needs the base:
 * `plugins: [mfa(), mfaSms()]`. Headless: `kernel.plugin('mfa-sms').initEnrollment({ phoneNumber })`,
 * then `submitEnrollment({ phoneNumber, code })`.
 */
import { definePlugin, type PorticoPlugin, type WireUser } from 'portico'
import { MFA_TEXTS, validateMfaCode, type MfaMethodPluginApi } from 'portico/plugins/mfa'
import { initSmsEnrollment, submitSmsEnrollment } from './calls'

export { MFA_SMS_TEXTS } from './strings'
export { initSmsEnrollment, submitSmsEnrollment } from './calls'

export const MFA_SMS_SCREENS = { enrol: 'mfa-sms', code: 'mfa-sms-code' } as const

export interface MfaSmsApi extends MfaMethodPluginApi {
  type: 'sms'
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
      const api: MfaSmsApi = {
        type: 'sms',
        initEnrollment: ({ phoneNumber }) => initSmsEnrollment(ctx.api, phoneNumber),
        submitEnrollment: async ({ phoneNumber, code }) => submitSmsEnrollment(ctx.api, phoneNumber, validateMfaCode(code, ctx.texts(MFA_TEXTS, 'mfa'))),
      }
      ctx.provide(api)
      ctx.screens.register({ id: MFA_SMS_SCREENS.enrol, load: () => import('./screens/phone') })
      ctx.screens.register({ id: MFA_SMS_SCREENS.code, load: () => import('./screens/code') })
    },
  })
}
