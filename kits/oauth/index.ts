/**
 * portico/kits/oauth — the one OAuth engine (part 1 sections 2, 4, 5, 7, 8, 9) that the
 * provider plugins (`portico/plugins/google`, `github`, `apple`, `twitter`, `discord`,
 * `linkedin`, `spotify`, `tiktok`, `instagram`: one file each in ./providers/) configure with
 * a small descriptor. A kit, not a plugin: an app imports the providers it enables, and ships
 * no code of the others.
 *
 * ```ts
 * import { google } from 'portico/plugins/google'
 * createPortico({ appId, plugins: [email(), google({ mode: 'popup' })] })
 * ```
 *
 * A third-party provider is the same few lines: `defineOAuthProvider({ id, provider,
 * displayName, transferLabel, icon })(options)`.
 */
import { definePlugin, lazyOnce, normaliseFields, type AuthResult, type Intent, type PorticoPlugin } from 'portico'
import type { OAuthApi, OAuthOptions, OAuthProviderSpec, StartOptions } from './flow'
import { isInAppBrowser } from './in-app-browser'
import { POPUP_FEATURES, popupName, type OAuthHost } from './popup'
import { INITIAL_OAUTH_STATE, claimOAuthReturn, screenOf, type OAuthState } from './state'

// The curated surface: what a provider and an app need. The engine, its calls, errors and
// texts load on first use (./flow.ts): only their types are here. PKCE and the popup host are
// `portico/kits/browser`'s; the timings, wire constants and internals stay in their files.
export type OAuthTexts = typeof import('./strings').OAUTH_TEXTS
export type { OAuthErrorCode } from './errors'
export type { OAuthApi, OAuthOptions, OAuthProviderSpec, OAuthTokenGrant, StartOptions } from './flow'
/** The spec's nine OAuth providers (part 1 section 2), each a file in ./providers (was `portico`'s `OAuthProvider`). */
export type OAuthProvider = 'google' | 'spotify' | 'discord' | 'github' | 'apple' | 'linkedin' | 'twitter' | 'tiktok' | 'instagram'
export type { OAuthMode, OAuthState, OAuthStatus } from './state'
export type { OAuthHost, OAuthPopup } from './popup'
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

const OAUTH_ACCOUNT_FIELDS = 'subject:S email:s name:s username:s'

/** The status screen every provider registers under its own id (`google-oauth`). */
const loadOAuthScreen = () => import('./screens/status')

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
        const state = ctx.store<OAuthState>({ ...INITIAL_OAUTH_STATE, mode: options.mode ?? 'redirect' })
        const screen = screenOf(descriptor.id)
        // The engine (./flow.ts) loads on first use, or with the landing's preload once the app is ready.
        const load = lazyOnce(() => import('./flow').then((m) => m.createOAuthEngine(ctx, descriptor, options, state)))
        const host = () => options.host ?? (typeof window === 'undefined' ? null : (window as unknown as OAuthHost))
        const refusesThisBrowser = () => {
          const refuse = options.inAppBrowsers ? options.inAppBrowsers === 'refuse' : !!descriptor.refusesInAppBrowsers
          return refuse && isInAppBrowser(host()?.navigator?.userAgent)
        }
        /**
         * A popup opens inside the click: when the engine is not in yet, open the empty window
         * now and hand it over (null: blocked), as the engine would have.
         */
        const preopen = (o?: StartOptions) => {
          const h = host()
          if ((o?.mode ?? options.mode ?? 'redirect') !== 'popup' || !h || refusesThisBrowser()) return undefined
          return { popup: h.open('', popupName(descriptor.id), POPUP_FEATURES) }
        }
        const begin = (intent: Intent, o?: StartOptions): Promise<AuthResult | null> => {
          if (load.current) return load.current.begin(intent, o)
          const preopened = preopen(o)
          return load().then(
            (e) => e.begin(intent, o, preopened),
            (e) => {
              preopened?.popup?.close()
              throw e
            },
          )
        }
        const api: OAuthApi = {
          spec: descriptor,
          state,
          screen,
          login: (o) => begin('login', o),
          link: (o) => begin('link', o),
          start(intent, o) {
            if (load.current) return load.current.start(intent, o)
            const preopened = preopen(o)
            load().then(
              (e) => e.start(intent, o, preopened),
              (e) => {
                preopened?.popup?.close()
                ctx.screens.error(e, { method: descriptor.id })
              },
            )
          },
          cancel: () => load.current?.cancel(),
          unlink: async (subject) => (await load()).unlink(subject),
          transferInfo: (nonce) => load.current?.transferInfo(nonce) ?? null,
          refusesThisBrowser,
        }
        ctx.provide<OAuthApi>(api)
        ctx.declareErrors(() =>
          Promise.all([import('./errors'), import('./strings')]).then(([e, s]) =>
            e.oauthErrors(descriptor.id, descriptor.displayName, () => ctx.texts(s.OAUTH_TEXTS)),
          ),
        )
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
          transfer: async (a, data) =>
            (await import('./calls')).transferOAuth(a, {
              ...data,
              oauth_user_info: (data as { oauth_user_info?: unknown }).oauth_user_info ?? api.transferInfo(data.nonce) ?? undefined,
            }),
          unlink: async (a, account) => (await import('./calls')).unlinkOAuth(a, descriptor.provider, (account as { subject: string }).subject),
        })
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
                  start: () => api.start('login'),
                  // The engine a click runs, so that the click finds it loaded.
                  preload: load,
                },
              ]
            : list,
        )
        // The return (this tab in redirect mode, or the popup page): claimed now, finished by the load.current.
        ctx.hooks.returnPath.tap(descriptor.id, ({ url }) =>
          claimOAuthReturn(url, descriptor.provider, (ret, inPopup) => load().then((e) => e.finishReturn(ret, inPopup))),
        )
      },
    })
}

/** `kernel.plugin('google')` etc. are typed by each provider's entry. */
export type { OAuthApi as OAuthProviderApi }
