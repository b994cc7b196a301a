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
import { definePlugin, lazyOnce, normaliseFields, type PasskeyAccount, type PorticoPlugin } from 'portico'
import { KeyIcon } from 'portico/ui'
import type { PasskeyApi, PasskeySettings } from './flow'
import { passkeyLabel } from './labels'
import { INITIAL_PASSKEY_STATE, passkeysOf, type PasskeyState } from './state'
import { webAuthnSupported } from './webauthn'

// The ceremonies, calls, error views and texts load on first use (or with the landing's preload
// once the app is ready); @simplewebauthn/browser when a passkey is used. Only types are here.
export type { PasskeyInit, PasskeyOptionsJSON, PasskeyResponseBody } from './calls'
export { MAX_PASSKEYS, passkeysOf } from './state'
export type { PasskeyApi, PasskeyAction, PasskeySettings, PasskeyState, PasskeyStatus } from './flow'
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

export function passkey(options: PasskeyOptions = {}): PorticoPlugin<'passkey'> {
  return definePlugin({
    id: PASSKEY,
    kind: 'login',
    setup(ctx) {
      const label = (key: 'displayName' | 'rowLabel') => passkeyLabel(ctx.config.texts.passkey, key)
      const state = ctx.store<PasskeyState>(INITIAL_PASSKEY_STATE)
      const load = lazyOnce(() => import('./flow').then((m) => m.createPasskeyFlow(ctx, options, state)))
      ctx.provide<PasskeyApi>({
        state,
        supported: options.supported ?? webAuthnSupported,
        preload: () => void load().then((f) => f.preload(), () => {}),
        ceremony: (async (action: 'signup' | 'login' | 'link') => (await load()).ceremony(action as 'link')) as PasskeyApi['ceremony'],
        signUp: async () => (await load()).signUp(),
        logIn: async () => (await load()).logIn(),
        link: async () => (await load()).link(),
        unlink: async (credentialId) => (await load()).unlink(credentialId),
        passkeys: () => passkeysOf(ctx.session.user),
      })
      ctx.declareErrors(() =>
        Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.passkeyErrors(() => ctx.texts(s.PASSKEY_TEXTS))),
      )
      ctx.methods.declare({
        id: PASSKEY,
        displayName: label('displayName'),
        accountTypes: ['passkey'],
        normalise: (raw) =>
          normaliseFields<PasskeyAccount>(raw, 'credential_id:S authenticator_name:s created_with_browser:s created_with_os:s enrolled_in_mfa:b'),
        unlink: async (api, account) => (await import('./calls')).unlinkPasskey(api, (account as PasskeyAccount).credentialId),
        // Part 1 section 4: a passkey login is not remembered as the recent method.
        remembered: false,
      })
      ctx.hooks.loginMethods.tap(PASSKEY, (list, { config }) =>
        config.loginMethods.includes(PASSKEY)
          ? [...list, { id: PASSKEY, label: label('rowLabel'), group: 'web2' as const, icon: KeyIcon, screen: PASSKEY_SCREENS.choose, preload: load }]
          : list,
      )
      ctx.screens.register({ id: PASSKEY_SCREENS.choose, load: () => import('./screens/choose') })
      ctx.screens.register({ id: PASSKEY_SCREENS.wait, load: () => import('./screens/wait') })
      ctx.screens.register({ id: PASSKEY_SCREENS.link, load: () => import('./screens/link') })
    },
  })
}
