import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { WireAccountTransferData, WireError, WireErrorCode } from '../wire'

/** An API error: HTTP status + WireError body. Throw it from any handler. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: WireErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message)
  }
  toWire(): WireError {
    return this.data ? { code: this.code, error: this.message, data: this.data } : { code: this.code, error: this.message }
  }
}

export const MSG = {
  devMode: 'This application is in development mode and must be upgraded to production to log in new users.',
  plusEmail: "Please enter a valid email address without a '+'.",
  linkedToAnother: 'This account has already been linked to another user.',
  mustBeAuthenticated: 'User must be authenticated before linking an account.',
  invalidCode: 'Invalid or expired verification code',
  needEmail: 'User is required to have an email address to update it.',
  needPhone: 'User is required to have a phone number to update it.',
  lastAccount: 'Cannot unlink the last login method of a user.',
  upgradedGuest: 'This guest account has a linked account now: log in with it.',
} as const

export const errors = {
  invalidAppId: (status: 400 | 404, msg = 'Missing or invalid app id') =>
    new ApiError(status, 'missing_or_invalid_privy_app_id', msg),
  invalidToken: (msg = 'Missing or invalid token') => new ApiError(401, 'missing_or_invalid_token', msg),
  mustBeAuthenticated: () => new ApiError(401, 'must_be_authenticated', MSG.mustBeAuthenticated),
  invalidCredentials: (msg: string = MSG.invalidCode) => new ApiError(401, 'invalid_credentials', msg),
  /** 422 invalid_data naming one field: `field: msg`, `data.fields[field] = msg`. */
  field: (field: string, msg: string) => new ApiError(422, 'invalid_data', `${field}: ${msg}`, { fields: { [field]: msg } }),
  invalidData: (msg: string, data?: Record<string, unknown>, status: ContentfulStatusCode = 400) =>
    new ApiError(status, 'invalid_data', msg, data),
  tooMany: (msg = 'Too many requests. Please wait before trying again.') => new ApiError(429, 'too_many_requests', msg),
  allowlist: () => new ApiError(403, 'allowlist_rejected', 'You do not have access to this app.'),
  maxAccounts: () => new ApiError(403, 'max_accounts_reached', 'This application has reached its user limit.'),
  devMode: () => new ApiError(403, 'max_accounts_reached', MSG.devMode, { reason: 'development_mode' }),
  disallowedMethod: (method: string) =>
    new ApiError(403, 'disallowed_login_method', `Login with ${method} is not allowed for this app.`),
  plusEmail: () => new ApiError(400, 'disallowed_plus_email', MSG.plusEmail),
  cannotLinkMore: (type: string) =>
    new ApiError(400, 'cannot_link_more_of_type', `User already has an account of type ${type} linked.`),
  linkedToAnother: () => new ApiError(400, 'linked_to_another_user', MSG.linkedToAnother),
  transferRequired: (transfer: WireAccountTransferData) =>
    new ApiError(400, 'account_transfer_required', MSG.linkedToAnother, transfer as unknown as Record<string, unknown>),
  userDoesNotExist: () => new ApiError(404, 'user_does_not_exist', 'User does not exist.'),
  notFound: () => new ApiError(404, 'not_found', 'Not found'),
  invalidCaptcha: () => new ApiError(400, 'invalid_captcha', 'Captcha token is missing or invalid.'),
}

export function sendError(c: Context, err: ApiError) {
  return c.json(err.toWire(), err.status)
}
