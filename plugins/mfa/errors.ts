/**
 * The MFA errors (spec part 2 sections 3 and 8): the wallet-service error types
 * `missing_or_invalid_mfa`, `mfa_verification_max_attempts_reached`, `mfa_timeout`, and ours
 * for a cancel (`mfa_canceled`) and an unknown method (`unsupported_mfa_method`). The views
 * carry no `screen`: the MFA screens show them inline (a code screen's message, a blocking
 * text).
 */
import { PorticoError, defineErrors, type ErrorView } from 'portico'
import { MFA_ERRORS } from 'portico/kits/mfa'
import type { MFA_TEXTS } from './strings'

/** Whether `e` is (or wraps) one of the given codes. */
export function hasCode(e: unknown, ...codes: string[]): boolean {
  for (const x of PorticoError.walk(e)) if (x instanceof PorticoError && codes.includes(x.code)) return true
  return false
}

/** The declarations handed to `ctx.declareErrors`, with the texts (`() => ctx.texts(MFA_TEXTS)`; the entry loads them lazily). */
export function mfaErrors(texts: () => typeof MFA_TEXTS) {
  const view = (detail: (T: typeof MFA_TEXTS) => string): (() => ErrorView) => () => {
    const T = texts()
    return { title: T.verifyTitle, detail: detail(T), cta: T.done, action: 'close', inline: true }
  }
  return defineErrors({
    [MFA_ERRORS.invalid]: view((T) => T.invalidCodeInline),
    [MFA_ERRORS.maxAttempts]: view((T) => T.maxAttemptsBlocking),
    [MFA_ERRORS.timeout]: view((T) => T.timeLimitBlocking),
    [MFA_ERRORS.canceled]: view((T) => T.canceled),
    [MFA_ERRORS.unsupported]: view((T) => T.unsupportedMethod),
  })
}
