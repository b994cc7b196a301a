/** Error mappings of the e-mail plugin (part 1 sections 5 and 8). */
import { isPorticoError, type ErrorView } from 'portico'
import { EMAIL_TEXTS } from './strings'

/** HTML's e-mail pattern with a dot in the domain: a standard address. */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

export interface EmailCheck {
  valid: boolean
  /** The inline message to show, if any (only the plus-address rule has a text). */
  error: string | null
}

/** Validate an address as typed. Submit stays disabled while invalid. */
export function checkEmail(value: string, disablePlusEmails: boolean): EmailCheck {
  const v = value.trim()
  if (disablePlusEmails && v.split('@')[0].includes('+')) return { valid: false, error: EMAIL_TEXTS.plusNotAllowed }
  return { valid: EMAIL_PATTERN.test(v), error: null }
}

/** The inline message of a failed code (part 1 section 8, "Passwordless code errors"). */
export function codeErrorMessage(error: unknown): string {
  if (isPorticoError(error, 'invalid_credentials')) return EMAIL_TEXTS.invalidCode
  if (isPorticoError(error, 'cannot_link_more_of_type')) return error.message
  return EMAIL_TEXTS.issueVerifying
}

/**
 * Whether a code error goes to a screen of its own (allowlist, user limit, account not found,
 * transfer...) instead of the inline message.
 */
export function hasOwnScreen(view: ErrorView): boolean {
  return !!view.screen
}
