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
import { KeyIcon } from 'portico/ui'
import type { PasskeyApi, PasskeySettings } from './flow'
import { INITIAL_PASSKEY_STATE, passkeysOf, type PasskeyState } from './state'
import { webAuthnSupported } from './webauthn'

// The texts load during start-up; the ceremonies, calls, error views and screens on first use
// (or with the landing's preload once the app is ready); @simplewebauthn/browser when a passkey
// is used. Only types are here.
export type { PasskeyInit, PasskeyOptionsJSON, PasskeyResponseBody } from './calls'
export { MAX_PASSKEYS, passkeysOf } from './state'
export type { PasskeyApi, PasskeyAction, PasskeySettings, PasskeyState, PasskeyStatus } from './flow'
import type { PasskeyTexts } from './strings'
export type { PasskeyTexts } from './strings'
export { passkeyTitle } from './title'
export { usePasskeys } from './react'

const PASSKEY = 'passkey'

declare module 'portico' {
  interface PluginApis {
    passkey: PasskeyApi
  }
}

/** Screen ids this plugin registers. */
export const PASSKEY_SCREENS = { choose: 'passkey-choose', wait: 'passkey-wait', link: 'passkey-link' } as const

export type PasskeyOptions = PasskeySettings

export function passkey(options: PasskeyOptions = {}): PorticoPlugin<'passkey', PasskeyTexts> {
  return definePlugin({
    id: PASSKEY,
    kind: 'login',
    texts: () => import('./strings').then((m) => m.PASSKEY_TEXTS),
    errors: (texts) => import('./errors').then((m) => m.passkeyErrors(texts)),
    screens: {
      [PASSKEY_SCREENS.choose]: () => import('./screens/choose'),
      [PASSKEY_SCREENS.wait]: () => import('./screens/wait'),
      [PASSKEY_SCREENS.link]: () => import('./screens/link'),
    },
    method: {
      displayName: (t) => t.displayName,
      accountTypes: ['passkey'],
      normalise: (raw) =>
        normaliseFields<PasskeyAccount>(raw, 'credential_id:S authenticator_name:s created_with_browser:s created_with_os:s enrolled_in_mfa:b'),
      unlink: async (api, account) => (await import('./calls')).unlinkPasskey(api, (account as PasskeyAccount).credentialId),
      // Part 1 section 4: a passkey login is not remembered as the recent method.
      remembered: false,
    },
    setup(ctx) {
      const state = ctx.store<PasskeyState>(INITIAL_PASSKEY_STATE)
      const flow = ctx.lazy(() => import('./flow').then((m) => m.createPasskeyFlow(ctx, options, state)))
      ctx.provide<PasskeyApi>({
        state,
        supported: options.supported ?? webAuthnSupported,
        preload: () => void flow().then((f) => f.preload(), () => {}),
        ceremony: (async (action: 'signup' | 'login' | 'link') => (await flow()).ceremony(action as 'link')) as PasskeyApi['ceremony'],
        ...flow.methods('signUp', 'logIn', 'link', 'unlink'),
        passkeys: () => passkeysOf(ctx.session.user),
      })
      ctx.hooks.loginMethods.tap(PASSKEY, (list, { config }) =>
        config.loginMethods.includes(PASSKEY)
          ? [...list, { id: PASSKEY, label: ctx.texts().rowLabel, group: 'web2' as const, icon: KeyIcon, screen: PASSKEY_SCREENS.choose, preload: flow }]
          : list,
      )
    },
  })
}
