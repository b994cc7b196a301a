/**
 * portico/plugins/email — passwordless e-mail login (part 1: sections 2, 4, 5, 7, 8).
 *
 * ```ts
 * createPortico({ appId, plugins: [email()] })
 * ```
 * Adds the 'email' landing entry (an inline field) and the screens 'email-form' and
 * 'email-code' (loaded lazily), on the shared code-entry flow (`portico/plugins/code`).
 * Headless: `useLoginWithEmail()`; without React: `kernel.plugin('email')`.
 */
import { definePlugin, normaliseFields, type EmailAccount, type PorticoPlugin } from 'portico'
import { MailIcon, lazyComponent, type LoginInputProps } from 'portico/ui/core'
import { INITIAL_CODE_STATE } from 'portico/plugins/code'
import { transferEmail, unlinkEmail } from './calls'
import { emailErrors } from './errors'
import { createEmailFlow, type EmailApi, type EmailFlowState } from './flow'
import type { EmailOptions } from './options'
import type { EmailFieldProps } from './screens/field'
import { EMAIL_TEXTS } from './strings'

export type { EmailOptions } from './options'
export { emailOptions } from './options'
export { initEmail, authenticateEmail, linkEmail, updateEmail, unlinkEmail, transferEmail } from './calls'
export type { LoginMode } from './calls'
export { codeErrorMessage, emailErrors } from './errors'
export { checkEmail, EMAIL_PATTERN } from './flow'
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
      const store = ctx.store<EmailFlowState>(INITIAL_CODE_STATE)
      ctx.provide(createEmailFlow(ctx, store))
      ctx.declareErrors(emailErrors(texts))
      ctx.methods.declare({
        id: 'email',
        displayName: texts().displayName,
        accountTypes: ['email'],
        userField: 'email',
        normalise: (raw) => normaliseFields<EmailAccount>(raw, 'address:S'),
        transferLabel: texts().methodLabel,
        transfer: (api, data) => transferEmail(api, { nonce: data.nonce, email: data.account }),
        unlink: (api, account) => unlinkEmail(api, (account as EmailAccount).address),
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
                preload: EmailLandingInput.preload,
              },
            ]
          : list,
      )
      ctx.screens.register({ id: EMAIL_SCREENS.form, load: () => import('./screens/form') })
      ctx.screens.register({ id: EMAIL_SCREENS.code, load: () => import('./screens/code') })
    },
  })
}
