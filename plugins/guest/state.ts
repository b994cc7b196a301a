/** The guest plugin's method id, storage key, state and API types: what the entry needs before the flow (./flow.ts) loads. */
import type { AuthResult, PorticoError, Store } from 'portico'

/** Plugin storage key of the guest credential. */
export const CREDENTIAL_KEY = 'credential'
/** The login-method id, as config lists it and as it is remembered. */
export const GUEST_METHOD = 'guest'

export type GuestStatus = 'initial' | 'loading' | 'done' | 'error'
export interface GuestState {
  status: GuestStatus
  error: PorticoError | null
}

/** What `kernel.plugin('guest')` / `usePlugin('guest')` return. */
export interface GuestApi {
  /** The plugin's state store (React: `usePluginState('guest')`). */
  readonly state: Store<GuestState>
  /** Log in as a guest (the stored credential, or a new one). Refused (`already_logged_in`) while a non-guest is logged in. */
  createGuestAccount(): Promise<AuthResult>
  /** The stored credential, if any (tests, debugging). */
  credential(): string | null
}

export const INITIAL_GUEST_STATE: GuestState = { status: 'initial', error: null }

/** Bytes of randomness in a guest credential. */
export const GUEST_CREDENTIAL_BYTES = 32
