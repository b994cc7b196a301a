/** The custom_auth method, its state and API types: what the entry needs before the flow (./flow.ts) loads. */
import { normaliseFields, type MethodDescriptor, type PorticoError, type Store } from 'portico'

/** The login-method id, as config lists it and as it is remembered (part 1 section 1). */
export const CUSTOM_AUTH_METHOD = 'custom_auth'
export type CustomAuthStatus = 'not-enabled' | 'initial' | 'loading' | 'done' | 'error'

export interface CustomAuthState {
  status: CustomAuthStatus
  error: PorticoError | null
}

export interface CustomAuthOptions {
  /** Returns the host's current JWT, or null/undefined when its user is logged out. */
  getCustomAccessToken?: () => Promise<string | null | undefined>
  /** True while the host's auth is still loading: sync waits. A boolean or a function. */
  isLoading?: boolean | (() => boolean)
}

/** What `kernel.plugin('custom-auth')` / `usePlugin('custom-auth')` return. */
export interface CustomAuthApi {
  /** The plugin's state store (React: `usePluginState('custom-auth')` or `useCustomAuth()`). */
  readonly state: Store<CustomAuthState>
  /** Read the host's token and log in or out to match. Calls made while one runs are merged into one more run. */
  sync(): Promise<CustomAuthState>
  /** Replace the host callbacks (React hosts pass fresh ones on render); re-syncs when they changed. */
  setOptions(options: CustomAuthOptions): void
}

/** `sub` of a JWT, without verifying (the server verifies). */
export function jwtSubject(token: string): string | null {
  const part = token.split('.')[1]
  if (!part) return null
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')
    const sub = JSON.parse(atob(b64)).sub
    return typeof sub === 'string' ? sub : null
  } catch {
    return null
  }
}

/** The custom_auth method: its account type normalised as `{ customUserId }`, on `user.customAuth`. */
export function customAuthMethod(displayName: string): MethodDescriptor {
  return {
    id: CUSTOM_AUTH_METHOD,
    displayName,
    accountTypes: ['custom_auth'],
    userField: 'customAuth',
    normalise: (raw) => normaliseFields(raw, 'custom_user_id:S'),
    // Not transferable (part 1 section 5): no transfer, no unlink from generic UI.
  }
}


/** The display name (part 1 section 2), with the app's override (`texts: { 'custom-auth': { displayName } }`): part of `CUSTOM_AUTH_TEXTS`. */
export const CUSTOM_AUTH_DISPLAY_NAME = 'custom'
