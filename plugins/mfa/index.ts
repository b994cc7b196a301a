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
import { definePlugin, type PorticoPlugin, type ScreenDefinition } from 'portico'
import { MFA_SCREENS } from 'portico/kits/mfa'
import { mfaErrors } from './errors'
import type { MfaEngine } from './flow'
import { INITIAL_MFA_STATE, MFA_FRESH_MS, MFA_METHOD_TYPES, type MfaApi, type MfaListener, type MfaSettings, type MfaState } from './state'
import type { MFA_TEXTS } from './strings'

// The entry holds the state, the `sensitiveAction` tap and the API; the verification engine
// (./flow.ts), the error views and the texts (./strings.ts) load on first use, with the screens.
// What method plugins share with this one (code rule, code boxes, screen ids, error codes) is portico/kits/mfa.
export type { MfaApi, MfaListener, MfaSettings, MfaState, MfaVerifyStatus } from './state'
export { useMfa, useMfaEnrollment, useRegisterMfaListener } from './react'

/** The MFA base's texts (./strings.ts, `MFA_TEXTS`): the screens load them; apps override them under `texts: { mfa: {...} }`. */
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
      const state = ctx.store<MfaState>(INITIAL_MFA_STATE)
      const now = (options as MfaSettings).now ?? (() => Date.now())
      let listener: MfaListener | null = null
      // The engine loads on the first verification, method change or enrolment screen.
      const load = ctx.lazy(() => import('./flow').then((m) => m.createMfa(ctx, state, options, () => listener)))
      let cancels = 0
      /** Run `f` on the engine; a `cancel()` while it loaded cancels this call, as it would a pending one. */
      const run = <T,>(f: (e: MfaEngine) => Promise<T>): Promise<T> => {
        if (load.current) return f(load.current)
        const before = cancels
        return load().then((e) => {
          if (cancels !== before) throw e.canceled()
          return f(e)
        })
      }
      const methods = () => (ctx.session.user?.mfaMethods ?? []).map((m) => m.type).filter((t) => MFA_METHOD_TYPES.includes(t))
      const api: MfaApi = {
        state,
        methods,
        verify(o) {
          if (!methods().length) return Promise.resolve()
          // A first verification: the screen's chunk loads alongside the engine's, not after it.
          if (!load.current && !listener) void import('./screens/verify').catch(() => {})
          return run((e) => e.verify(o))
        },
        requireFresh: () => (methods().length ? run((e) => e.requireFresh()) : Promise.resolve()),
        init: (type) => run((e) => e.init(type)),
        submit: (type, code) => run((e) => e.submit(type, code)),
        cancel() {
          cancels++
          load.current?.cancel()
        },
        registerListener(l) {
          listener = l
          return () => {
            if (listener === l) listener = null
          }
        },
        unenroll: (type) => run((e) => e.unenroll(type)),
        enrolled(type, response, o = {}) {
          const user = ctx.session.setUser(response.user)
          if (o.verified !== false) state.set({ lastVerifiedAt: now() })
          try {
            options.onEnrollmentSuccess?.({ method: type })
          } catch (e) {
            ctx.warn(`mfa: onEnrollmentSuccess threw: ${(e as Error)?.message ?? e}`)
          }
          return user
        },
        showEnrollment: () => run((e) => e.showEnrollment()),
      }
      ctx.provide(api)
      ctx.declareErrors(() => import('./strings').then((m) => mfaErrors(() => ctx.texts(m.MFA_TEXTS))))
      const screens: [string, ScreenDefinition['load']][] = [
        [MFA_SCREENS.verify, () => import('./screens/verify')],
        [MFA_SCREENS.intro, () => import('./screens/intro')],
        [MFA_SCREENS.methods, () => import('./screens/methods')],
        [MFA_SCREENS.remove, () => import('./screens/remove')],
        [MFA_SCREENS.success, () => import('./screens/success')],
      ]
      for (const [id, load] of screens) ctx.screens.register({ id, load })
      // Seam 3: before sign / send / export / recovery / delegation. A verification of this
      // session within MFA_FRESH_MS covers the next actions (the server releases the wallet for
      // 300 s after one): asking again at every signature looped the user through codes, the
      // one just used being refused. Export always asks (part 2 section 9), and so does an
      // action the server refused for want of a fresh verification (`details.mfaRequired`).
      ctx.hooks.sensitiveAction.tapPromise('mfa', async ({ action, user, details }) => {
        if (!(user ?? ctx.session.user)?.mfaMethods?.length) return
        const forced = action === 'export_wallet' || details?.mfaRequired === true
        const last = state.get().lastActionVerifiedAt
        if (!forced && last !== null && now() - last < MFA_FRESH_MS) return
        await api.verify({ reason: 'action' })
      })
      ctx.hooks.logout.tapPromise('mfa', async () => {
        api.cancel()
        state.reset()
      })
    },
  })
}
