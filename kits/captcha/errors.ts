/**
 * Captcha errors (part 1 section 8): `invalid_captcha` (the server refused the token: 'Please
 * try again.', and the captcha is reset), `captcha_failure` (the widget failed: the hint after
 * 3 retries), `captcha_timeout` (no token within 20 s), `captcha_disabled`.
 */
import { PorticoError, defineErrors } from 'portico'
import type { CAPTCHA_TEXTS } from './strings'

type Texts = typeof CAPTCHA_TEXTS

export function captchaError(code: 'captcha_failure' | 'captcha_timeout' | 'captcha_disabled', texts: Texts, afterRetries = false): PorticoError {
  const message = code === 'captcha_timeout' ? texts.timeout : code === 'captcha_disabled' ? texts.disabled : texts.failure
  return new PorticoError(code, message, { kind: 'captcha', data: afterRetries ? { afterRetries: true } : undefined })
}

/** The views; `reset` runs when the server refused a token (the next init gets a fresh one). */
export function captchaErrors(texts: () => Texts, reset: () => void) {
  return defineErrors({
    invalid_captcha: () => {
      reset()
      return { title: texts().invalidCaptcha, cta: texts().tryAgain, action: 'back' }
    },
    captcha_failure: (e) => ({
      title: texts().failure,
      detail: e.data?.afterRetries ? texts().failureAfterRetries : undefined,
      cta: texts().tryAgain,
      action: 'back',
    }),
    captcha_timeout: () => ({ title: texts().timeout, cta: texts().tryAgain, action: 'back' }),
    captcha_disabled: () => ({ title: texts().disabled, cta: texts().tryAgain, action: 'back' }),
  })
}
