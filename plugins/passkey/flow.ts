/**
 * Passkey ceremonies, framework-free (part 1 sections 4, 5, 7): sign up (register), log in
 * (authenticate), link, unlink. State (initial, generating the challenge, waiting for the
 * system dialogue, submitting the response, done or error) lives in the plugin's kernel store.
 */
import { toPorticoError, type AuthResult, type PasskeyAccount, type PluginContext, type Store, type User, type WireAuthResponse, type WireUser } from 'portico'
import {
  authenticatePasskey,
  initAuthenticatePasskey,
  initLinkPasskey,
  initRegisterPasskey,
  linkPasskey,
  registerPasskey,
  unlinkPasskey,
} from './calls'
import { PASSKEY, fromWebAuthnError, passkeyError } from './errors'
import { PASSKEY_TEXTS } from './strings'
import { INITIAL_PASSKEY_STATE, MAX_PASSKEYS, passkeysOf, type PasskeyAction, type PasskeyState } from './state'
import { loadWebAuthn, webAuthnSupported, type WebAuthnBrowser } from './webauthn'

export { MAX_PASSKEYS, INITIAL_PASSKEY_STATE, passkeysOf, type PasskeyAction, type PasskeyStatus, type PasskeyState } from './state'

export interface PasskeySettings {
  /** The relying party id to ask for (default: this page's host name). */
  relyingParty?: string
  /** Load @simplewebauthn/browser (tests may hand in their own). */
  load?: () => Promise<Pick<WebAuthnBrowser, 'startRegistration' | 'startAuthentication'>>
  /** WebAuthn support check (default: `PublicKeyCredential` exists). */
  supported?: () => boolean
}

/** What `kernel.plugin('passkey')` / `usePlugin('passkey')` return. */
export interface PasskeyApi {
  readonly state: Store<PasskeyState>
  /** Whether this browser supports WebAuthn. */
  supported(): boolean
  /** Start loading the browser library (screens call it on mount). */
  preload(): void
  /** Run one ceremony and return the server's answer (screens complete it themselves). */
  ceremony(action: 'signup' | 'login'): Promise<WireAuthResponse>
  ceremony(action: 'link'): Promise<WireAuthResponse | { user: WireUser }>
  /** Sign up with a new passkey (only when the app enables passkey sign-up). */
  signUp(): Promise<AuthResult>
  /** Log in with a passkey of this site. */
  logIn(): Promise<AuthResult>
  /** Add a passkey to the logged-in user (at most 5). */
  link(): Promise<User>
  /** Remove one of the user's passkeys (refused while enrolled in MFA). */
  unlink(credentialId: string): Promise<User>
  /** The logged-in user's passkeys. */
  passkeys(): PasskeyAccount[]
}

type Ctx = Pick<PluginContext, 'api' | 'session' | 'store' | 'completeLogin' | 'assertLoggedOut' | 'analytics' | 'texts'>

/** The flow; its state lives in `state` (the entry's store), or in a new store of the plugin. */
export function createPasskeyFlow(ctx: Ctx, settings: PasskeySettings = {}, state: Store<PasskeyState> = ctx.store<PasskeyState>(INITIAL_PASSKEY_STATE)): PasskeyApi {
  const T = () => ctx.texts(PASSKEY_TEXTS)
  const load = settings.load ?? loadWebAuthn
  const supported = settings.supported ?? webAuthnSupported
  const rp = () => settings.relyingParty ?? globalThis.location?.hostname ?? 'localhost'

  // One ceremony at a time: a second call while one runs (a double click, a remounted screen)
  // gets the same promise; a new WebAuthn request would abort the running one.
  let inFlight: { action: PasskeyAction; promise: Promise<WireAuthResponse | { user: WireUser }> } | null = null
  function ceremony(action: PasskeyAction): Promise<WireAuthResponse | { user: WireUser }> {
    if (inFlight?.action === action) return inFlight.promise
    const promise = run(action).finally(() => {
      if (inFlight?.promise === promise) inFlight = null
    })
    inFlight = { action, promise }
    return promise
  }

  async function run(action: PasskeyAction): Promise<WireAuthResponse | { user: WireUser }> {
    state.set({ status: 'generating-challenge', action, error: null })
    try {
      if (!supported()) throw passkeyError('not_supported', T().webauthnRequired)
      if (action !== 'link') ctx.assertLoggedOut()
      else if (passkeysOf(ctx.session.user).length >= MAX_PASSKEYS) throw passkeyError('cannot_link_more_of_type', T().cannotLinkMore)
      ctx.analytics(`passkey_${action}_started`)
      const [lib, init] = await Promise.all([
        load(),
        action === 'signup' ? initRegisterPasskey(ctx.api, rp()) : action === 'login' ? initAuthenticatePasskey(ctx.api, rp()) : initLinkPasskey(ctx.api, rp()),
      ])
      state.set({ status: 'awaiting-passkey' })
      let response: unknown
      try {
        response =
          action === 'login'
            ? await lib.startAuthentication({ optionsJSON: init.options as never })
            : await lib.startRegistration({ optionsJSON: init.options as never })
      } catch (e) {
        throw fromWebAuthnError(e, T())
      }
      state.set({ status: 'submitting-response' })
      const body = { relying_party: init.relying_party, challenge: init.options.challenge, authenticator_response: response }
      const res = action === 'signup' ? await registerPasskey(ctx.api, body) : action === 'login' ? await authenticatePasskey(ctx.api, body) : await linkPasskey(ctx.api, body)
      state.set({ status: 'done' })
      return res
    } catch (e) {
      const err = toPorticoError(e)
      state.set({ status: 'error', error: err })
      throw err
    }
  }

  const login = async (action: 'signup' | 'login') =>
    ctx.completeLogin((await ceremony(action)) as WireAuthResponse, { method: PASSKEY, intent: 'login' })

  return {
    state,
    supported,
    preload: () => void load().catch(() => {}),
    ceremony: ceremony as PasskeyApi['ceremony'],
    signUp: () => login('signup'),
    logIn: () => login('login'),
    async link() {
      const res = await ceremony('link')
      return ctx.session.setUser(res.user)
    },
    async unlink(credentialId) {
      const res = await unlinkPasskey(ctx.api, credentialId)
      return ctx.session.setUser(res.user)
    },
    passkeys: () => passkeysOf(ctx.session.user),
  }
}
