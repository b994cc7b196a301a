/** OAuth's error texts (spec part 1) and errors. */
import { ApiError } from '../../core/errors'
import type { ResolvedProvider } from './providers'

export const OAUTH_MSG = {
  missingCodes: 'Authorization and state codes code must be set prior to calling authenticate/link.',
  denied: 'User denied confirmation during OAuth flow',
  invalid: 'Invalid code during OAuth flow.',
  badState: 'Invalid or expired OAuth state.',
  badVerifier: 'Authentication error.',
} as const

export const oauthError = (msg: string, data?: Record<string, unknown>, status: 400 | 424 = 400) =>
  new ApiError(status, 'oauth_unexpected', msg, data)

export const denied = (provider: string) => new ApiError(403, 'oauth_user_denied', OAUTH_MSG.denied, { provider })

export const suspended = (p: ResolvedProvider) =>
  new ApiError(403, 'oauth_account_suspended', `Your ${p.label} account is suspended. Please try another login method.`, { provider: p.id })

export const rateLimited = (p: ResolvedProvider) =>
  new ApiError(429, 'too_many_requests', `Request limit reached for ${p.label}. Please wait a moment and try again.`, {
    provider: p.id,
    reason: 'provider_rate_limit',
  })

/** The app enables a provider the server has no client for. */
export const notConfigured = (provider: string) =>
  new ApiError(403, 'disallowed_login_method', `Login with ${provider} is not configured on this server.`, { reason: 'not_configured' })
