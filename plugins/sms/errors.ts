/**
 * The SMS plugin's errors (part 1 section 8), in one place: the region view of `not_supported`
 * (for SMS only — the kernel's neutral view stays 'Not supported' for everything else) and
 * the three passwordless code messages shown under the code boxes.
 */
import { defineErrors, ERROR_SCREEN, toPorticoError, type ErrorContext } from 'portico'
import { SMS_TEXTS } from './strings'

type Texts = typeof SMS_TEXTS

/** Whether an error happened in the SMS flow (its screens, or a call that named the method). */
const isSms = (c: ErrorContext) => c.method === 'sms' || (c.method === undefined && !!c.screen?.startsWith('sms-'))

/** The SMS plugin's error declarations, with its (overridable) texts. */
export function smsErrors(texts: () => Texts = () => SMS_TEXTS) {
  return defineErrors({
    // 'This region is not supported' / 'SMS authentication from this region is not available' / 'Try another method'
    not_supported: (_error, context) => {
      if (!isSms(context)) return undefined
      const t = texts()
      return { title: t.regionNotSupported, detail: t.smsRegionNotAvailable, cta: t.tryAnotherMethod, action: 'landing', screen: ERROR_SCREEN }
    },
  })
}

/** The inline message under the code boxes: invalid code, the server's cannot-link-more message, else a generic one. */
export function codeErrorMessage(error: unknown, texts: Texts = SMS_TEXTS): string {
  const e = toPorticoError(error)
  if (e.code === 'invalid_credentials') return texts.invalidCode
  if (e.code === 'cannot_link_more_of_type') return e.message
  if (e.code === 'invalid_data' && e.message === texts.codeNumeric) return e.message
  return texts.issueVerifyingCode
}
