/**
 * Finishing a login or link (`kernel.completeLogin`, `ctx.completeLogin`): store the session,
 * remember the method as the recent one (unless its descriptor says not), tell the host (the
 * 'login' event, analytics), then run the `authenticated` chain (terms consent, wallet
 * creation ...). Loaded beside start-up: only a login needs it.
 */
// Through the kernel's entry, as the plugins' lazy chunks do (see ./session-calls.ts).
import { PorticoError, type AuthContext, type AuthResult, type LoginMeta, type PorticoEmitter, type PorticoHooks, type ResolvedConfig, type Session, type WireAuthResponse } from './index'
import type { MethodRegistry } from './methods'
import type { RecentLogins } from './recent'
import type { Navigator } from './screens'

export interface LoginDeps {
  session: Session
  methods: Pick<MethodRegistry, 'get'>
  recent: RecentLogins
  events: PorticoEmitter
  hooks: Readonly<PorticoHooks>
  screens: Navigator
  config(): ResolvedConfig
  analytics(eventName: string, payload?: Record<string, unknown>): void
}

export function createCompleteLogin(deps: LoginDeps) {
  const { session, events } = deps
  return async function completeLogin(response: WireAuthResponse, meta: LoginMeta = {}): Promise<AuthResult> {
    const result = session.apply(response)
    if (!result) throw new PorticoError('missing_or_invalid_token', 'The server ended the session instead of starting one.')
    const { method, intent = 'login' } = meta
    if (method && deps.methods.get(method)?.remembered !== false) deps.recent.remember({ ...meta, method })
    events.emit('login', { user: result.user, isNewUser: result.isNewUser, method, oauthTokens: result.oauthTokens ?? null })
    deps.analytics('login_completed', { method: method ?? null, intent, is_new_user: result.isNewUser })
    const ctx: AuthContext = { ...result, method, intent, session, screens: deps.screens, config: deps.config() }
    await deps.hooks.authenticated.promise(ctx)
    const done: AuthResult = { user: session.user ?? result.user, isNewUser: result.isNewUser }
    if (result.oauthTokens) done.oauthTokens = result.oauthTokens
    return done
  }
}
