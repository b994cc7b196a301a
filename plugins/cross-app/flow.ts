/**
 * The cross-app flow's state: the requester's connections (GET /apps/{appId}/cross-app/connections,
 * loaded once the app config is known) and what the 'cross-app-connect' screen shows.
 */
import type { Api, Store } from 'portico'
import type { CrossAppConnection } from './calls'
import type { Transaction } from './popup'

export const CROSS_APP_SCREEN = 'cross-app-connect'

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
