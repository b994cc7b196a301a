/**
 * Telegram's errors: its own `telegram_not_initialized` (no bot, or the widget script blocked
 * or unreachable: only Telegram is off) and `telegram_auth_failed` (popup closed or refused),
 * and the part 1 section 8 detail texts for the server's codes when Telegram is the method.
 */
import { PorticoError, defineErrors, type ErrorView } from 'portico'
import type { TELEGRAM_TEXTS } from './strings'

type Texts = typeof TELEGRAM_TEXTS
export type TelegramErrorCode = 'telegram_not_initialized' | 'telegram_auth_failed'

export function telegramError(code: TelegramErrorCode, texts: Texts, cause?: unknown): PorticoError {
  return new PorticoError(code, code === 'telegram_not_initialized' ? texts.notInitialized : texts.canceled, {
    kind: 'provider_error',
    cause,
    retryable: true,
  })
}

/** The detail line the auth status screen shows for an error (spec texts), with its title. */
export function telegramErrorText(error: PorticoError, texts: Texts): { title: string; detail: string } {
  const detail = (() => {
    switch (error.code) {
      case 'telegram_not_initialized':
        return texts.notInitialized
      case 'telegram_auth_failed':
        return texts.canceled
      case 'disallowed_login_method':
        return texts.notAllowed
      case 'linked_to_another_user':
        return texts.linkedToAnother
      case 'invalid_credentials':
        return texts.invalidCredentials
      case 'too_many_requests':
        return /code 429/.test(error.message) ? texts.rateLimited : texts.tooManyRequests
      case 'oauth_account_suspended':
        return texts.suspended
      case 'cannot_link_more_of_type':
        return texts.cannotLinkMore
      case 'oauth_user_denied':
        return texts.userDenied
      case 'invalid_captcha':
        return texts.invalidCaptcha
      default:
        return error.message || texts.invalidCredentials
    }
  })()
  return { title: error.code === 'disallowed_login_method' ? texts.notAllowed : texts.authFailed, detail }
}

export function telegramErrors(texts: () => Texts) {
  const view = (e: PorticoError): ErrorView => {
    const t = telegramErrorText(e, texts())
    return { title: t.title, detail: t.detail, cta: texts().retry, action: 'back' }
  }
  return defineErrors({ telegram_not_initialized: view, telegram_auth_failed: view })
}
