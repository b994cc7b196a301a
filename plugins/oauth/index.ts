/**
 * portico/plugins/oauth — the one OAuth engine (part 1 sections 2, 4, 5, 7, 8, 9) that the
 * provider plugins (`portico/plugins/google`, `github`, `apple`, `twitter`, `discord`,
 * `linkedin`, `spotify`, `tiktok`, `instagram`) configure with a small descriptor. A base, not
 * a plugin: an app imports the providers it enables, and ships no code of the others.
 *
 * ```ts
 * import { google } from 'portico/plugins/google'
 * createPortico({ appId, plugins: [email(), google({ mode: 'popup' })] })
 * ```
 *
 * A third-party provider is the same few lines: `defineOAuthProvider({ id, provider,
 * displayName, transferLabel, icon })(options)`.
 */
import { definePlugin, normaliseFields, type PorticoPlugin } from 'portico'
import { transferOAuth, unlinkOAuth } from './calls'
import { oauthErrors } from './errors'
import { createOAuthFlow, screenOf, type OAuthApi, type OAuthOptions, type OAuthProviderSpec } from './flow'
import { OAUTH_TEXTS } from './strings'

export { OAUTH_TEXTS } from './strings'
export { initOAuth, authenticateOAuth, linkOAuth, unlinkOAuth, transferOAuth } from './calls'
export type { OAuthInitBody, OAuthGrantBody } from './calls'
export { oauthError, oauthErrors, oauthFailure, fromServerError, isRateLimit, type OAuthErrorCode, type OAuthFailure } from './errors'
export {
  createOAuthFlow,
  screenOf,
  RETURN_PARAMS,
  SUCCESS_DELAY_MS,
  INITIAL_OAUTH_STATE,
  type OAuthApi,
  type OAuthMode,
  type OAuthOptions,
  type OAuthProviderSpec,
  type OAuthState,
  type OAuthStatus,
  type OAuthTokenGrant,
  type StartOptions,
} from './flow'
export { POPUP_MESSAGE, POPUP_PARAM, POPUP_TIMEOUT_MS, POPUP_POLL_MS, waitForPopup, watchPopup, type WatchPopupOptions, type OAuthHost, type OAuthPopup, type PopupReturn } from './popup'
export { createPendingStore, PENDING_TTL_MS, type PendingAuthorization, type PendingStore } from './pending'
export { createVerifier, createStateCode, challengeOf, base64url, VERIFIER_BYTES, STATE_BYTES } from './pkce'
export { isInAppBrowser } from './in-app-browser'
export { brandIcon } from './icon'
export { useOAuthTokens, type UseOAuthTokensOptions } from './react'

/** A provider: the engine's spec plus how its accounts show. */
export interface OAuthProviderDescriptor extends OAuthProviderSpec {
  /** Part 1 section 2 'Method labels': '{Provider} profile' ('LinkedIn profile'). */
  transferLabel: string
  /**
   * The linked account's fields (normaliseFields spec). Every provider's account is
   * `{subject, email, name, username}` on the wire (the server maps the provider's profile).
   */
  fields?: string
}

export const OAUTH_ACCOUNT_FIELDS = 'subject:S email:s name:s username:s'

/** The status screen every provider registers under its own id (`google-oauth`). */
export const loadOAuthScreen = () => import('./screens/status')

/**
 * Make a provider plugin factory from its descriptor. The plugin id, the login-method id and
 * the screen prefix are `descriptor.id`; its account type is `<provider>_oauth`, its user
 * field `descriptor.provider` (user.google).
 */
export function defineOAuthProvider<Id extends string>(descriptor: OAuthProviderDescriptor & { id: Id }) {
  return (options: OAuthOptions = {}): PorticoPlugin<Id> =>
    definePlugin({
      id: descriptor.id,
      kind: 'login',
      setup(ctx) {
        const texts = () => ctx.texts(OAUTH_TEXTS)
        const flow = createOAuthFlow(ctx, descriptor, options)
        ctx.provide<OAuthApi>(flow)
        ctx.declareErrors(oauthErrors(descriptor.id, descriptor.displayName, texts))
        const accountType = `${descriptor.provider}_oauth`
        ctx.methods.declare({
          id: descriptor.id,
          displayName: descriptor.displayName,
          accountTypes: [accountType],
          userField: descriptor.provider,
          normalise: (raw) => normaliseFields(raw, descriptor.fields ?? OAUTH_ACCOUNT_FIELDS),
          transferLabel: descriptor.transferLabel,
          linkMethods: [descriptor.id, descriptor.provider, accountType],
          // The account plugin hands over the transfer data; the provider profile it needs is the one this flow kept.
          transfer: (api, data) =>
            transferOAuth(api, { ...data, oauth_user_info: (data as { oauth_user_info?: unknown }).oauth_user_info ?? flow.transferInfo(data.nonce) ?? undefined }),
          unlink: (api, account) => unlinkOAuth(api, descriptor.provider, (account as { subject: string }).subject),
        })
        const screen = screenOf(descriptor.id)
        ctx.screens.register({ id: screen, load: loadOAuthScreen })
        ctx.hooks.loginMethods.tap(descriptor.id, (list, { config }) =>
          config.loginMethods.includes(descriptor.id)
            ? [
                ...list,
                {
                  id: descriptor.id,
                  label: descriptor.displayName,
                  group: 'web2' as const,
                  icon: descriptor.icon,
                  screen,
                  params: { plugin: descriptor.id },
                  // Inside the click: a popup must open now.
                  start: () => flow.start('login'),
                },
              ]
            : list,
        )
      },
    })
}

/** `kernel.plugin('google')` etc. are typed by each provider's entry. */
export type { OAuthApi as OAuthProviderApi }
