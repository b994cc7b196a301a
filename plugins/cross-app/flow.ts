/**
 * The cross-app flow's state: the requester's connections (GET /apps/{appId}/cross-app/connections,
 * loaded once the app config is known) and what the 'cross-app-connect' screen shows.
 */
import { PorticoError, type Api, type PorticoErrorCode, type Store } from 'portico'
import type { CrossAppConnection } from './calls'
import type { Transaction } from './popup'

/** The plugin id and its login-method id. */
export const CROSS_APP = 'cross-app'
export const CROSS_APP_METHOD = 'cross_app'

export const CROSS_APP_SCREEN = 'cross-app-connect'

/** A cross-app error: marked with the provider, so that its views (./errors.ts) find it. */
export function crossAppError(code: PorticoErrorCode | 'cross_app_popup_blocked', message: string, cause?: unknown) {
  return new PorticoError(code, message, { kind: 'provider_error', cause, data: { provider: CROSS_APP } })
}

export interface CrossAppState {
  status: 'idle' | 'waiting' | 'verifying' | 'success'
  connections: CrossAppConnection[] | null
}

export const INITIAL_CROSS_APP_STATE: CrossAppState = { status: 'idle', connections: null }

/** What `kernel.plugin('cross-app')` / `usePlugin('cross-app')` return. */
export interface CrossAppApi {
  readonly state: Store<CrossAppState>
  /** Load the connections (once; again with `force`). */
  loadConnections(force?: boolean): Promise<CrossAppConnection[]>
  /** Open the provider's /oauth/transact popup (call inside a click). Refuses a read-only provider for action 'transact'. */
  transact(connection: CrossAppConnection, action: 'login' | 'link' | 'transact'): Transaction
  readonly api: Api
}
