/**
 * Acme ID for Portico — a login method Portico does not ship, written against the public
 * API only (`portico`, `portico/ui`; tests with `portico/testing`).
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
import { definePlugin, type PorticoPlugin } from 'portico'
import { acmeIdErrorView, ACME_ID } from './errors'
import { beginAuthorization, SCREEN, type AcmeIdSettings } from './flow'
import { AcmeIcon } from './icon'
import { ACME_ID_TEXTS } from './strings'

export { ACME_ID_TEXTS } from './strings'
export { acmeIdErrorView, acmeIdError, isAcmeIdError, type AcmeIdErrorCode } from './errors'
export { authorizeInPopup, RESPONSE_TYPE, POPUP_POLL_MS, AUTHORIZE_TIMEOUT_MS } from './popup'
export type { Authorization, AuthorizationGrant, AuthorizeOptions, PopupHost, PopupWindow } from './popup'
export { exchangeCode, authenticate } from './calls'
export { createVerifier, createState, challengeOf } from './pkce'
export { AcmeIcon } from './icon'
export { SCREEN as ACME_ID_SCREEN }

export interface AcmeIdOptions extends Partial<AcmeIdSettings> {
  /** Acme ID's origin. Default: the example IdP, http://127.0.0.1:8791. */
  issuer?: string
  /** This app's client id at Acme ID. Default: 'portico-demo'. */
  clientId?: string
  /** fetch for the call to Acme ID (default: globalThis.fetch). */
  fetch?: typeof fetch
}

export function acmeId(options: AcmeIdOptions = {}): PorticoPlugin<'acme-id'> {
  const settings: AcmeIdSettings = { issuer: 'http://127.0.0.1:8791', clientId: 'portico-demo', ...options }
  return definePlugin({
    id: ACME_ID,
    kind: 'login',
    setup(ctx) {
      ctx.hooks.loginMethods.tap(ACME_ID, (list, { config }) =>
        config.loginMethods.includes(ACME_ID)
          ? [
              ...list,
              {
                id: ACME_ID,
                label: ACME_ID_TEXTS.label,
                group: 'web2' as const,
                icon: AcmeIcon,
                screen: SCREEN,
                params: { settings },
                // Runs inside the click: the popup opens now, then the waiting screen.
                start: () => {
                  const authorization = beginAuthorization(ctx.screens, settings)
                  void ctx.screens.open(SCREEN, { settings, authorization })
                },
              },
            ]
          : list,
      )
      ctx.hooks.errorView.tap(ACME_ID, acmeIdErrorView)
      return ctx.screens.register({ id: SCREEN, load: () => import('./screens/login') })
    },
  })
}
