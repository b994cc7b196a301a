/**
 * portico/plugins/email — passwordless e-mail login (part 1: sections 2, 4, 5, 7, 8).
 *
 * ```ts
 * createPortico({ appId, plugins: [email()] })
 * ```
 * Adds the 'email' landing entry (an inline field) and the screens 'email-form' and
 * 'email-code' (loaded lazily).
 */
import { definePlugin, type PorticoPlugin } from 'portico'
import { icons } from 'portico/ui'
import { EmailLandingInput } from './screens/field'
import type { EmailOptions } from './options'
import { EMAIL_TEXTS } from './strings'

export type { EmailOptions } from './options'
export { emailOptions } from './options'
export { initEmail, authenticateEmail, linkEmail, updateEmail, unlinkEmail, transferEmail } from './calls'
export type { LoginMode } from './calls'
export { checkEmail, codeErrorMessage, EMAIL_PATTERN } from './errors'
export { EMAIL_TEXTS, CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS } from './strings'
export { useLoginWithEmail } from './headless'
export type { EmailFlowStatus, EmailFlowState, UseLoginWithEmailOptions } from './headless'
export { useUpdateEmail, useUnlinkEmail } from './manage'
export { EmailField } from './screens/field'

export function email(options: EmailOptions = {}): PorticoPlugin<'email'> {
  return definePlugin({
    id: 'email',
    kind: 'login',
    setup(ctx) {
      ctx.hooks.configure.tap('email', (config) => ({
        ...config,
        extra: { ...config.extra, email: { ...options, ...((config.extra.email as EmailOptions | undefined) ?? {}) } },
      }))
      ctx.hooks.loginMethods.tap('email', (list, { config }) =>
        config.loginMethods.includes('email')
          ? [
              ...list,
              {
                id: 'email',
                label: EMAIL_TEXTS.rowLabel,
                group: 'web2' as const,
                icon: icons.MailIcon,
                screen: 'email-form',
                input: EmailLandingInput,
              },
            ]
          : list,
      )
      const off = [
        ctx.screens.register({ id: 'email-form', load: () => import('./screens/form') }),
        ctx.screens.register({ id: 'email-code', load: () => import('./screens/code') }),
      ]
      return () => off.forEach((f) => f())
    },
  })
}
