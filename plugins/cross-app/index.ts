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
import type { CrossAppConnection } from './calls'
import { CROSS_APP, CROSS_APP_METHOD, CROSS_APP_SCREEN, INITIAL_CROSS_APP_STATE, crossAppError, type CrossAppApi, type CrossAppState } from './flow'
import type { PopupWindow, Transaction } from './popup'

// Texts load during start-up; the calls, the popup, error views and screens on first use, or
// with the connections once the app is ready with cross-app on: only their types are here.
export type CrossAppTexts = typeof import('./strings').CROSS_APP_TEXTS
export type { CrossAppConnection, CrossAppGrant } from './calls'
export { CROSS_APP, CROSS_APP_METHOD, CROSS_APP_SCREEN, INITIAL_CROSS_APP_STATE, crossAppError } from './flow'
export type { CrossAppApi, CrossAppState } from './flow'
export type { CrossAppRequest, PopupHost, PopupWindow, Transaction, TransactOptions } from './popup'

declare module 'portico' {
  interface PluginApis {
    'cross-app': CrossAppApi
  }
}

const fill = (s: string, app: string) => s.replace('{app}', app)

export function crossApp(): PorticoPlugin<'cross-app', CrossAppTexts> {
  return definePlugin({
    id: CROSS_APP,
    kind: 'login',
    texts: () => import('./strings').then((m) => m.CROSS_APP_TEXTS),
    errors: (texts) => import('./errors').then((e) => e.crossAppErrors(texts)),
    screens: { [CROSS_APP_SCREEN]: () => import('./screens/connect') },
    method: {
      id: CROSS_APP_METHOD,
      displayName: (t) => t.displayName,
      accountTypes: ['cross_app'],
      normalise: (raw) => {
        const a = normaliseFields<CrossAppAccount>(raw, 'subject:S provider_app_id:S embedded_wallets:a smart_wallets:a')
        return { ...a, providerApp: { id: a.providerAppId } }
      },
      unlink: async (a, account) => (await import('./calls')).unlinkCrossApp(a, { provider_app_id: (account as CrossAppAccount).providerAppId, subject: (account as CrossAppAccount).subject }),
      remembered: false,
    },
    setup(ctx) {
      const label = (key: 'displayName' | 'rowLabel' | 'issue' | 'readOnly') => ctx.texts()[key]
      const state = ctx.store<CrossAppState>(INITIAL_CROSS_APP_STATE)
      let loading: Promise<CrossAppConnection[]> | null = null
      let loads = 0
      let transactModule: typeof import('./transact') | undefined
      const loadTransact = () => import('./transact').then((m) => (transactModule = m))
      const api: CrossAppApi = {
        state,
        api: ctx.api,
        loadConnections(force = false) {
          if (!loading || force) {
            // The latest load wins: an earlier one answering later does not overwrite its list.
            const mine = ++loads
            loading = import('./calls')
              .then((c) => c.getCrossAppConnections(ctx.api, ctx.config.appId))
              .then(
                (r) => {
                  if (mine === loads) state.set({ connections: r.connections })
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
          if (!connection.transact_url) throw crossAppError('method_not_supported', label('issue').replace('{app}', connection.provider_app_name))
          if (action === 'transact' && connection.read_only) throw crossAppError('method_not_supported', label('readOnly'))
          if (transactModule) return transactModule.transact(ctx, connection, action)
          // Not in yet (it loads with the connections): the window opens now, inside the click.
          const popup = typeof window === 'undefined' ? undefined : (window.open('', 'portico-cross-app', 'popup,width=440,height=640') as PopupWindow | null)
          return deferredTransaction(loadTransact().then((m) => m.transact(ctx, connection, action, popup)))
        },
      }
      ctx.provide(api)
      ctx.hooks.configure.tap(CROSS_APP, (config) => {
        if (config.loginMethods.includes(CROSS_APP_METHOD))
          queueMicrotask(() => {
            void api.loadConnections().catch(() => {})
            void loadTransact().catch(() => {}) // what a click on the row needs
          })
        return config
      })
      ctx.hooks.loginMethods.tap(CROSS_APP, (list, { config }) => {
        if (!config.loginMethods.includes(CROSS_APP_METHOD)) return list
        const connection = state.get().connections?.[0]
        return [
          ...list,
          {
            id: CROSS_APP_METHOD,
            label: connection ? fill(label('rowLabel'), connection.provider_app_name) : label('displayName'),
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
    },
  })
}

/**
 * The provider app's /oauth/transact page (loaded lazily). The host passes its page's query (the
 * plugin reads no address itself): `<CrossAppTransactPage providerName="My App" search={query} />`,
 * where `query` is the page's query string as the host app reads it.
 */
export const CrossAppTransactPage = lazy(() => import('./screens/transact'))

/** A transaction whose popup flow is still loading: the same surface, settled once it is in. */
function deferredTransaction(inner: Promise<Transaction>): Transaction {
  let claimed = false
  let cancelled = false
  inner.then((t) => cancelled && t.cancel(), () => {})
  const result = inner.then((t) => t.result)
  result.catch(() => {})
  return {
    result,
    cancel: () => {
      cancelled = true
      inner.then((t) => t.cancel(), () => {})
    },
    claim: () => (claimed ? false : (claimed = true)),
    get claimed() {
      return claimed
    },
  }
}
