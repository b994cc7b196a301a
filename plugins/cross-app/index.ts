/**
 * portico/plugins/cross-app — log in with an account of another Portico app (spec part 1:
 * sections 2, 3, 4, 6, 7, 8, 9).
 *
 * ```ts
 * createPortico({ appId, plugins: [crossApp()] })
 * ```
 * When the app's login methods list 'cross_app', its landing shows the first connected
 * provider app (GET /apps/{appId}/cross-app/connections). Choosing it opens the provider's
 * /oauth/transact page in a popup (token and request query parameters) and the screen
 * 'Connecting to {app}'; the provider page posts a one-time code back (origin and state
 * checked), then POST /cross-app/authenticate — or /cross-app/link when linking. Not
 * remembered as the recent method. The provider side: `CrossAppTransactPage` (portico/plugins/cross-app/transact).
 */
import { lazy } from 'react'
import { definePlugin, normaliseFields, type CrossAppAccount, type PorticoPlugin } from 'portico'
import { getCrossAppConnections, unlinkCrossApp, type CrossAppConnection } from './calls'
import { CROSS_APP, CROSS_APP_METHOD, crossAppError, crossAppErrors } from './errors'
import { CROSS_APP_SCREEN, INITIAL_CROSS_APP_STATE, type CrossAppApi, type CrossAppState } from './flow'
import { openTransact } from './popup'
import { CROSS_APP_TEXTS } from './strings'

export { getCrossAppConnections, getCrossAppDetails, authenticateCrossApp, linkCrossApp, unlinkCrossApp, authorizeCrossApp } from './calls'
export type { CrossAppConnection, CrossAppGrant } from './calls'
export { crossAppErrors, crossAppError, CROSS_APP, CROSS_APP_METHOD } from './errors'
export { CROSS_APP_SCREEN, INITIAL_CROSS_APP_STATE } from './flow'
export type { CrossAppApi, CrossAppState } from './flow'
export { openTransact, encodeRequest, decodeRequest, CROSS_APP_RESPONSE, POPUP_POLL_MS, TRANSACT_TIMEOUT_MS } from './popup'
export type { CrossAppRequest, PopupHost, PopupWindow, Transaction, TransactOptions } from './popup'
export { CROSS_APP_TEXTS } from './strings'

declare module 'portico' {
  interface PluginApis {
    'cross-app': CrossAppApi
  }
}

const fill = (s: string, app: string) => s.replace('{app}', app)

export function crossApp(): PorticoPlugin<'cross-app'> {
  return definePlugin({
    id: CROSS_APP,
    kind: 'login',
    setup(ctx) {
      const texts = () => ctx.texts(CROSS_APP_TEXTS)
      const state = ctx.store<CrossAppState>(INITIAL_CROSS_APP_STATE)
      let loading: Promise<CrossAppConnection[]> | null = null
      const api: CrossAppApi = {
        state,
        api: ctx.api,
        loadConnections(force = false) {
          if (!loading || force) {
            loading = getCrossAppConnections(ctx.api, ctx.config.appId).then(
              (r) => {
                state.set({ connections: r.connections })
                return r.connections
              },
              (e) => {
                loading = null
                throw e
              },
            )
          }
          return loading
        },
        transact(connection, action) {
          if (!connection.transact_url) throw crossAppError('method_not_supported', texts().issue.replace('{app}', connection.provider_app_name))
          if (action === 'transact' && connection.read_only) throw crossAppError('method_not_supported', texts().readOnly)
          return openTransact({
            transactUrl: connection.transact_url,
            providerAppId: connection.provider_app_id,
            request: { appId: ctx.config.appId, name: ctx.config.name, logoUrl: typeof ctx.config.appearance?.logo === 'string' ? ctx.config.appearance.logo : null, action },
            texts: texts(),
          })
        },
      }
      ctx.provide(api)
      ctx.declareErrors(crossAppErrors(texts))
      ctx.methods.declare({
        id: CROSS_APP_METHOD,
        displayName: texts().displayName,
        accountTypes: ['cross_app'],
        normalise: (raw) => {
          const a = normaliseFields<CrossAppAccount>(raw, 'subject:S provider_app_id:S embedded_wallets:a smart_wallets:a')
          return { ...a, providerApp: { id: a.providerAppId } }
        },
        unlink: (a, account) => unlinkCrossApp(a, { provider_app_id: (account as CrossAppAccount).providerAppId, subject: (account as CrossAppAccount).subject }),
        remembered: false,
      })
      ctx.hooks.configure.tap(CROSS_APP, (config) => {
        if (config.loginMethods.includes(CROSS_APP_METHOD)) queueMicrotask(() => void api.loadConnections().catch(() => {}))
        return config
      })
      ctx.hooks.loginMethods.tap(CROSS_APP, (list, { config }) => {
        if (!config.loginMethods.includes(CROSS_APP_METHOD)) return list
        const connection = state.get().connections?.[0]
        return [
          ...list,
          {
            id: CROSS_APP_METHOD,
            label: connection ? fill(texts().rowLabel, connection.provider_app_name) : texts().displayName,
            group: 'web2' as const,
            ...(connection?.provider_app_icon_url ? { icon: connection.provider_app_icon_url } : {}),
            screen: CROSS_APP_SCREEN,
            // Inside the click: the popup opens now, then the 'Connecting to {app}' screen.
            start: () => {
              ctx.analytics('cross_app_login_started')
              if (!connection) return void ctx.screens.open(CROSS_APP_SCREEN, {})
              void ctx.screens.open(CROSS_APP_SCREEN, { connection, transaction: api.transact(connection, 'login') })
            },
          },
        ]
      })
      ctx.screens.register({ id: CROSS_APP_SCREEN, load: () => import('./screens/connect') })
    },
  })
}

/**
 * The provider app's /oauth/transact page (loaded lazily). The host passes its page's query (the
 * plugin reads no address itself): `<CrossAppTransactPage providerName="My App" search={query} />`,
 * where `query` is the page's query string as the host app reads it.
 */
export const CrossAppTransactPage = lazy(() => import('./screens/transact'))
