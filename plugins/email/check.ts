/** The address check the e-mail field runs as typed (in the entry: `kernel.plugin('email').check()` is synchronous). */
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
export function checkEmail(value: string, disablePlusEmails: boolean, texts: typeof EMAIL_TEXTS = EMAIL_TEXTS): EmailCheck {
  const v = value.trim()
  if (disablePlusEmails && v.split('@')[0].includes('+')) return { valid: false, error: texts.plusNotAllowed }
  return { valid: EMAIL_PATTERN.test(v), error: null }
}
