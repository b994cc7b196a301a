/**
 * portico/plugins/mfa-totp — the authenticator-app MFA method (spec part 2 sections 2 and 4):
 * 'mfa-totp' shows the QR code (the shared `portico/ui/qr`, lazy) and the copyable secret,
 * 'mfa-totp-code' takes the first code, then 'Authenticator app verification added'. The
 * otpauth:// URI is read with `otpauth` (lazy). Needs the base: `plugins: [mfa(), mfaTotp()]`.
 * Headless: `kernel.plugin('mfa-totp').initEnrollment()` → `{ authUrl, secret }`, then
 * `submitEnrollment({ code })`.
 */
import { definePlugin, type PorticoPlugin, type WireUser } from 'portico'
import { validateMfaCode, type MfaMethodPluginApi } from 'portico/kits/mfa'
import { initTotpEnrollment, submitTotpEnrollment, type TotpEnrollmentInfo } from './calls'
/** This method's texts (./strings.ts, `MFA_TOTP_TEXTS`): its screens load them; apps override them under `texts: { 'mfa-totp': {...} }`. */
export type MfaTotpTexts = typeof import('./strings').MFA_TOTP_TEXTS
export { initTotpEnrollment, submitTotpEnrollment, type TotpEnrollmentInfo } from './calls'

/** A started enrolment's secret is reused for 5 minutes (the server keeps it 10). */
export const TOTP_SECRET_REUSE_MS = 300_000

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
      // One secret per enrolment: a second call (a remounted screen, a double click) gets the
      // same one, else the QR shown and the secret the server keeps could differ.
      let current: { at: number; promise: Promise<TotpEnrollmentInfo> } | null = null
      const api: MfaTotpApi = {
        type: 'totp',
        initEnrollment() {
          if (current && Date.now() - current.at < TOTP_SECRET_REUSE_MS) return current.promise
          const promise: Promise<TotpEnrollmentInfo> = initTotpEnrollment(ctx.api).catch((e) => {
            if (current?.promise === promise) current = null
            throw e
          })
          current = { at: Date.now(), promise }
          return promise
        },
        async submitEnrollment({ code }) {
          const res = await submitTotpEnrollment(ctx.api, validateMfaCode(code, ctx.config.texts.mfa))
          current = null
          return res
        },
      }
      ctx.provide(api)
      ctx.screens.register({ id: MFA_TOTP_SCREENS.enrol, load: () => import('./screens/enrol') })
      ctx.screens.register({ id: MFA_TOTP_SCREENS.code, load: () => import('./screens/code') })
    },
  })
}
