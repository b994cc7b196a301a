/**
 * Cloud-backup recovery of the embedded wallet (issue 14; spec part 2 section 7 'Recovery
 * (HTTP)' and section 5 'OAuth recovery'):
 *
 * - POST /recovery/oauth/init {redirect_to, code_challenge, state_code} → {url}: the Google
 *   authorization URL (Drive `appDataFolder` scope, the client's S256 challenge, its state;
 *   the redirect URI is this server's /recovery/oauth/callback).
 * - GET  /recovery/oauth/callback: Google's redirect target; 303 to `redirect_to` with
 *   privy_oauth_code / privy_oauth_state / privy_oauth_provider (or privy_oauth_error).
 * - POST /recovery/oauth/authenticate {authorization_code, state_code, code_verifier, provider}
 *   → {access_token}: both codes required ('Authorization and state codes code must be set
 *   prior to calling authenicate.'), 'undefined' = the user denied it, the state single use and
 *   bound to the app and the user, the verifier checked against the stored challenge (PKCE),
 *   then the code exchanged with the app's Google client secret. For 'icloud' the code is
 *   CloudKit's ckWebAuthToken, checked with CloudKit's users/current.
 * - POST /recovery/oauth/init_icloud {client_type: 'web'} → {url}: CloudKit's sign-in URL
 *   (the redirectURL of its 421 answer to users/current with the server's API token).
 * - POST /recovery/cloud_key {entropy_id} → {key}: the per-wallet key that seals the
 *   recovery share kept in the user's drive (HMAC of the server secret: never stored; the
 *   drive never sees it, the server never sees the drive's file).
 *
 * Provider endpoints are Google's and Apple's; PORTICO_CLOUD_DRIVE_BASE_URL rebases both onto
 * one host as `<base>/google/…` and `<base>/icloud/…` (examples/stand-ins/cloud-drive).
 * Client ids and secrets come from the environment and never reach the browser.
 */
import { Hono, type Context } from 'hono'
import * as oauth from 'oauth4webapi'
import { z } from 'zod'
import { hitLimit } from '../../codes'
import { clientIp, type C, type Env, type ServerCtx } from '../../core/context'
import { ApiError, errors } from '../../core/errors'
import { requireDevice } from '../wallets/device'
import { requireFreshMfa } from '../mfa/gate'
import { now, sha256 } from '../../core/identity/tokens'
import { id, optId } from '../../core/validate'
import { authorizationUrl, checkPkceInit, checkStateCode, STATE_CODE } from '../oauth/pkce'
import { router } from '../../core/router'
import { RecoveryProviders, cloudEndpoints, cloudKey, recoveryProviders } from './service'
import { RECOVERY_MSG, denied, googleRateLimited, notSupported, oauthError } from './errors'
import { noFrame } from '../wallets/errors'
import { insertState, liveStateRedirect, useState } from './repo'

export const RECOVERY_STATE_TTL_S = 600
export const RECOVERY_CALLBACK_PATH = '/api/v1/recovery/oauth/callback'
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.appdata'

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/
const PROVIDERS = ['google-drive', 'icloud'] as const
const loopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]'

export interface RecoveryOptions {
  /** The wallet frame's origin: the cloud key is released to it only. */
  frameOrigin?: () => string | undefined
  /** Where the provider settings are read (default process.env, per request). */
  env?: Record<string, string | undefined>
}

/** The /recovery routes (`api`) and Google's redirect (`root`, outside /api/v1). */
export function recoveryRoutes(ctx: ServerCtx, opts: RecoveryOptions = {}) {
  const r = router(ctx)
  const root = new Hono<Env>()
  const env = opts.env ?? process.env
  const timeoutMs = Number(env.PORTICO_OAUTH_TIMEOUT_MS) || 10_000
  const publicOrigin = (c: Context) => (env.PORTICO_PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/+$/, '')
  const insecure = (url: string) => {
    const u = new URL(url)
    return u.protocol === 'http:' && (ctx.dev || loopback(u.hostname))
  }
  const limit = async (c: C) => {
    if (!(await hitLimit(ctx.store, `recovery-ip:${clientIp(c, ctx.trustProxy)}`, ctx.limits.perIp * 4, ctx.limits.windowS))) throw errors.tooMany()
  }

  // ------------------------------------------------------------------ init (Google Drive)
  r.post('/recovery/oauth/init', { summary: 'Recovery: the Google authorization URL (Drive appDataFolder) for a PKCE challenge and state', body: z.object({ redirect_to: id(2048), code_challenge: id(128), state_code: id(256) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      const redirectTo = checkPkceInit(app, b)
      const g = recoveryProviders(env).google
      if (!g) throw notSupported('not_configured')
      await limit(c)
      const redirectUri = `${publicOrigin(c)}${RECOVERY_CALLBACK_PATH}`
      const t = now()
      const fresh = await insertState(ctx.store, { stateHash: sha256(b.state_code), appId: app.id, userId: auth.userId, codeChallenge: b.code_challenge, redirectTo: redirectTo.href, redirectUri, t, expiresAt: t + RECOVERY_STATE_TTL_S })
      if (!fresh) throw oauthError('This state code was already used. Start again.')
      const url = authorizationUrl(g.authorize, {
        clientId: g.clientId,
        redirectUri,
        scope: DRIVE_SCOPE,
        state: b.state_code,
        codeChallenge: b.code_challenge,
        // No refresh token: the drive is used only while the user is here.
        extra: { access_type: 'online', include_granted_scopes: 'false' },
      })
      return c.json({ url })
    })

  // ------------------------------------------------------------------ init (iCloud)
  r.post('/recovery/oauth/init_icloud', { summary: "Recovery: CloudKit's web sign-in URL", body: z.object({ client_type: z.literal('web', { message: "Expected 'web'" }) }), auth: 'bearer' }, async (c) => {
      const ck = recoveryProviders(env).icloud
      if (!ck) throw notSupported('not_configured')
      await limit(c)
      const res = await cloudkit(ck, 'GET', '/users/current', null)
      const body = (await res.json().catch(() => null)) as { redirectURL?: unknown } | null
      if (res.status !== 421 || typeof body?.redirectURL !== 'string') {
        throw oauthError('iCloud did not offer a sign-in. Please try again later.', { reason: 'provider_error', provider: 'icloud' }, 424)
      }
      return c.json({ url: body.redirectURL })
    })

  /** A CloudKit web services call on the private database (API token, optional web auth token). */
  async function cloudkit(ck: NonNullable<RecoveryProviders['icloud']>, method: 'GET' | 'POST', path: string, webAuthToken: string | null) {
    const url = new URL(`${ck.base}/database/1/${encodeURIComponent(ck.container)}/${ck.environment}/private${path}`)
    url.searchParams.set('ckAPIToken', ck.apiToken)
    if (webAuthToken) url.searchParams.set('ckWebAuthToken', webAuthToken)
    try {
      return await fetch(url, { method, signal: AbortSignal.timeout(timeoutMs) })
    } catch {
      throw oauthError('iCloud cannot be reached. Please try again later.', { reason: 'provider_unreachable', provider: 'icloud' }, 424)
    }
  }

  // ------------------------------------------------------------------ authenticate
  r.post('/recovery/oauth/authenticate', { summary: "Recovery: exchange the provider's code (PKCE checked) for the drive's access token", body: z.object({ authorization_code: optId(4096), state_code: optId(256), code_verifier: optId(256), provider: optId(32) }), auth: 'bearer' }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      if (!b.authorization_code || !b.state_code) throw errors.invalidData(RECOVERY_MSG.missingCodes)
      // No provider (the published client's authorize sends none): Google Drive, the PKCE flow /recovery/oauth/init starts.
      const provider = b.provider ?? 'google-drive'
      if (!(PROVIDERS as readonly string[]).includes(provider)) throw errors.field('provider', `Expected one of ${PROVIDERS.join(', ')}`)
      if (b.authorization_code === 'undefined') throw denied(provider)
      if (provider === 'icloud') {
        const ck = recoveryProviders(env).icloud
        if (!ck) throw notSupported('not_configured')
        checkStateCode(b.state_code)
        const res = await cloudkit(ck, 'GET', '/users/current', b.authorization_code)
        if (res.status === 421 || res.status === 401) throw oauthError(RECOVERY_MSG.invalid, { reason: 'invalid_grant', provider: 'icloud' })
        if (!res.ok) throw oauthError('iCloud answered in an unexpected way. Please try again.', { reason: 'provider_error', provider: 'icloud' }, 424)
        // CloudKit's web auth token is the bearer of its web services.
        return c.json({ access_token: b.authorization_code })
      }
      const g = recoveryProviders(env).google
      if (!g) throw notSupported('not_configured')
      const st = await useState(ctx.store, sha256(b.state_code), app.id, auth.userId, now())
      if (!st) throw oauthError('Invalid or expired OAuth state.', { reason: 'invalid_state' })
      if (!b.code_verifier || !VERIFIER.test(b.code_verifier) || (await oauth.calculatePKCECodeChallenge(b.code_verifier)) !== st.code_challenge) {
        throw oauthError('Authentication error.', { reason: 'invalid_verifier' })
      }
      const as: oauth.AuthorizationServer = { issuer: new URL(g.token).origin, token_endpoint: g.token }
      const client: oauth.Client = { client_id: g.clientId }
      try {
        const params = oauth.validateAuthResponse(as, client, new URLSearchParams({ code: b.authorization_code, state: b.state_code }), b.state_code)
        const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretPost(g.clientSecret), params, st.redirect_uri, b.code_verifier, {
          signal: AbortSignal.timeout(timeoutMs),
          [oauth.allowInsecureRequests]: insecure(g.token),
        })
        if (res.status === 429) throw googleRateLimited()
        if (res.status >= 500) throw oauthError('Google is not answering. Please try again later.', { reason: 'provider_error', provider: 'google-drive' }, 424)
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, res)
        return c.json({ access_token: tokens.access_token, ...(typeof tokens.expires_in === 'number' ? { expires_in: tokens.expires_in } : {}) })
      } catch (err) {
        if (err instanceof ApiError) throw err
        const e = err as { name?: string; status?: number }
        if (e?.name === 'TimeoutError' || e?.name === 'AbortError') throw oauthError('Google did not answer in time. Please try again.', { reason: 'provider_timeout', provider: 'google-drive' }, 424)
        if (err instanceof oauth.ResponseBodyError && err.status < 500) throw oauthError(RECOVERY_MSG.invalid, { reason: err.error, provider: 'google-drive' })
        if (err instanceof TypeError) throw oauthError('Google cannot be reached. Please try again later.', { reason: 'provider_unreachable', provider: 'google-drive' }, 424)
        ctx.log.warn({ provider: 'google-drive', err_name: e?.name }, 'recovery oauth provider error')
        throw oauthError(RECOVERY_MSG.tryAgain, { reason: 'provider_error', provider: 'google-drive' }, 424)
      }
    })

  // ------------------------------------------------------------------ the drive blob's key
  /**
   * Like the wallet shares: released to a wallet frame's device (a device proof, features/wallets/device.ts;
   * Origin is no credential). A new device may ask: the drive's file is the factor the token lacks.
   */
  const frameDevice = async (c: C, b: { entropy_id: string }) => {
    if (!opts.frameOrigin?.()) throw noFrame()
    return (await requireDevice(c, ctx, { entropyId: b.entropy_id, binding: 'any' })).auth
  }
  r.post('/recovery/cloud_key', { summary: "Recovery: the key that seals the wallet's recovery share kept in the user's cloud drive — wallet frame only", body: z.object({ entropy_id: id(256) }), guard: frameDevice }, async (c, { body: b, auth }) => {
      await requireFreshMfa(ctx, auth, 'recovery')
      await limit(c)
      c.header('cache-control', 'no-store')
      return c.json({ key: cloudKey(ctx, c.get('app').id, auth.userId, b.entropy_id), endpoints: cloudEndpoints(recoveryProviders(env)) })
    })

  // ------------------------------------------------------------------ Google's redirect
  root.get(RECOVERY_CALLBACK_PATH, async (c) => {
    const params = new URL(c.req.url).searchParams
    const state = params.get('state') ?? ''
    const fail = () => page(c, 'This link is invalid or has expired. Close this window and try again.')
    if (!STATE_CODE.test(state)) return fail()
    const redirectTo = await liveStateRedirect(ctx.store, sha256(state), now())
    if (!redirectTo) return fail()
    const back = new URL(redirectTo)
    back.searchParams.set('privy_oauth_state', state)
    back.searchParams.set('privy_oauth_provider', 'google-drive')
    const code = params.get('code')
    const error = params.get('error')
    if (code && !error && code.length <= 4096) back.searchParams.set('privy_oauth_code', code)
    else back.searchParams.set('privy_oauth_error', error === 'access_denied' ? 'oauth_user_denied' : 'oauth_unexpected')
    c.header('cache-control', 'no-store')
    c.header('referrer-policy', 'no-referrer')
    return c.redirect(back.href, 303)
  })
  return { api: r.app, root }
}

function page(c: Context, message: string) {
  c.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
  c.header('cache-control', 'no-store')
  const esc = message.replace(/[&<>"]/g, (ch: string) => `&#${ch.charCodeAt(0)};`)
  return c.html(`<!doctype html><meta charset="utf-8"><title>Recovery failed</title><p>${esc}</p>`, 400)
}
