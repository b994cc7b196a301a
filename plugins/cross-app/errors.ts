/**
 * The cross-app plugin's errors (spec part 1 section 8, "Cross-app", word for word): state
 * mismatch, origin mismatch, closed popup, 2-minute time-out, read-only provider.
 */
import { defineErrors, type ErrorContext, type PorticoError } from 'portico'
import { CROSS_APP_TEXTS } from './strings'

export { CROSS_APP, CROSS_APP_METHOD, crossAppError } from './flow'
import { CROSS_APP, CROSS_APP_METHOD } from './flow'

export function crossAppErrors(texts: () => typeof CROSS_APP_TEXTS = () => CROSS_APP_TEXTS) {
  const mine = (e: PorticoError, ctx: ErrorContext) => e.data?.provider === CROSS_APP || ctx.method === CROSS_APP_METHOD
  const view = (e: PorticoError, ctx: ErrorContext) => {
    if (!mine(e, ctx)) return undefined
    const T = texts()
    if (e.code === 'oauth_unexpected') return { title: T.failedTitle, detail: e.message, cta: T.tryAnotherMethod, action: 'landing' as const }
    return { title: T.failedTitle, detail: e.message, cta: T.tryAgain, action: 'back' as const }
  }
  return defineErrors({
    oauth_unexpected: view,
    oauth_user_denied: view,
    client_request_timeout: view,
    cross_app_popup_blocked: view,
    method_not_supported: view,
    invalid_credentials: view,
  })
}
