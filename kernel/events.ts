/**
 * The kernel's event bus: mitt with a typed event map. Plugins extend the map by declaration
 * merging:
 *
 * ```ts
 * declare module 'portico' {
 *   interface PorticoEvents { 'my-plugin:done': { id: string } }
 * }
 * ```
 */
import mitt, { type Emitter } from 'mitt'
import type { ResolvedConfig } from './config'
import type { PorticoError } from './errors'
import type { WireOAuthTokens } from './wire'
import type { User } from './user'

export interface PorticoEvents {
  /** App config and session are known. */
  ready: { authenticated: boolean }
  /** A login finished (tokens stored, user known); `oauthTokens` when an OAuth provider sent them (never stored). */
  login: { user: User; isNewUser: boolean; method?: string; oauthTokens?: WireOAuthTokens | null }
  /** Start-up state changed (loading, retrying while the API is unreachable, ready, failed). */
  status: { status: 'idle' | 'loading' | 'retrying' | 'ready' | 'failed' }
  /** Plugins were set up (`start`) or torn down (`destroy`): their APIs and stores are new. */
  plugins: { started: boolean }
  /** The host changed config after creation (`kernel.setConfig`). */
  config: ResolvedConfig
  /** The session ended (logout, 'clear' update action, unrecoverable refresh failure). */
  logout: { reason: 'logout' | 'cleared' | 'invalid_token' | 'other_tab' }
  /** The user record changed (or became null). */
  user: User | null
  /** Tokens changed (refresh, login, logout). Never carries the tokens themselves. */
  session: { authenticated: boolean }
  /** A configuration or usage warning meant for the host developer. */
  warning: { message: string; source?: string }
  /** An error surfaced to the host (also passed to onError callbacks); start-up retries report `api_unreachable`. */
  error: PorticoError
  [key: string | symbol]: unknown
}

export type PorticoEmitter = Emitter<PorticoEvents>

export function createEvents(): PorticoEmitter {
  return mitt<PorticoEvents>()
}
