/**
 * The e-mail plugin's errors (part 1 sections 5 and 8), in one place: the plus-address refusal
 * (inline, with the overridable text) and the inline messages of a failed code.
 */
import { defineErrors, toPorticoError } from 'portico'
import { EMAIL_TEXTS } from './strings'

type Texts = typeof EMAIL_TEXTS

/** The e-mail plugin's error declarations, with its (overridable) texts. */
export function emailErrors(texts: () => Texts = () => EMAIL_TEXTS) {
  return defineErrors({
    // "Please enter a valid email address without a '+'.": back to the form, inline.
    disallowed_plus_email: (_error, context) =>
      context.method === 'email' ? { title: texts().plusNotAllowed, inline: true, action: 'back' } : undefined,
  })
}

/** The inline message of a failed code (part 1 section 8, "Passwordless code errors"). */
export function codeErrorMessage(error: unknown, texts: Texts = EMAIL_TEXTS): string {
  const e = toPorticoError(error)
  if (e.code === 'invalid_credentials') return texts.invalidCode
  if (e.code === 'cannot_link_more_of_type') return e.message
  return texts.issueVerifying
}
