/**
 * portico/plugins/email — passwordless e-mail login (part 1: sections 2, 4, 5, 7, 8).
 *
 * ```ts
 * createPortico({ appId, plugins: [email()] })
 * ```
 * Adds the 'email' landing entry (an inline field) and the screens 'email-form' and
 * 'email-code' (loaded lazily), on the shared code-entry flow (`portico/kits/code`).
 * Headless: `useLoginWithEmail()`; without React: `kernel.plugin('email')`.
 */
import { definePlugin, normaliseFields, type EmailAccount, type PorticoPlugin } from 'portico'
import { MailIcon, lazyComponent, type LoginInputProps } from 'portico/ui'
import type { EmailApi, EmailFlowState, EmailShared } from './flow'
import { emailOptions, type EmailOptions } from './options'
import type { EmailFieldProps } from './screens/field'
import type { EMAIL_TEXTS } from './strings'

// Texts load during start-up, the address check with them (the field asks it synchronously);
// errors, screens and the flow (./flow.ts) load on use, the flow also with the landing's preload.
export type { EmailOptions } from './options'
export { emailOptions } from './options'
export type { LoginMode } from './calls'
export type { EmailApi, EmailCheck, EmailCompleter, EmailFlowState, EmailFlowStatus, EmailSubmitOptions } from './flow'
export { useLoginWithEmail, useUpdateEmail, useUnlinkEmail } from './react'
export type { UseLoginWithEmailOptions } from './react'
/**
 * The e-mail field (./screens/field.tsx), loaded on first render or `EmailField.preload()`:
 * it is drawn inside the modal, so it stays out of the page's initial load.
 */
export const EmailField = /* @__PURE__ */ lazyComponent<EmailFieldProps>(() => import('./screens/field').then((m) => m.EmailField))
/** The landing's inline input, loaded with the landing at idle (`preload`). */
const EmailLandingInput = lazyComponent<LoginInputProps>(() => import('./screens/field').then((m) => m.EmailLandingInput))
export type { EmailFieldProps } from './screens/field'

export type EmailTexts = typeof EMAIL_TEXTS

declare module 'portico' {
  interface PluginApis {
    email: EmailApi
  }
  interface UserFields {
    email?: EmailAccount
  }
}

/** Screen ids this plugin registers. */
export const EMAIL_SCREENS = { form: 'email-form', code: 'email-code' } as const

export function email(options: EmailOptions = {}): PorticoPlugin<'email', EmailTexts> {
  return definePlugin({
    id: 'email',
    kind: 'login',
    texts: () => import('./strings').then((m) => m.EMAIL_TEXTS),
    errors: (texts) => import('./errors').then((m) => m.emailErrors(texts)),
    screens: { [EMAIL_SCREENS.form]: () => import('./screens/form'), [EMAIL_SCREENS.code]: () => import('./screens/code') },
    method: {
      displayName: (t) => t.displayName,
      transferLabel: (t) => t.methodLabel,
      accountTypes: ['email'],
      userField: 'email',
      normalise: (raw) => normaliseFields<EmailAccount>(raw, 'address:S'),
      transfer: async (api, data) => (await import('./calls')).transferEmail(api, { nonce: data.nonce, email: data.account }),
      unlink: async (api, account) => (await import('./calls')).unlinkEmail(api, (account as EmailAccount).address),
    },
    setup(ctx) {
      ctx.hooks.configure.tap('email', (config) => ({
        ...config,
        extra: { ...config.extra, email: { ...options, ...((config.extra.email as EmailOptions | undefined) ?? {}) } },
      }))
      // The code-entry base's initial state (its flow, ./flow.ts, loads on use); typed by it.
      const state = ctx.store<EmailFlowState>({ status: 'initial', destination: null, intent: 'login', error: null, codeSentAt: null })
      const helpers = ctx.lazy(() => Promise.all([import('./check'), import('./errors')]), { beforeReady: true })
      const sync = () => (ctx.texts(), helpers.current!)
      const shared: EmailShared = {
        check: (value) => sync()[0].checkEmail(value, ctx.config.disablePlusEmails, ctx.texts()),
        texts: () => ctx.texts(),
        codeErrorMessage: (error) => sync()[1].codeErrorMessage(error, ctx.texts()),
        disableSignup: () => emailOptions(ctx).disableSignup,
      }
      const flow = ctx.lazy(() => import('./flow').then((m) => m.createEmailFlow(ctx, state, shared)))
      ctx.provide<EmailApi>({
        getState: () => state.get(),
        subscribe: (listener) => state.subscribe(listener),
        state,
        ...shared,
        ...flow.methods('sendCode', 'resendCode', 'loginWithCode', 'linkWithCode', 'updateWithCode', 'submitCode', 'unlink', 'transfer'),
        reset: () => (flow.current ? flow.current.reset() : state.reset()),
      })
      ctx.hooks.loginMethods.tap('email', (list, { config }) =>
        config.loginMethods.includes('email')
          ? [
              ...list,
              {
                id: 'email',
                label: ctx.texts().rowLabel,
                group: 'web2' as const,
                icon: MailIcon,
                screen: EMAIL_SCREENS.form,
                input: EmailLandingInput,
                // The field, and the flow its submit runs.
                preload: () => Promise.all([EmailLandingInput.preload(), flow()]),
              },
            ]
          : list,
      )
    },
  })
}
