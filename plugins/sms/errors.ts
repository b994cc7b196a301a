/**
 * The SMS plugin's error mappings (part 1 section 8): the region mapping for `not_supported`
 * and the three passwordless code messages shown under the code boxes.
 */
import { ERROR_TEXTS, type ErrorView, type PorticoError } from 'portico'
import { SMS_TEXTS } from './strings'

/** 'This region is not supported' / 'SMS authentication from this region is not available' / 'Try another method'. */
export function smsErrorView(error: PorticoError): ErrorView | undefined {
  if (error.code === 'not_supported') {
    return {
      title: ERROR_TEXTS.regionNotSupported,
      detail: ERROR_TEXTS.smsRegionNotAvailable,
      cta: ERROR_TEXTS.tryAnotherMethod,
      action: 'landing',
    }
  }
  return undefined
}

/**
 * Errors that leave the code screen for a screen of their own (link conflict, allowlist,
 * user limit, account not found, region, rate limit ...). Everything else stays on the code
 * screen as an inline message and the boxes reset.
 */
const SCREEN_CODES = new Set([
  'account_transfer_required',
  'allowlist_rejected',
  'max_accounts_reached',
  'user_does_not_exist',
  'disallowed_login_method',
  'not_supported',
  'too_many_requests',
  'linked_to_another_user',
  'must_be_authenticated',
])

export const showsOwnScreen = (error: PorticoError) => SCREEN_CODES.has(error.code)

/** The inline message under the code boxes: invalid code, the server's cannot-link-more message, else a generic one. */
export function codeErrorMessage(error: PorticoError): string {
  if (error.code === 'invalid_credentials') return SMS_TEXTS.invalidCode
  if (error.code === 'cannot_link_more_of_type') return error.message
  if (error.code === 'invalid_data' && error.message === SMS_TEXTS.codeNumeric) return error.message
  return SMS_TEXTS.issueVerifyingCode
}
