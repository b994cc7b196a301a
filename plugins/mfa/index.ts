/**
 * portico/plugins/mfa — multi-factor verification (spec part 2 sections 2 'MFA screens', 4,
 * 5, 8, 9): the 'Verify your identity' screen before every sensitive wallet action (it taps
 * the kernel's `sensitiveAction` hook and shows when the user has enrolled methods), the
 * enrolment intro, 'Choose a verification method' with Enabled marks and remove controls,
 * the removal confirmation and the success screen. The methods themselves are their own
 * plugins, so an app pays only for what it enables: `mfaTotp()` (portico/plugins/mfa-totp),
 * `mfaSms()` and `mfaPasskey()`. Headless: `useMfa()`, `useRegisterMfaListener()`,
 * `useMfaEnrollment()`; without React `kernel.plugin('mfa')`.
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { lazyComponent } from 'portico/ui/core'
import { mfaErrors } from './errors'
import { INITIAL_MFA_STATE, MFA_SCREENS, createMfa, type MfaApi, type MfaSettings, type MfaState } from './flow'
import { MFA_TEXTS } from './strings'

export {
  INITIAL_MFA_STATE,
  MFA_CODE_LENGTH,
  MFA_CODE_WAIT_MS,
  MFA_FRESH_MS,
  MFA_MAX_ATTEMPTS,
  MFA_METHOD_TYPES,
  MFA_SCREENS,
  methodPluginId,
  validateMfaCode,
  type MfaApi,
  type MfaListener,
  type MfaSettings,
  type MfaState,
  type MfaVerifyStatus,
} from './flow'
export { MFA_PATHS, unenrollMfa, verifyMfaCode, verifyMfaPasskey, initSmsVerification, initPasskeyVerification, type MfaType, type MfaPasskeyInit } from './calls'
export { MFA, MFA_ERRORS, mfaError, mfaErrors } from './errors'
export { MFA_TEXTS } from './strings'
export { useMfa, useMfaEnrollment, useRegisterMfaListener, type MfaMethodPluginApi } from './react'
export type { MfaCodeBoxesProps } from './screens/code-boxes'
/**
 * The MFA code boxes (./screens/code-boxes.tsx) for method plugins' code screens: loaded on
 * first render (or `MfaCodeBoxes.preload()`), so the code boxes stay out of the initial load.
 */
export const MfaCodeBoxes = lazyComponent(() =>
  import('./screens/code-boxes').then((m) => m.MfaCodeBoxes),
) as unknown as typeof import('./screens/code-boxes').MfaCodeBoxes & { preload(): Promise<unknown> }

export type MfaTexts = typeof MFA_TEXTS

declare module 'portico' {
  interface PluginApis {
    mfa: MfaApi
  }
}

export type MfaOptions = Omit<MfaSettings, 'now' | 'setTimer' | 'clearTimer'>

export function mfa(options: MfaOptions = {}): PorticoPlugin<'mfa'> {
  return definePlugin({
    id: 'mfa',
    kind: 'mfa',
    setup(ctx) {
      const store = ctx.store<MfaState>(INITIAL_MFA_STATE)
      const api = createMfa(ctx, store, options)
      ctx.provide(api)
      ctx.declareErrors(mfaErrors(() => ctx.texts(MFA_TEXTS)))
      ctx.screens.register({ id: MFA_SCREENS.verify, load: () => import('./screens/verify') })
      ctx.screens.register({ id: MFA_SCREENS.intro, load: () => import('./screens/intro') })
      ctx.screens.register({ id: MFA_SCREENS.methods, load: () => import('./screens/methods') })
      ctx.screens.register({ id: MFA_SCREENS.remove, load: () => import('./screens/remove') })
      ctx.screens.register({ id: MFA_SCREENS.success, load: () => import('./screens/success') })
      // Seam 3: before sign / send / export / recovery / delegation.
      ctx.hooks.sensitiveAction.tapPromise('mfa', async ({ user }) => {
        if ((user ?? ctx.session.user)?.mfaMethods?.length) await api.verify({ reason: 'action' })
      })
      ctx.hooks.logout.tapPromise('mfa', async () => {
        api.cancel()
        store.reset()
      })
    },
  })
}
