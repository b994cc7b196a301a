/**
 * Guest accounts, framework-free. The credential is kept per app in the plugin's storage so a
 * guest who comes back (or whose session lapsed) gets the same account; it is dropped when the
 * guest logs out or becomes a full user (logs in or links an e-mail onto the guest account).
 */
import { PorticoError, toPorticoError, type AuthResult, type PluginContext } from 'portico'
import * as calls from './calls'
import { newGuestCredential } from './credential'
import { GUEST_TEXTS } from './strings'

export const CREDENTIAL_KEY = 'credential'

export type GuestStatus = 'initial' | 'loading' | 'done' | 'error'
export interface GuestState {
  status: GuestStatus
  error: PorticoError | null
}

export interface GuestAccounts {
  getState(): GuestState
  subscribe(listener: (s: GuestState) => void): () => void
  /** Log in as a guest (the stored credential, or a new one). Refused while a non-guest is logged in. */
  createGuestAccount(): Promise<AuthResult>
  /** The stored credential, if any (tests, debugging). */
  credential(): string | null
}

export function createGuestAccounts(
  ctx: Pick<PluginContext, 'api' | 'session' | 'storage' | 'completeLogin' | 'warn'>,
): GuestAccounts {
  let state: GuestState = { status: 'initial', error: null }
  let inFlight: Promise<AuthResult> | null = null
  const listeners = new Set<(s: GuestState) => void>()
  const set = (next: GuestState) => {
    state = Object.freeze(next)
    for (const l of [...listeners]) l(state)
  }

  const run = async (): Promise<AuthResult> => {
    const user = ctx.session.user
    if (ctx.session.authenticated && user) {
      if (!user.isGuest) {
        ctx.warn(GUEST_TEXTS.alreadyLoggedIn)
        throw new PorticoError('invalid_data', GUEST_TEXTS.alreadyLoggedIn)
      }
      return { user, isNewUser: false }
    }
    let credential = ctx.storage.get(CREDENTIAL_KEY)
    if (!credential) {
      credential = newGuestCredential()
      ctx.storage.set(CREDENTIAL_KEY, credential)
    }
    set({ status: 'loading', error: null })
    try {
      const res = await calls.authenticate(ctx.api, credential)
      const result = await ctx.completeLogin(res, { method: 'guest', intent: 'login' })
      set({ status: 'done', error: null })
      return result
    } catch (e) {
      const err = toPorticoError(e)
      set({ status: 'error', error: err })
      throw err
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    createGuestAccount() {
      // One request however often it is pressed.
      inFlight ??= run().finally(() => (inFlight = null))
      return inFlight
    },
    credential: () => ctx.storage.get(CREDENTIAL_KEY),
  }
}

const registry = new WeakMap<object, GuestAccounts>()
export function registerGuestAccounts(session: object, g: GuestAccounts) {
  registry.set(session, g)
  return () => {
    if (registry.get(session) === g) registry.delete(session)
  }
}

/** The guest accounts of a kernel; throws a message that says what to fix when guest() is not set up. */
export function guestAccounts(kernel: { session: object }): GuestAccounts {
  const g = registry.get(kernel.session)
  if (!g) {
    throw new PorticoError('invalid_plugin', "The guest plugin is not set up: add guest() to config.plugins (import { guest } from 'portico/plugins/guest').")
  }
  return g
}
