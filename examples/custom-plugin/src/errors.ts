/**
 * The plugin's errors and how they show, in one place. Every error the popup flow raises is a
 * `PorticoError` of kind 'provider_error' marked `data.provider = 'acme-id'`, with a spec code
 * where one fits. `acmeIdErrors(texts)` is what the plugin's manifest `errors` loads: it
 * claims those errors and the server's `invalid_credentials` for this method, and leaves every
 * other error (allowlist, user limit, network ...) to the kernel's own mapping.
 */
import { PorticoError, defineErrors, type ErrorContext, type ErrorView, type PorticoErrorCode } from 'portico'
import { ACME_ID_TEXTS } from './strings'

export const ACME_ID = 'acme-id'

/** Codes the plugin adds; the others are the spec's (oauth_user_denied, oauth_unexpected, client_request_timeout) and the neutral method_not_supported. */
export type AcmeIdErrorCode = 'acme_id_popup_blocked' | 'acme_id_exchange_failed'

export function acmeIdError(code: AcmeIdErrorCode | PorticoErrorCode, message: string, cause?: unknown, extra: Record<string, unknown> = {}) {
  return new PorticoError(code, message, { kind: 'provider_error', cause, data: { provider: ACME_ID, ...extra } })
}

export const isAcmeIdError = (e: PorticoError) => e.data?.provider === ACME_ID

/** The view of one error, or undefined when it is not this plugin's. */
export function acmeIdErrorView(error: PorticoError, ctx: ErrorContext, T: typeof ACME_ID_TEXTS = ACME_ID_TEXTS): ErrorView | undefined {
  if (isAcmeIdError(error)) {
    switch (error.code) {
      case 'oauth_user_denied':
        return { title: T.rejectedTitle, detail: error.message, cta: T.tryAgain, action: 'back' }
      case 'acme_id_popup_blocked':
        return { title: T.blockedTitle, detail: error.message, cta: T.tryAgain, action: 'back' }
      case 'oauth_unexpected':
        // Possible phishing: do not invite a retry of the same flow; go back to the methods.
        return { title: T.failedTitle, detail: error.message, cta: T.tryAnotherMethod, action: 'landing' }
      default:
        return { title: T.failedTitle, detail: error.message, cta: T.tryAgain, action: 'back' }
    }
  }
  if (ctx.method === ACME_ID && error.code === 'invalid_credentials') {
    return { title: T.failedTitle, detail: T.invalidToken, cta: T.tryAgain, action: 'back' }
  }
  return undefined
}

/** The declarations: every code the plugin raises or claims, each answered by `acmeIdErrorView`. */
export function acmeIdErrors(texts: () => typeof ACME_ID_TEXTS = () => ACME_ID_TEXTS) {
  const view = (error: PorticoError, ctx: ErrorContext) => acmeIdErrorView(error, ctx, texts())
  return defineErrors({
    oauth_user_denied: view,
    oauth_unexpected: view,
    client_request_timeout: view,
    acme_id_popup_blocked: view,
    acme_id_exchange_failed: view,
    method_not_supported: view,
    invalid_credentials: view,
  })
}
