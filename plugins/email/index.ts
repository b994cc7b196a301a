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
import { definePlugin, lazyOnce, normaliseFields, type EmailAccount, type PorticoPlugin } from 'portico'
import { MailIcon, lazyComponent, type LoginInputProps } from 'portico/ui'
import { checkEmail } from './check'
import { codeErrorMessage, emailErrors } from './errors'
import type { EmailApi, EmailFlowState, EmailShared } from './flow'
import { emailOptions, type EmailOptions } from './options'
import type { EmailFieldProps } from './screens/field'
import { EMAIL_TEXTS } from './strings'

// The flow (./flow.ts) and its calls load on first use, or with the landing's preload once the
// app is ready; the texts, the address check and the code messages stay synchronous.
export type { EmailOptions } from './options'
export { emailOptions } from './options'
export type { LoginMode } from './calls'
export { codeErrorMessage, emailErrors } from './errors'
export { checkEmail, EMAIL_PATTERN } from './check'
export type { EmailApi, EmailCheck, EmailCompleter, EmailFlowState, EmailFlowStatus, EmailSubmitOptions } from './flow'
export { EMAIL_TEXTS } from './strings'
export { useLoginWithEmail, useUpdateEmail, useUnlinkEmail } from './react'
export type { UseLoginWithEmailOptions } from './react'
/**
 * The e-mail field (./screens/field.tsx), loaded on first render or `EmailField.preload()`:
 * it is drawn inside the modal, so it stays out of the page's initial load.
 */
export const EmailField = lazyComponent<EmailFieldProps>(() => import('./screens/field').then((m) => m.EmailField))
/** The landing's inline input, loaded with the landing at idle (`preload`). */
const EmailLandingInput = lazyComponent<LoginInputProps>(() => import('./screens/field').then((m) => m.EmailLandingInput))
export type { EmailFieldProps } from './screens/field'

export type EmailTexts = typeof EMAIL_TEXTS

declare module 'portico' {
  interface PluginApis {
    email: EmailApi
  }
}

/** Screen ids this plugin registers. */
export const EMAIL_SCREENS = { form: 'email-form', code: 'email-code' } as const

export function email(options: EmailOptions = {}): PorticoPlugin<'email'> {
  return definePlugin({
    id: 'email',
    kind: 'login',
    setup(ctx) {
      const texts = () => ctx.texts(EMAIL_TEXTS)
      ctx.hooks.configure.tap('email', (config) => ({
        ...config,
        extra: { ...config.extra, email: { ...options, ...((config.extra.email as EmailOptions | undefined) ?? {}) } },
      }))
      // The code-entry base's initial state (its flow, ./flow.ts, loads on use); typed by it.
      const state = ctx.store<EmailFlowState>({ status: 'initial', destination: null, intent: 'login', error: null, codeSentAt: null })
      const shared: EmailShared = {
        check: (value) => checkEmail(value, ctx.config.disablePlusEmails, texts()),
        texts,
        codeErrorMessage: (error) => codeErrorMessage(error, texts()),
        disableSignup: () => emailOptions(ctx).disableSignup,
      }
      const load = lazyOnce(() => import('./flow').then((m) => m.createEmailFlow(ctx, state, shared)))
      ctx.provide<EmailApi>({
        getState: () => state.get(),
        subscribe: (listener) => state.subscribe(listener),
        state,
        ...shared,
        sendCode: async (o) => (await load()).sendCode(o),
        resendCode: async (token) => (await load()).resendCode(token),
        loginWithCode: async (o) => (await load()).loginWithCode(o),
        linkWithCode: async (o) => (await load()).linkWithCode(o),
        updateWithCode: async (o) => (await load()).updateWithCode(o),
        submitCode: async (code, o) => (await load()).submitCode(code, o),
        unlink: async (address) => (await load()).unlink(address),
        transfer: async (o) => (await load()).transfer(o),
        reset: () => (load.current ? load.current.reset() : state.reset()),
      })
      ctx.declareErrors(emailErrors(texts))
      ctx.methods.declare({
        id: 'email',
        displayName: texts().displayName,
        accountTypes: ['email'],
        userField: 'email',
        normalise: (raw) => normaliseFields<EmailAccount>(raw, 'address:S'),
        transferLabel: texts().methodLabel,
        transfer: async (api, data) => (await import('./calls')).transferEmail(api, { nonce: data.nonce, email: data.account }),
        unlink: async (api, account) => (await import('./calls')).unlinkEmail(api, (account as EmailAccount).address),
      })
      ctx.hooks.loginMethods.tap('email', (list, { config }) =>
        config.loginMethods.includes('email')
          ? [
              ...list,
              {
                id: 'email',
                label: texts().rowLabel,
                group: 'web2' as const,
                icon: MailIcon,
                screen: EMAIL_SCREENS.form,
                input: EmailLandingInput,
                // The field, and the flow its submit runs.
                preload: () => Promise.all([EmailLandingInput.preload(), load()]),
              },
            ]
          : list,
      )
      ctx.screens.register({ id: EMAIL_SCREENS.form, load: () => import('./screens/form') })
      ctx.screens.register({ id: EMAIL_SCREENS.code, load: () => import('./screens/code') })
    },
  })
}
