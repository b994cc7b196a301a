/**
 * What a provider's entry needs before the user acts: its state's shape and initial value, the
 * status screen's id, and the return parameters it claims at start-up. The engine (./flow.ts)
 * loads on first use.
 */
import type { Intent, PorticoError } from 'portico'
import { POPUP_PARAM } from './popup'

/** The query parameters the server's callback appends to `redirect_to`. */
export const RETURN_PARAMS = {
  code: 'privy_oauth_code',
  state: 'privy_oauth_state',
  provider: 'privy_oauth_provider',
  error: 'privy_oauth_error',
} as const

export type OAuthMode = 'redirect' | 'popup'

export type OAuthStatus = 'initial' | 'redirecting' | 'awaiting' | 'verifying' | 'success' | 'error'

export interface OAuthState {
  status: OAuthStatus
  intent: Intent
  mode: OAuthMode
  error: PorticoError | null
  /** The 'Authentication failed' detail (part 1 section 8). */
  detail: string | null
  retryable: boolean
}

export const INITIAL_OAUTH_STATE: OAuthState = { status: 'initial', intent: 'login', mode: 'redirect', error: null, detail: null, retryable: false }

export function screenOf(id: string) {
  return `${id}-oauth`
}

/** The return read from the page address: the provider's code and state, or its error. */
export interface OAuthReturn {
  code: string | null
  state: string | null
  error: string | null
}

/**
 * The `returnPath` claim of one provider (synchronous: the kernel strips the parameters at
 * once); `finish` runs the rest (the engine loads then).
 */
export function claimOAuthReturn(url: URL, provider: string, finish: (ret: OAuthReturn, inPopup: boolean) => Promise<unknown> | void) {
  const q = url.searchParams
  if (q.get(RETURN_PARAMS.provider) !== provider) return undefined
  const ret: OAuthReturn = { code: q.get(RETURN_PARAMS.code), state: q.get(RETURN_PARAMS.state), error: q.get(RETURN_PARAMS.error) }
  const inPopup = q.get(POPUP_PARAM) === '1'
  return {
    params: [...Object.values(RETURN_PARAMS), POPUP_PARAM],
    finish: () => finish(ret, inPopup),
  }
}
