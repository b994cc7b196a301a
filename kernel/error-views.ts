/**
 * The kernel's own error views: what the error screen shows when no plugin's `errorView` tap
 * claimed the error. Needed only once an error is shown, so it loads beside start-up
 * (`ready()` waits for it; every lazy screen too); until then, or if it cannot load, the
 * navigator shows `basicErrorView`.
 */
// Through the kernel's entry, as the plugins' lazy chunks do (see ./session-calls.ts).
import { ERROR_SCREEN, type ErrorContext, type ErrorTexts, type ErrorView, type PorticoError } from './index'
import { ERROR_TEXTS } from './error-texts'

export { ERROR_TEXTS }

/**
 * The kernel's own mapping, used when no plugin's `errorView` tap claimed the error.
 * Part 1 section 8 "Screen mapping" and part 2 section 8 "Error screen mapping", minus what
 * belongs to one method (the plugins declare those: SMS's region refusal, the account
 * plugin's transfer screen). Method-neutral by rule: a test fails if it names a method.
 */
export function defaultErrorView(error: PorticoError, _ctx: ErrorContext = {}, texts: ErrorTexts = ERROR_TEXTS): ErrorView {
  const t = texts
  const leave = (v: ErrorView): ErrorView => ({ screen: ERROR_SCREEN, ...v })
  switch (error.code) {
    case 'client_request_timeout':
      return { title: t.timedOut, detail: error.message, cta: t.tryAgain, action: 'back' }
    case 'invalid_captcha':
      return { title: t.pleaseTryAgain, cta: t.tryAgain, action: 'back' }
    case 'captcha_failure':
      return { title: t.captchaFailure, cta: t.tryAgain, action: 'back' }
    case 'captcha_timeout':
      return { title: t.captchaTimeout, cta: t.tryAgain, action: 'back' }
    case 'disallowed_login_method':
      return leave({ title: t.notAllowed, detail: error.message, cta: t.tryAnotherMethod, action: 'landing' })
    case 'allowlist_rejected':
      return { title: t.allowlistTitle, screen: 'allowlist-rejection' }
    case 'linked_to_another_user':
      return leave({ title: t.authenticationFailed, detail: t.linkedToAnotherUser, cta: t.tryAgain, action: 'back' })
    case 'not_supported':
    case 'method_not_supported':
      return leave({ title: t.notSupported, detail: error.message, cta: t.tryAnotherMethod, action: 'landing' })
    case 'too_many_requests':
      return leave({ title: t.requestFailed, detail: t.tooManyAttempts, cta: t.tryAgainLater, action: 'back' })
    case 'already_logged_in':
    case 'must_be_authenticated':
      return leave({ title: t.somethingWentWrong, detail: error.message, cta: t.tryAgain, action: 'back' })
    case 'max_accounts_reached':
      if (error.data?.reason === 'development_mode') {
        return { title: t.unableToSignIn, detail: t.developmentMode, screen: 'development-mode' }
      }
      return { title: t.unableToSignIn, screen: 'user-limit' }
    case 'user_does_not_exist':
      return { title: t.accountNotFound, screen: 'account-not-found' }
    case 'disallowed_plus_email':
      return { title: error.message, inline: true, action: 'back' }
    case 'api_unreachable':
      return { title: t.somethingWentWrong, detail: t.apiUnreachable, cta: t.tryAgain, action: 'retry' }
    case 'INSUFFICIENT_BALANCE':
      return { title: t.insufficientBalance, detail: error.message, cta: t.tryAgain, action: 'back' }
    case 'TRANSACTION_FAILURE':
      return { title: t.transactionFailure, detail: error.message, cta: t.tryAgain, action: 'back' }
  }
  if (error.status === 400 || error.status === 422) {
    return { title: t.somethingWentWrong, detail: error.message, cta: t.tryAgain, action: 'back' }
  }
  return { title: t.somethingWentWrong, detail: t.tryAgainLater, cta: t.tryAgain, action: 'back' }
}
