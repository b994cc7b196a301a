/**
 * portico/plugins/passkey — passkeys (WebAuthn; part 1 sections 2 to 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [email(), passkey()] })
 * ```
 * Adds the 'passkey' landing entry (when the app's login methods list 'passkey'): the choice
 * 'Create new account' / 'Log in with a passkey' (sign-up only when the app enables
 * `passkeys_for_signup_enabled`), then the waiting screen while the browser's system dialogue
 * runs (Continue disabled; Retry on error). `useLinkAccount().link('passkey')` opens the link
 * screen ('Secure your account with a passkey', 'Add new passkey' up to 5, remove, 'Passkeys
 * updated', Done). @simplewebauthn/browser is loaded only when a passkey is used. Headless:
 * `usePasskeys()`; without React: `kernel.plugin('passkey')`. Passkey logins are not
 * remembered as the recent method.
 */
import { definePlugin, normaliseFields, type PasskeyAccount, type PorticoPlugin } from 'portico'
import { KeyIcon } from 'portico/ui/core'
import { unlinkPasskey } from './calls'
import { PASSKEY, passkeyErrors } from './errors'
import { createPasskeyFlow, type PasskeyApi, type PasskeySettings } from './flow'
import { PASSKEY_TEXTS } from './strings'

export {
  initRegisterPasskey,
  registerPasskey,
  initAuthenticatePasskey,
  authenticatePasskey,
  initLinkPasskey,
  linkPasskey,
  unlinkPasskey,
} from './calls'
export type { PasskeyInit, PasskeyOptionsJSON, PasskeyResponseBody } from './calls'
export { passkeyErrors, passkeyErrorView, fromWebAuthnError, PASSKEY_REJECTED } from './errors'
export { MAX_PASSKEYS, passkeysOf } from './flow'
export type { PasskeyApi, PasskeyAction, PasskeySettings, PasskeyState, PasskeyStatus } from './flow'
export { PASSKEY_TEXTS } from './strings'
export type { PasskeyTexts } from './strings'
export { passkeyTitle } from './title'
export { usePasskeys } from './react'

declare module 'portico' {
  interface PluginApis {
    passkey: PasskeyApi
  }
}

/** Screen ids this plugin registers. */
export const PASSKEY_SCREENS = { choose: 'passkey-choose', wait: 'passkey-wait', link: 'passkey-link' } as const

export type PasskeyOptions = PasskeySettings

export function passkey(options: PasskeyOptions = {}): PorticoPlugin<'passkey'> {
  return definePlugin({
    id: PASSKEY,
    kind: 'login',
    setup(ctx) {
      const texts = () => ctx.texts(PASSKEY_TEXTS)
      ctx.provide(createPasskeyFlow(ctx, options))
      ctx.declareErrors(passkeyErrors(texts))
      ctx.methods.declare({
        id: PASSKEY,
        displayName: texts().displayName,
        accountTypes: ['passkey'],
        normalise: (raw) =>
          normaliseFields<PasskeyAccount>(raw, 'credential_id:S authenticator_name:s created_with_browser:s created_with_os:s enrolled_in_mfa:b'),
        unlink: (api, account) => unlinkPasskey(api, (account as PasskeyAccount).credentialId),
        // Part 1 section 4: a passkey login is not remembered as the recent method.
        remembered: false,
      })
      ctx.hooks.loginMethods.tap(PASSKEY, (list, { config }) =>
        config.loginMethods.includes(PASSKEY)
          ? [...list, { id: PASSKEY, label: texts().rowLabel, group: 'web2' as const, icon: KeyIcon, screen: PASSKEY_SCREENS.choose }]
          : list,
      )
      ctx.screens.register({ id: PASSKEY_SCREENS.choose, load: () => import('./screens/choose') })
      ctx.screens.register({ id: PASSKEY_SCREENS.wait, load: () => import('./screens/wait') })
      ctx.screens.register({ id: PASSKEY_SCREENS.link, load: () => import('./screens/link') })
    },
  })
}
