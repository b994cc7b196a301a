/**
 * Acme ID for Portico — a login method Portico does not ship, written against the public
 * API only (`portico`, `portico/ui`, `portico/kits/browser` for PKCE and the popup; tests with `portico/testing`).
 *
 * ```ts
 * import { acmeId } from 'portico-acme-id'
 * createPortico({ appId, plugins: [email(), acmeId({ issuer: 'https://id.acme.example', clientId: 'my-app' })] })
 * ```
 *
 * Adds the 'acme-id' landing row (shown when the app's login methods list 'acme-id'). Choosing
 * it opens Acme ID in a popup (PKCE S256 + state), exchanges the code for an id_token and logs
 * in with `POST /custom_jwt_account/authenticate`: the app's custom-auth settings must trust
 * Acme ID's JWKS (`{issuer}/.well-known/jwks.json`, issuer = `issuer`, audience = `clientId`).
 */
import { definePlugin, normaliseFields, type CustomAuthAccount, type PorticoPlugin } from 'portico'
import { ACME_ID } from './errors'
import { beginAuthorization, SCREEN, type AcmeIdApi, type AcmeIdSettings, type AcmeIdState } from './flow'
import { AcmeIcon } from './icon'
import type { ACME_ID_TEXTS } from './strings'

export { ACME_ID_TEXTS } from './strings'
export { acmeIdErrors, acmeIdErrorView, acmeIdError, isAcmeIdError, type AcmeIdErrorCode } from './errors'
export { authorizeInPopup, RESPONSE_TYPE, AUTHORIZE_TIMEOUT_MS } from './popup'
export type { Authorization, AuthorizationGrant, AuthorizeOptions, PopupHost, PopupWindow } from './popup'
export { exchangeCode, authenticateAcmeId } from './calls'
export { AcmeIcon } from './icon'
export type { AcmeIdApi, AcmeIdSettings, AcmeIdState, AcmeIdStatus } from './flow'
export { SCREEN as ACME_ID_SCREEN }

// `kernel.plugin('acme-id')` and `usePlugin('acme-id')` are typed by declaration merging.
declare module 'portico' {
  interface PluginApis {
    'acme-id': AcmeIdApi
  }
  // The method's userField: types `user.customAuth` for hosts that use this plugin alone.
  interface UserFields {
    customAuth?: CustomAuthAccount
  }
}

export interface AcmeIdOptions extends Partial<AcmeIdSettings> {
  /** Acme ID's origin. Default: the example IdP, http://127.0.0.1:8791. */
  issuer?: string
  /** This app's client id at Acme ID. Default: 'portico-demo'. */
  clientId?: string
}

export function acmeId(options: AcmeIdOptions = {}): PorticoPlugin<'acme-id', typeof ACME_ID_TEXTS> {
  const settings: AcmeIdSettings = { issuer: 'http://127.0.0.1:8791', clientId: 'portico-demo', ...options }
  return definePlugin({
    id: ACME_ID,
    kind: 'login',
    // The manifest: texts load during start-up, errors and the screen on use.
    texts: () => import('./strings').then((m) => m.ACME_ID_TEXTS),
    errors: (texts) => import('./errors').then((m) => m.acmeIdErrors(texts)),
    screens: { [SCREEN]: () => import('./screens/login') },
    // Its accounts are custom JWT accounts (user.customAuth); remembered as 'acme-id'.
    // Not transferable, not unlinkable from generic UI (no transfer/unlink).
    method: {
      displayName: (t) => t.label,
      accountTypes: ['custom_auth'],
      userField: 'customAuth',
      normalise: (raw) => normaliseFields(raw, 'custom_user_id:S'),
    },
    setup(ctx) {
      const state = ctx.store<AcmeIdState>({ status: 'idle' })
      const api: AcmeIdApi = {
        settings,
        state,
        fetch: settings.fetch ?? ctx.fetch,
        // Synchronous: the popup opens inside the click.
        authorize: () => {
          state.set({ status: 'waiting' })
          return beginAuthorization(ctx.screens, settings, ctx.texts())
        },
      }
      ctx.provide(api)
      ctx.hooks.loginMethods.tap(ACME_ID, (list, { config }) =>
        config.loginMethods.includes(ACME_ID)
          ? [
              ...list,
              {
                id: ACME_ID,
                label: ctx.texts().label,
                group: 'web2' as const,
                icon: AcmeIcon,
                screen: SCREEN,
                // Runs inside the click: the popup opens now, then the waiting screen.
                start: () => {
                  ctx.analytics('acme_id_login_started')
                  void ctx.screens.open(SCREEN, { authorization: api.authorize() })
                },
              },
            ]
          : list,
      )
    },
  })
}
