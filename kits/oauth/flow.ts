/**
 * The shared OAuth engine (part 1 sections 4, 5, 7 and 9), framework-free. Each provider
 * plugin runs one with its descriptor; its state lives in that plugin's kernel store.
 *
 * start → PKCE verifier (36 random bytes), S256 challenge, state code → POST /oauth/init → the
 * provider, either in this tab (redirect mode: the pending authorization waits in
 * sessionStorage and the return is claimed at start-up through the kernel's `returnPath`
 * hook) or in a popup (origin-checked message, 120 s, closed = rejected) → checks (code and
 * state set, 'undefined' = denied, verifier present, same state) → POST /oauth/authenticate
 * or /oauth/link → 'Successfully connected' → the `authenticated` chain (consent, wallet
 * creation) → close about 1.4 s after success.
 */
import {
  PorticoError,
  toPorticoError,
  type AuthResult,
  type Intent,
  type PluginContext,
  type Store,
  type User,
  type WireAuthResponse,
  type WireOAuthTokens,
} from 'portico'
import { authenticateOAuth, initOAuth, linkOAuth, unlinkOAuth, type OAuthGrantBody } from './calls'
import { fromServerError, oauthError, oauthFailure } from './errors'
import { isInAppBrowser } from './in-app-browser'
import { createPendingStore, type PendingAuthorization } from './pending'
import { challengeOf, createStateCode, createVerifier } from 'portico/kits/browser'
import { POPUP_FEATURES, POPUP_MESSAGE, POPUP_PARAM, popupName, waitForPopup, type OAuthHost, type OAuthPopup, type PopupReturn } from './popup'
import { INITIAL_OAUTH_STATE, RETURN_PARAMS, claimOAuthReturn, screenOf, type OAuthMode, type OAuthReturn, type OAuthState } from './state'
import { OAUTH_TEXTS } from './strings'

export { RETURN_PARAMS, INITIAL_OAUTH_STATE, screenOf, type OAuthMode, type OAuthState, type OAuthStatus } from './state'

/** After success, the modal closes this long after 'Successfully connected' (part 1 sections 4, 9). */
export const SUCCESS_DELAY_MS = 1_400

/** The provider tokens of one grant, as the app receives them (never stored by Portico). */
export interface OAuthTokenGrant {
  provider: string
  accessToken: string
  accessTokenExpiresInSeconds: number | null
  refreshToken: string | null
  refreshTokenExpiresInSeconds: number | null
  scopes: string[]
  /** The login method (plugin id) and what the grant was for. */
  method: string
  intent: Intent
  user: User | null
}

declare module 'portico' {
  interface PorticoEvents {
    /** An OAuth login or link returned the provider's tokens (handed over once, never stored). */
    'oauth:tokens': OAuthTokenGrant
  }
}

export interface OAuthProviderSpec {
  /** Plugin id and login-method id, as the app's login methods list it: 'google'. */
  id: string
  /** The `provider` of the wire calls: 'google'. */
  provider: string
  /** Part 1 section 2 'Login method display names': 'Google'. */
  displayName: string
  /** The provider's icon (a component taking svg props, or an image URL). */
  icon?: unknown
  /** Refuse embedded webviews with the in-app-browser screen (Google does: disallowed_useragent). */
  refusesInAppBrowsers?: boolean
}

export interface OAuthOptions {
  /** 'redirect' (default) or 'popup'. */
  mode?: OAuthMode
  /** Log in existing users only ('no-signup'): a new one gets 'Account not found'. */
  disableSignup?: boolean
  /** Where the provider sends the user back in redirect mode (default: this page). Same origin as the app. */
  redirectUrl?: string
  /** 'refuse' shows the in-app-browser screen in embedded webviews; default per provider (Google refuses). */
  inAppBrowsers?: 'refuse' | 'allow'
  popupTimeoutMs?: number
  popupPollMs?: number
  /** The browser window (tests pass a fake). */
  host?: OAuthHost
  /** Wait (tests shorten the success delay). */
  sleep?: (ms: number) => Promise<void>
}

export interface StartOptions {
  mode?: OAuthMode
  disableSignup?: boolean
}

/** What `kernel.plugin('<provider>')` / `usePlugin('<provider>')` return. */
export interface OAuthApi {
  readonly spec: OAuthProviderSpec
  readonly state: Store<OAuthState>
  /** The status screen's id (`<id>-oauth`). */
  readonly screen: string
  /** Log in (in a click handler for popup mode). Redirect mode navigates away and never resolves here. */
  login(options?: StartOptions): Promise<AuthResult | null>
  /** Link this provider to the logged-in user. */
  link(options?: StartOptions): Promise<AuthResult | null>
  /** Start for an intent; failures go to the state and the screen (what the landing row and Retry call). */
  start(intent: Intent, options?: StartOptions): void
  /** Close the popup (counts as the user rejecting). */
  cancel(): void
  /** POST /oauth/unlink for one of this provider's accounts (default: the user's). */
  unlink(subject?: string): Promise<User>
  /**
   * The provider profile (`oauth_user_info`) of an `account_transfer_required` this flow met,
   * by its nonce: what `POST /oauth/transfer` sends as `userInfo` (kept in memory, once).
   */
  transferInfo(nonce: string): Record<string, unknown> | null
  /** Whether this browser is an embedded webview this provider refuses. */
  refusesThisBrowser(): boolean
}

type Ctx = Pick<
  PluginContext,
  'id' | 'api' | 'config' | 'session' | 'screens' | 'storage' | 'events' | 'hooks' | 'texts' | 'completeLogin' | 'assertLoggedOut' | 'analytics'
> & { store: PluginContext['store'] }

const defaultHost = (): OAuthHost | null => (typeof window === 'undefined' ? null : (window as unknown as OAuthHost))

/** A popup the entry opened inside the click while the engine loaded (null: the browser blocked it). */
export interface Preopened {
  popup: OAuthPopup | null
}

/** The engine behind a provider's API: what the entry hands over once it has loaded (./index.ts). */
export interface OAuthEngine extends OAuthApi {
  /** `start` / `begin` with a popup the entry already opened inside the click. */
  start(intent: Intent, options?: StartOptions, preopened?: Preopened): void
  begin(intent: Intent, options?: StartOptions, preopened?: Preopened): Promise<AuthResult | null>
  /** The return claimed at start-up (`claimOAuthReturn`): this tab's redirect, or the popup page answering its opener. */
  finishReturn(ret: OAuthReturn, inPopup: boolean): Promise<AuthResult | null | undefined>
}

/** The engine and its `returnPath` claim, with its own store (the providers' entries load the engine lazily instead). */
export function createOAuthFlow(ctx: Ctx, spec: OAuthProviderSpec, options: OAuthOptions = {}): OAuthApi {
  const state = ctx.store<OAuthState>({ ...INITIAL_OAUTH_STATE, mode: options.mode ?? 'redirect' })
  const engine = createOAuthEngine(ctx, spec, options, state)
  ctx.hooks.returnPath.tap(spec.id, ({ url }) => claimOAuthReturn(url, spec.provider, engine.finishReturn))
  return engine
}

export function createOAuthEngine(ctx: Omit<Ctx, 'store'>, spec: OAuthProviderSpec, options: OAuthOptions, state: Store<OAuthState>): OAuthEngine {
  const T = () => ctx.texts(OAUTH_TEXTS)
  const fill = (t: string) => t.replace('{provider}', spec.displayName)
  const SCREEN = screenOf(spec.id)
  const pending = createPendingStore(ctx.config.appId, spec.id, ctx.storage)
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const host = () => options.host ?? defaultHost()
  let run = 0
  let cancelPopup = () => {}
  const transferInfos = new Map<string, Record<string, unknown>>()

  const err = (code: string, message: string, cause?: unknown, retryable = false) => oauthError(spec.id, code, message, cause, retryable)

  const refusesThisBrowser = () => {
    const refuse = options.inAppBrowsers ? options.inAppBrowsers === 'refuse' : !!spec.refusesInAppBrowsers
    return refuse && isInAppBrowser(host()?.navigator?.userAgent)
  }

  /** Our status screen on top (opened, or pushed over the landing). */
  const showScreen = (intent: Intent) => {
    const nav = ctx.screens
    const s = nav.getState()
    if (s.open && s.current?.id === SCREEN) return
    nav.open(SCREEN, { plugin: spec.id, running: true }, s.open ? {} : { intent }).catch(() => {})
  }

  const onOurScreen = () => ctx.screens.getState().open && ctx.screens.getState().current?.id === SCREEN

  const fail = (e: unknown, mine: number) => {
    if (mine !== run) return
    const error = toPorticoError(e)
    const info = error.data?.oauth_user_info
    if (error.code === 'account_transfer_required' && typeof error.data?.nonce === 'string' && info && typeof info === 'object') {
      transferInfos.set(error.data.nonce, info as Record<string, unknown>)
    }
    const f = oauthFailure(error, spec.displayName, T())
    state.set((s) => ({ ...s, status: 'error', error, detail: f.detail, retryable: f.retryable }))
    // Errors with a screen of their own (allowlist, user limit, account not found, transfer) leave ours.
    if (onOurScreen() && ctx.screens.hasOwnScreen(error, { method: spec.id })) ctx.screens.error(error, { method: spec.id })
  }

  /** The checks of part 1 section 5, then the call, then the login. */
  async function finishGrant(ret: Pick<PopupReturn, 'code' | 'state' | 'error'>, p: PendingAuthorization | null, intent: Intent, mine: number) {
    const t = T()
    if (ret.error === 'oauth_user_denied' || ret.code === 'undefined') throw err('oauth_user_denied', t.invalidCode, undefined, true)
    if (ret.error === 'oauth_account_suspended') throw err('oauth_account_suspended', t.invalidCode)
    if (ret.error) throw err('oauth_unexpected', t.invalidCode, undefined, false)
    if (!ret.code || !ret.state) throw err('oauth_unexpected', t.missingCodes)
    if (!p?.verifier) throw err('unknown_auth_error', t.missingVerifier)
    if (ret.state !== p.state) throw err('oauth_unexpected', t.unexpectedFlow)
    state.set((s) => ({ ...s, status: 'verifying', intent }))
    const body: OAuthGrantBody = { authorization_code: ret.code, state_code: ret.state, code_verifier: p.verifier, provider: spec.provider }
    let response: WireAuthResponse | { user: WireAuthResponse['user']; oauth_tokens?: WireOAuthTokens | null }
    try {
      response =
        intent === 'login'
          ? await authenticateOAuth(ctx.api, body, p.disableSignup ? 'no-signup' : 'login-or-sign-up')
          : await linkOAuth(ctx.api, body)
    } catch (e) {
      throw fromServerError(spec.id, e, t)
    }
    if (mine !== run) return null
    state.set((s) => ({ ...s, status: 'success', error: null, detail: null }))
    const successAt = Date.now()
    const screenBefore = ctx.screens.getState().current
    let result: AuthResult
    if (intent === 'login') {
      try {
        result = await ctx.completeLogin(response as WireAuthResponse, { method: spec.id, intent })
      } catch (e) {
        if (e instanceof PorticoError && e.code === 'exited_auth_flow') return null // declined the terms
        throw e
      }
    } else {
      result = { user: ctx.session.setUser(response.user), isNewUser: false }
      if (response.oauth_tokens) result.oauthTokens = response.oauth_tokens
    }
    emitTokens(response.oauth_tokens ?? null, intent, result.user)
    // 'Successfully connected' for about 1.4 s, unless the chain showed another screen (consent accepted).
    if (ctx.screens.getState().current === screenBefore) await sleep(Math.max(0, SUCCESS_DELAY_MS - (Date.now() - successAt)))
    if (ctx.screens.getState().open && mine === run) ctx.screens.close({ ...result, method: spec.id })
    return result
  }

  function emitTokens(tokens: WireOAuthTokens | null, intent: Intent, user: User | null) {
    if (!tokens?.access_token) return
    ctx.events.emit('oauth:tokens', {
      provider: tokens.provider ?? spec.provider,
      accessToken: tokens.access_token,
      accessTokenExpiresInSeconds: tokens.access_token_expires_in_seconds ?? null,
      refreshToken: tokens.refresh_token ?? null,
      refreshTokenExpiresInSeconds: tokens.refresh_token_expires_in_seconds ?? null,
      scopes: tokens.scopes ?? [],
      method: spec.id,
      intent,
      user,
    })
  }

  /** The page address this tab returns to (redirect mode), without any OAuth parameter. */
  function returnUrl(h: OAuthHost, popup: boolean): string {
    const url = new URL(options.redirectUrl ?? h.location.href)
    url.hash = ''
    for (const p of [...Object.values(RETURN_PARAMS), POPUP_PARAM]) url.searchParams.delete(p)
    if (popup) url.searchParams.set(POPUP_PARAM, '1')
    return url.href
  }

  async function begin(intent: Intent, o: StartOptions = {}, preopened?: Preopened): Promise<AuthResult | null> {
    const mode = o.mode ?? options.mode ?? 'redirect'
    const disableSignup = o.disableSignup ?? options.disableSignup ?? false
    const t = T()
    const h = host()
    try {
      if (refusesThisBrowser()) {
        preopened?.popup?.close()
        const nav = ctx.screens
        if (nav.getState().open) nav.replace('in-app-browser', {})
        else nav.open('in-app-browser', {}, { intent }).catch(() => {})
        return null
      }
      if (intent === 'login') ctx.assertLoggedOut()
      else if (!ctx.session.authenticated) throw new PorticoError('must_be_authenticated', t.mustBeAuthenticated)
      if (!h) throw new PorticoError('not_supported', t.invalidCode)
    } catch (e) {
      preopened?.popup?.close()
      throw e
    }
    const mine = ++run
    cancelPopup()
    const verifier = createVerifier()
    const stateCode = createStateCode()
    // Synchronously, inside the click: an empty window we point at the provider once init answers.
    let popup: OAuthPopup | null = null
    if (mode === 'popup') {
      popup = preopened ? preopened.popup : h.open('', popupName(spec.id), POPUP_FEATURES)
      if (!popup) {
        state.set({ ...INITIAL_OAUTH_STATE, mode, intent })
        showScreen(intent)
        const blocked = err('oauth_popup_blocked', fill(t.popupBlocked), undefined, true)
        fail(blocked, mine)
        throw blocked
      }
    }
    state.set({ ...INITIAL_OAUTH_STATE, status: mode === 'popup' ? 'awaiting' : 'redirecting', mode, intent })
    showScreen(intent)
    ctx.analytics('oauth_login_started', { provider: spec.provider, mode, intent })
    try {
      const code_challenge = await challengeOf(verifier)
      const { url } = await initOAuth(ctx.api, { provider: spec.provider, redirect_to: returnUrl(h, mode === 'popup'), code_challenge, state_code: stateCode })
      if (mine !== run) return null
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw err('oauth_unexpected', t.invalidCode)
      const p: PendingAuthorization = { provider: spec.provider, state: stateCode, verifier, intent, disableSignup, createdAt: Date.now() }
      if (!popup) {
        pending.save(p)
        h.location.assign(url)
        return await new Promise<never>(() => {}) // this page is leaving
      }
      popup.location.href = url
      const wait = waitForPopup(h, popup, spec.provider, {
        timeoutMs: options.popupTimeoutMs,
        pollMs: options.popupPollMs,
        originMismatch: () => err('oauth_unexpected', t.originMismatch),
        rejected: () => err('oauth_user_denied', t.invalidCode, undefined, true),
        timedOut: () => err('client_request_timeout', t.timedOut, undefined, true),
      })
      cancelPopup = wait.cancel
      const ret = await wait.result
      if (mine !== run) return null
      return await finishGrant(ret, p, intent, mine)
    } catch (e) {
      if (popup && !popup.closed) popup.close()
      fail(e, mine)
      throw e
    }
  }

  /** The redirect return, claimed at start-up: single-use pending authorization, then the grant. */
  async function resume(ret: Pick<PopupReturn, 'code' | 'state' | 'error'>) {
    const p = pending.take()
    const intent: Intent = p?.intent ?? 'login'
    const mine = ++run
    state.set({ ...INITIAL_OAUTH_STATE, status: 'verifying', mode: 'redirect', intent })
    showScreen(intent)
    try {
      return await finishGrant(ret, p, intent, mine)
    } catch (e) {
      fail(e, mine)
      throw e
    }
  }

  // The return: this tab (redirect mode), or the popup page answering its opener.
  async function finishReturn(ret: OAuthReturn, inPopup: boolean) {
    if (!inPopup) return resume(ret)
    const h = host()
    const opener = h?.opener
    if (!h || !opener) return resume(ret) // opened on its own: nothing to answer, the checks fail cleanly
    const message: PopupReturn = { type: POPUP_MESSAGE, provider: spec.provider, ...ret }
    opener.postMessage(message, h.location.origin)
    h.close?.()
    return undefined
  }

  const start = (intent: Intent, o?: StartOptions, preopened?: Preopened) => {
    begin(intent, o, preopened).catch((e) => {
      // Refusals before the flow (already logged in, not authenticated) have no state yet.
      if (state.get().status !== 'error') ctx.screens.error(e, { method: spec.id })
    })
  }

  return {
    spec,
    state,
    screen: SCREEN,
    begin,
    finishReturn,
    login: (o) => begin('login', o),
    link: (o) => begin('link', o),
    start,
    cancel: () => cancelPopup(),
    refusesThisBrowser,
    transferInfo(nonce: string) {
      const info = transferInfos.get(nonce) ?? null
      transferInfos.delete(nonce)
      return info
    },
    async unlink(subject?: string) {
      const account = ctx.session.user?.linkedAccounts.find((a) => a.type === `${spec.provider}_oauth` && (!subject || (a as { subject?: string }).subject === subject)) as
        | { subject: string }
        | undefined
      const sub = subject ?? account?.subject
      if (!sub) throw new PorticoError('method_not_supported', T().invalidCode)
      const res = await unlinkOAuth(ctx.api, spec.provider, sub)
      return ctx.session.setUser(res.user)
    },
  }
}
