/**
 * Guest accounts, framework-free. The credential is kept per app in the plugin's storage so a
 * guest who comes back (or whose session lapsed) gets the same account; it is dropped when the
 * guest logs out or becomes a full user (logs in or links an e-mail onto the guest account).
 * The state lives in the plugin's kernel store (`kernel.pluginState('guest')`).
 */
import { toPorticoError, type AuthResult, type PluginContext, type Store } from 'portico'
import { authenticateGuest } from './calls'
import { newGuestCredential } from './credential'
import { CREDENTIAL_KEY, GUEST_METHOD, INITIAL_GUEST_STATE, type GuestApi, type GuestState } from './state'

export { CREDENTIAL_KEY, GUEST_METHOD, INITIAL_GUEST_STATE, type GuestApi, type GuestState, type GuestStatus } from './state'

export function createGuestFlow(
  ctx: Pick<PluginContext, 'api' | 'session' | 'storage' | 'completeLogin' | 'assertLoggedOut' | 'analytics' | 'store'>,
  /** The entry's store (default: a new store of the plugin). */
  store?: Store<GuestState>,
): GuestApi {
  const state = store ?? ctx.store<GuestState>(INITIAL_GUEST_STATE)
  let inFlight: Promise<AuthResult> | null = null

  const run = async (): Promise<AuthResult> => {
    ctx.assertLoggedOut()
    const user = ctx.session.user
    // Already a guest: nothing to do.
    if (ctx.session.authenticated && user) return { user, isNewUser: false }
    let credential = ctx.storage.get(CREDENTIAL_KEY)
    if (!credential) {
      credential = newGuestCredential()
      ctx.storage.set(CREDENTIAL_KEY, credential)
    }
    state.set({ status: 'loading', error: null })
    ctx.analytics('guest_login_started')
    try {
      const res = await authenticateGuest(ctx.api, credential)
      const result = await ctx.completeLogin(res, { method: GUEST_METHOD, intent: 'login' })
      state.set({ status: 'done', error: null })
      return result
    } catch (e) {
      const err = toPorticoError(e)
      state.set({ status: 'error', error: err })
      throw err
    }
  }

  return {
    state,
    createGuestAccount() {
      // One request however often it is pressed.
      inFlight ??= run().finally(() => (inFlight = null))
      return inFlight
    },
    credential: () => ctx.storage.get(CREDENTIAL_KEY),
  }
}
