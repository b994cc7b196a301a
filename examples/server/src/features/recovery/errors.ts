/** Recovery's error texts (spec part 2 sections 5 and 8) and errors. */
import { ApiError } from '../../core/errors'

/** Spec part 2 sections 5 and 8, word for word. */
export const RECOVERY_MSG = {
  missingCodes: 'Authorization and state codes code must be set prior to calling authenicate.',
  denied: 'User denied confirmation during OAuth flow',
  invalid: 'Invalid code during OAuth flow.',
  notSupported: 'Recovery method not supported',
  tryAgain: 'An error has occurred, please try again.',
} as const

export const oauthError = (msg: string, data?: Record<string, unknown>, status: 400 | 424 = 400) => new ApiError(status, 'oauth_unexpected', msg, data)

export const notSupported = (reason: string) => new ApiError(400, 'method_not_supported', RECOVERY_MSG.notSupported, { reason })

export const denied = (provider: string) => new ApiError(403, 'oauth_user_denied', RECOVERY_MSG.denied, { provider })

export const googleRateLimited = () =>
  new ApiError(429, 'too_many_requests', 'Request limit reached for Google. Please wait a moment and try again.', { provider: 'google-drive' })
