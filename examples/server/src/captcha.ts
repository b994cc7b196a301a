/**
 * Captcha verification (Cloudflare Turnstile, hCaptcha): the token a client sends on an init
 * call is checked with the provider's siteverify endpoint (POST form `secret`, `response`,
 * `remoteip`; JSON `{success, 'error-codes'}`), with the app's secret. Every URL is
 * overridable (`captcha.verifyUrl`) so tests and air-gapped setups use a local stand-in.
 *
 * An app with captcha on and no secret: refused at start-up in production; in development mode
 * the token is only checked for presence (warned at start-up).
 */
import type { AppSettings } from './config'
import type { C, ServerCtx } from './core/context'
import { clientIp } from './core/context'
import { ApiError, errors } from './core/errors'

export const SITEVERIFY_URLS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
} as const

export const SITEVERIFY_TIMEOUT_MS = 10_000

/** The app's captcha secret: inline `secret`, or the environment variable `secretEnv` names. */
export function captchaSecret(app: AppSettings, env: NodeJS.ProcessEnv = process.env): string | null {
  const c = app.captcha
  if (!c) return null
  if (c.secret) return c.secret
  if (c.secretEnv) return env[c.secretEnv] || null
  return null
}

/** Secret problems are the operator's, not the user's: logged (code only), answered 502. */
const SECRET_CODES = new Set(['missing-input-secret', 'invalid-input-secret', 'sitekey-secret-mismatch', 'invalid-or-already-seen-response-secret'])

export const captchaUnavailable = () =>
  new ApiError(502, 'captcha_failure', 'Captcha could not be verified. Please try again in a moment.')

/**
 * Throws 400 invalid_captcha unless the token passes siteverify (no-op when captcha is off).
 * Runs before any write of the route.
 */
export async function requireCaptcha(c: C, ctx: ServerCtx, token: string | null | undefined): Promise<void> {
  const app = c.get('app')
  if (!app.captcha?.enabled) return
  if (!token) throw errors.invalidCaptcha()
  const secret = captchaSecret(app)
  if (!secret) {
    if (ctx.dev) return // development mode without a secret: presence only (warned at start-up)
    throw captchaUnavailable()
  }
  const provider = app.captcha.provider ?? 'turnstile'
  const url = app.captcha.verifyUrl ?? SITEVERIFY_URLS[provider]
  const form = new URLSearchParams({ secret, response: token, remoteip: clientIp(c, ctx.trustProxy) })
  if (provider === 'hcaptcha' && app.captcha.siteKey) form.set('sitekey', app.captcha.siteKey)
  let body: { success?: unknown; 'error-codes'?: unknown }
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
    })
    if (!res.ok) throw new Error(`siteverify status ${res.status}`)
    body = (await res.json()) as typeof body
  } catch (e) {
    ctx.log.warn({ app_id: app.id, provider, err_name: (e as Error)?.name }, 'captcha siteverify unreachable')
    throw captchaUnavailable()
  }
  if (body?.success === true) return
  const codes = Array.isArray(body?.['error-codes']) ? (body['error-codes'] as unknown[]).filter((x): x is string => typeof x === 'string') : []
  if (codes.some((x) => SECRET_CODES.has(x))) {
    ctx.log.error({ app_id: app.id, provider, error_codes: codes.slice(0, 5) }, 'captcha secret refused by the provider')
    throw captchaUnavailable()
  }
  throw errors.invalidCaptcha()
}
