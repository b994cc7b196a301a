/**
 * Passkey ceremonies, framework-free (part 1 sections 4, 5, 7): sign up (register), log in
 * (authenticate), link, unlink. State (initial, generating the challenge, waiting for the
 * system dialogue, submitting the response, done or error) lives in the plugin's kernel store.
 */
import {
  toPorticoError,
  type AuthResult,
  type PasskeyAccount,
  type PluginContext,
  type PorticoError,
  type Store,
  type User,
  type WireAuthResponse,
  type WireUser,
} from 'portico'
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
import { loadWebAuthn, webAuthnSupported, type WebAuthnBrowser } from './webauthn'

/** Spec part 1 section 9: at most 5 passkeys per user ('Add new passkey' hidden at 5). */
export const MAX_PASSKEYS = 5

export type PasskeyAction = 'signup' | 'login' | 'link'
export type PasskeyStatus = 'initial' | 'generating-challenge' | 'awaiting-passkey' | 'submitting-response' | 'done' | 'error'
export interface PasskeyState {
  status: PasskeyStatus
  action: PasskeyAction | null
  error: PorticoError | null
}
export const INITIAL_PASSKEY_STATE: PasskeyState = { status: 'initial', action: null, error: null }

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

export const passkeysOf = (user: User | null | undefined): PasskeyAccount[] =>
  (user?.linkedAccounts ?? []).filter((a): a is PasskeyAccount => a.type === 'passkey')

export function createPasskeyFlow(ctx: Ctx, settings: PasskeySettings = {}): PasskeyApi {
  const state = ctx.store<PasskeyState>(INITIAL_PASSKEY_STATE)
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
