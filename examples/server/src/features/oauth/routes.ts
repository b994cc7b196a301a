/**
 * Social login (issue 12; spec part 1, section 7 'Social (OAuth)'):
 * /oauth/{init,authenticate,link,unlink,transfer} plus the provider's redirect target
 * /oauth/callback. The server is the OAuth client (oauth4webapi): it issues the provider URL
 * for the client's PKCE challenge and state, receives the provider's redirect (query, or
 * Apple's form_post) and sends the browser back to the app page with the code, then
 * exchanges the code with the client's verifier and reads the profile.
 */
import { requireCaptcha } from '../../captcha'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import * as oauth from 'oauth4webapi'
import { z } from 'zod'
import type { WireAuthResponse, WireOAuthTokens } from '../../wire'
import type { AppSettings } from '../../config'
import { clientIp, type C, type Env, type ServerCtx } from '../../core/context'
import { ApiError, errors } from '../../core/errors'
import { hitLimit } from '../../codes'
import { linkAccount, loginWithAccount, transferAccount, unlinkAccount, type AccountInput } from '../../core/identity'
import { isOAuthProvider, OAUTH_PROVIDERS, resolveProvider, type OAuthProfile, type OAuthProvider, type ResolvedProvider } from './providers'
import { now, sha256 } from '../../core/identity/tokens'
import { id, mode, optId } from '../../core/validate'
import { checkAllowlist } from '../../core/access'
import { authorizationUrl, checkPkceInit, STATE_CODE } from './pkce'
import { router } from '../../core/router'
import { currentGuest } from '../../core/auth'
import { OAUTH_MSG, denied, notConfigured, oauthError, rateLimited, suspended } from './errors'
import { insertState, liveState, setStateData, useState, type StateRow } from './repo'

export const OAUTH_STATE_TTL_S = 600
export const CALLBACK_PATH = '/api/v1/oauth/callback'

export interface OAuthOptions {
  /** Time-out of each request to a provider (default PORTICO_OAUTH_TIMEOUT_MS, else 10 s). */
  timeoutMs?: number
  /** The server's public origin for the redirect URI (default PORTICO_PUBLIC_URL, else the request's origin). */
  publicUrl?: string
  /** Where client ids, secrets and PORTICO_OAUTH_BASE_URL are read (default process.env). */
  env?: Record<string, string | undefined>
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/


const loopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]'

export function oauthRoutes(ctx: ServerCtx, opts: OAuthOptions = {}) {
  const r = router(ctx)
  const env = opts.env ?? process.env
  const timeoutMs = opts.timeoutMs ?? (Number(env.PORTICO_OAUTH_TIMEOUT_MS) || 10_000)

  const providerFor = (app: AppSettings, provider: string): ResolvedProvider => {
    if (!isOAuthProvider(provider)) throw errors.invalidData(`provider: expected one of ${OAUTH_PROVIDERS.join(', ')}`, { fields: { provider: 'Unknown provider' } }, 422)
    if (!app.loginMethods.includes(provider) && !app.loginMethods.includes(`${provider}_oauth`)) throw errors.disallowedMethod(provider)
    const p = resolveProvider(provider, app, env)
    // Configured nowhere: only this method is disabled, with a clear error.
    if (!p) throw notConfigured(provider)
    return p
  }
  const insecure = (url: string) => {
    const u = new URL(url)
    return u.protocol === 'http:' && (ctx.dev || loopback(u.hostname))
  }
  const publicOrigin = (c: C) => (opts.publicUrl ?? env.PORTICO_PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/+$/, '')

  // ------------------------------------------------------------------ init
  r.post('/oauth/init', { summary: 'OAuth: the provider URL for a PKCE challenge and state', body: z.object({ provider: id(32), redirect_to: id(2048), token: optId(4096), code_challenge: id(128), state_code: id(256) }) }, async (c, { body: b }) => {
      const app = c.get('app')
      const p = providerFor(app, b.provider)
      // Captcha (issue 13): verified with the provider's siteverify, as every init that takes a token.
      if (!c.req.header('authorization')) await requireCaptcha(c, ctx, b.token)
      const redirectTo = checkPkceInit(app, b)
      if (!(await hitLimit(ctx.store, `oauth-ip:${clientIp(c, ctx.trustProxy)}`, ctx.limits.perIp * 4, ctx.limits.windowS))) throw errors.tooMany()
      const redirectUri = `${publicOrigin(c)}${CALLBACK_PATH}`
      const t = now()
      const fresh = await insertState(ctx.store, { stateHash: sha256(b.state_code), appId: app.id, provider: p.id, codeChallenge: b.code_challenge, redirectTo: redirectTo.href, redirectUri, t, expiresAt: t + OAUTH_STATE_TTL_S })
      if (!fresh) throw oauthError('This state code was already used. Start again.')
      const url = authorizationUrl(p.authorizationUrl, {
        clientIdParam: p.clientAuth === 'client_key' ? 'client_key' : 'client_id',
        clientId: p.clientId,
        redirectUri,
        scope: p.scopes.join(p.scopeSeparator),
        state: b.state_code,
        codeChallenge: p.pkce ? b.code_challenge : undefined,
        extra: p.authParams,
      })
      return c.json({ url })
    })

  // ------------------------------------------------------------------ exchange
  /** Consumes the state, checks the verifier, exchanges the code and reads the profile. */
  async function exchange(c: C, b: { authorization_code?: string | null; state_code?: string | null; code_verifier?: string | null; provider?: string | null }) {
    const app = c.get('app')
    if (!b.authorization_code || !b.state_code) throw errors.invalidData(OAUTH_MSG.missingCodes)
    // The provider may be left out (the published client sends none): the state names it.
    const named = b.provider ? providerFor(app, b.provider) : null
    const st = await useState(ctx.store, sha256(b.state_code), app.id, now())
    // The spec's convention: an authorization code of 'undefined' means the user denied it.
    if (b.authorization_code === 'undefined') throw denied(named?.id ?? st?.provider ?? 'oauth')
    if (!st) throw oauthError(OAUTH_MSG.badState, { reason: 'invalid_state' })
    const p = named ?? providerFor(app, st.provider)
    if (st.provider !== p.id) throw oauthError('This state was issued for another provider.', { reason: 'provider_mismatch' })
    if (!b.code_verifier || !VERIFIER.test(b.code_verifier)) throw oauthError(OAUTH_MSG.badVerifier, { reason: 'invalid_verifier' })
    if ((await oauth.calculatePKCECodeChallenge(b.code_verifier)) !== st.code_challenge) {
      throw oauthError(OAUTH_MSG.badVerifier, { reason: 'invalid_verifier' })
    }
    const { tokens, profile } = await callProvider(p, st, b.authorization_code, b.state_code, b.code_verifier)
    const oauthTokens: WireOAuthTokens = {
      provider: p.id,
      access_token: tokens.access_token,
      ...(typeof tokens.expires_in === 'number' ? { access_token_expires_in_seconds: tokens.expires_in } : {}),
      ...(typeof tokens.refresh_token === 'string' ? { refresh_token: tokens.refresh_token } : {}),
      ...(typeof tokens.refresh_token_expires_in === 'number'
        ? { refresh_token_expires_in_seconds: tokens.refresh_token_expires_in }
        : typeof tokens.refresh_expires_in === 'number'
          ? { refresh_token_expires_in_seconds: tokens.refresh_expires_in }
          : {}),
      scopes: typeof tokens.scope === 'string' ? tokens.scope.split(/[\s,]+/).filter(Boolean) : p.scopes,
    }
    const info = { provider: p.id, ...profile }
    const acct: AccountInput = {
      type: `${p.id}_oauth`,
      identifier: profile.subject,
      data: { subject: profile.subject, email: profile.email, name: profile.name, username: profile.username },
      transferable: app.oauth?.allowTransfer !== false,
      linkMethod: p.id,
      displayName: profile.email ?? profile.username ?? profile.name ?? profile.subject,
      transferInfo: { oauth_user_info: info },
    }
    if (app.allowlist) checkAllowlist(app, profile.email ?? '')
    return { acct, oauthTokens }
  }

  async function callProvider(p: ResolvedProvider, st: StateRow, code: string, state: string, verifier: string) {
    const as: oauth.AuthorizationServer = {
      issuer: p.issuer ?? new URL(p.tokenUrl).origin,
      token_endpoint: p.tokenUrl,
    }
    const client: oauth.Client = { client_id: p.clientId }
    const clientAuth =
      p.clientAuth === 'client_key' || !p.clientSecret
        ? oauth.None()
        : p.clientAuth === 'basic'
          ? oauth.ClientSecretBasic(p.clientSecret)
          : oauth.ClientSecretPost(p.clientSecret)
    const additionalParameters: Record<string, string> = {}
    if (p.clientAuth === 'client_key') {
      additionalParameters.client_key = p.clientId
      if (p.clientSecret) additionalParameters.client_secret = p.clientSecret
    }
    const common = { signal: AbortSignal.timeout(timeoutMs), [oauth.allowInsecureRequests]: insecure(p.tokenUrl) }
    let tokens: oauth.TokenEndpointResponse
    try {
      const params = oauth.validateAuthResponse(as, client, new URLSearchParams({ code, state }), state)
      const res = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, st.redirect_uri, p.pkce ? verifier : oauth.nopkce, {
        ...common,
        additionalParameters,
        // Providers that omit token_type (Instagram) are read as bearer tokens.
        [oauth.customFetch]: async (url: string, init: RequestInit) => bearerDefault(await fetch(url, init)),
      })
      if (res.status === 429) throw rateLimited(p)
      if (res.status >= 500) throw oauthError(`${p.label} is not answering. Please try again later.`, { reason: 'provider_error', provider: p.id }, 424)
      tokens = await oauth.processAuthorizationCodeResponse(as, client, res, { requireIdToken: !!p.profileFromIdToken })
    } catch (err) {
      throw mapProviderError(p, err, 'token')
    }
    let json: unknown
    try {
      if (p.profileFromIdToken) {
        json = oauth.getValidatedIdTokenClaims(tokens)
      } else {
        if (!p.profileUrl) throw new Error('no profile endpoint')
        const res = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(p.profileUrl), new Headers({ accept: 'application/json' }), null, {
          signal: AbortSignal.timeout(timeoutMs),
          [oauth.allowInsecureRequests]: insecure(p.profileUrl),
        })
        if (res.status === 429) throw rateLimited(p)
        if (res.status === 403 || res.status === 401) {
          const text = await res.text().catch(() => '')
          if (/suspend/i.test(text)) throw suspended(p)
          throw oauthError(`${p.label} refused to share the profile.`, { reason: 'provider_error', provider: p.id }, 424)
        }
        if (!res.ok) throw oauthError(`${p.label} is not answering. Please try again later.`, { reason: 'provider_error', provider: p.id }, 424)
        json = await res.json()
      }
    } catch (err) {
      throw mapProviderError(p, err, 'profile')
    }
    let profile: OAuthProfile
    try {
      profile = p.profile(json, { appleUser: st.data?.apple_user })
    } catch {
      throw oauthError(`${p.label} sent a profile without an account id.`, { reason: 'provider_error', provider: p.id }, 424)
    }
    return { tokens, profile }
  }

  function mapProviderError(p: ResolvedProvider, err: unknown, step: 'token' | 'profile'): ApiError {
    if (err instanceof ApiError) return err
    const e = err as { name?: string; error?: string; status?: number; cause?: unknown; code?: string }
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
      return oauthError(`${p.label} did not answer in time. Please try again.`, { reason: 'provider_timeout', provider: p.id }, 424)
    }
    if (err instanceof oauth.ResponseBodyError) {
      if (err.status === 429) return rateLimited(p)
      if (/suspend/i.test(`${err.error} ${err.error_description ?? ''}`)) return suspended(p)
      // invalid_grant: a used, expired or foreign code, or a verifier that does not match.
      if (err.status < 500) return oauthError(OAUTH_MSG.invalid, { reason: err.error, provider: p.id })
    }
    if (err instanceof TypeError && step) {
      return oauthError(`${p.label} cannot be reached. Please try again later.`, { reason: 'provider_unreachable', provider: p.id }, 424)
    }
    ctx.log.warn({ provider: p.id, step, err_name: e?.name, err_code: typeof e?.code === 'string' ? e.code : undefined }, 'oauth provider error')
    return oauthError(`${p.label} answered in an unexpected way. Please try again.`, { reason: 'provider_error', provider: p.id }, 424)
  }

  const exchangeSchema = {
    authorization_code: optId(4096),
    state_code: optId(256),
    code_verifier: optId(256),
    provider: optId(32),
  }

  r.post('/oauth/authenticate', { summary: 'OAuth: log in with an authorization code', body: z.object({ ...exchangeSchema, mode }), auth: 'optional' }, async (c, { body: b }) => {
      const app = c.get('app')
      const { acct, oauthTokens } = await exchange(c, b)
      const guest = await currentGuest(c, ctx)
      const res: WireAuthResponse = await loginWithAccount(ctx, app, acct, { mode: b.mode ?? undefined, guestUserId: guest })
      return c.json({ ...res, oauth_tokens: oauthTokens })
    })

  r.post('/oauth/link', { summary: 'OAuth: link a provider account', body: z.object(exchangeSchema), auth: 'link' }, async (c, { body: b, auth }) => {
    const { acct, oauthTokens } = await exchange(c, b)
    const res = await linkAccount(ctx, c.get('app'), auth.userId, acct)
    return c.json({ ...res, oauth_tokens: oauthTokens })
  })

  r.post('/oauth/unlink', { summary: 'OAuth: unlink a provider account', body: z.object({ provider: id(32), subject: id(256) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      if (!isOAuthProvider(b.provider)) throw errors.field('provider', 'Unknown provider')
      return c.json(await unlinkAccount(ctx, c.get('app'), auth.userId, `${b.provider}_oauth`, b.subject))
    })

  r.post('/oauth/transfer', { summary: 'OAuth: move a provider account from another user', body: z.object({ nonce: id(128), userInfo: z.looseObject({ provider: id(32), subject: id(256) }) }), auth: 'link' }, async (c, { body: b, auth }) => {
      if (!isOAuthProvider(b.userInfo.provider)) throw errors.field('userInfo.provider', 'Unknown provider')
      return c.json(await transferAccount(ctx, c.get('app'), auth.userId, b.nonce, `${b.userInfo.provider}_oauth`, b.userInfo.subject))
    })
  return r.app
}

/**
 * The provider's redirect target (GET with a query; POST form for Apple's form_post). No app
 * id header comes with a browser navigation: the state names the flow. Answers 303 to the
 * app page with privy_oauth_code / privy_oauth_state / privy_oauth_provider (or
 * privy_oauth_error), or a plain 400 page when the state is unknown.
 */
export function oauthCallbackRoutes(ctx: ServerCtx) {
  const app = new Hono<Env>()
  const limit = bodyLimit({ maxSize: 16 * 1024, onError: (c) => page(c, 413, 'Response too large.') })
  app.on(['GET', 'POST'], CALLBACK_PATH, limit, async (c) => {
    let params: URLSearchParams
    if (c.req.method === 'POST') {
      const type = c.req.header('content-type') ?? ''
      if (!type.startsWith('application/x-www-form-urlencoded')) return page(c, 415, 'Unsupported response.')
      params = new URLSearchParams(await c.req.text())
    } else {
      params = new URL(c.req.url).searchParams
    }
    const state = params.get('state') ?? ''
    if (!STATE_CODE.test(state)) return page(c, 400, 'This sign-in link is invalid or has expired. Close this window and try again.')
    const st = await liveState(ctx.store, sha256(state), now())
    if (!st) return page(c, 400, 'This sign-in link is invalid or has expired. Close this window and try again.')
    const back = new URL(st.redirect_to)
    back.searchParams.set('privy_oauth_state', state)
    back.searchParams.set('privy_oauth_provider', st.provider)
    const code = params.get('code')
    const error = params.get('error')
    if (code && !error && code.length <= 4096) {
      // Apple sends the user's name once, on the first authorization, in the form post.
      const user = params.get('user')
      if (user && user.length <= 4096) {
        try {
          const parsed = JSON.parse(user)
          await setStateData(ctx.store, sha256(state), { apple_user: parsed })
        } catch {}
      }
      back.searchParams.set('privy_oauth_code', code)
    } else {
      const text = `${error ?? ''} ${params.get('error_description') ?? ''}`
      const mapped = /suspend/i.test(text)
        ? 'oauth_account_suspended'
        : error === 'access_denied' || error === 'user_cancelled_authorize' || error === 'user_cancelled_login'
          ? 'oauth_user_denied'
          : 'oauth_unexpected'
      back.searchParams.set('privy_oauth_error', mapped)
    }
    c.header('cache-control', 'no-store')
    c.header('referrer-policy', 'no-referrer')
    return c.redirect(back.href, 303)
  })
  return app
}

function page(c: Context, status: 400 | 413 | 415, message: string) {
  c.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
  c.header('cache-control', 'no-store')
  const esc = message.replace(/[&<>"]/g, (ch: string) => `&#${ch.charCodeAt(0)};`)
  return c.html(`<!doctype html><meta charset="utf-8"><title>Sign-in failed</title><p>${esc}</p>`, status)
}


/** A token response without token_type (Instagram's) is a bearer token response. */
async function bearerDefault(res: Response): Promise<Response> {
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return res
  const text = await res.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    return new Response(text, { status: res.status, headers: res.headers })
  }
  if (json && typeof json === 'object' && !Array.isArray(json) && json.access_token && json.token_type === undefined) json.token_type = 'bearer'
  return new Response(JSON.stringify(json), { status: res.status, headers: { 'content-type': 'application/json' } })
}
