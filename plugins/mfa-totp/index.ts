/**
 * portico/plugins/mfa-totp — the authenticator-app MFA method (spec part 2 sections 2 and 4):
 * 'mfa-totp' shows the QR code (the shared `portico/ui/qr`, lazy) and the copyable secret,
 * 'mfa-totp-code' takes the first code, then 'Authenticator app verification added'. The
 * otpauth:// URI is read with `otpauth` (lazy). Needs the base: `plugins: [mfa(), mfaTotp()]`.
 * Headless: `kernel.plugin('mfa-totp').initEnrollment()` → `{ authUrl, secret }`, then
 * `submitEnrollment({ code })`.
 */
import { definePlugin, type PorticoPlugin, type WireUser } from 'portico'
import { MFA_TEXTS, validateMfaCode, type MfaMethodPluginApi } from 'portico/plugins/mfa'
import { initTotpEnrollment, submitTotpEnrollment, type TotpEnrollmentInfo } from './calls'
export { MFA_TOTP_TEXTS } from './strings'
export { initTotpEnrollment, submitTotpEnrollment, type TotpEnrollmentInfo } from './calls'

export const MFA_TOTP_SCREENS = { enrol: 'mfa-totp', code: 'mfa-totp-code' } as const

export interface MfaTotpApi extends MfaMethodPluginApi {
  type: 'totp'
  initEnrollment(): Promise<TotpEnrollmentInfo>
  submitEnrollment(options: { code: string }): Promise<{ user: WireUser }>
}

declare module 'portico' {
  interface PluginApis {
    'mfa-totp': MfaTotpApi
  }
}

export function mfaTotp(): PorticoPlugin<'mfa-totp'> {
  return definePlugin({
    id: 'mfa-totp',
    kind: 'mfa',
    setup(ctx) {
      const api: MfaTotpApi = {
        type: 'totp',
        initEnrollment: () => initTotpEnrollment(ctx.api),
        submitEnrollment: async ({ code }) => submitTotpEnrollment(ctx.api, validateMfaCode(code, ctx.texts(MFA_TEXTS, 'mfa'))),
      }
      ctx.provide(api)
      ctx.screens.register({ id: MFA_TOTP_SCREENS.enrol, load: () => import('./screens/enrol') })
      ctx.screens.register({ id: MFA_TOTP_SCREENS.code, load: () => import('./screens/code') })
    },
  })
}
