/**
 * The passkey plugin's errors (part 1 section 8, "Passkey"): the browser's refusal or
 * time-out becomes 'Passkey request timed out or rejected by user.'; a sixth passkey 'Cannot
 * link more passkeys to account.'; a browser without WebAuthn 'The browser must support
 * WebAuthn' (`not_supported`); anything else of this method 'An unknown error occurred.' with
 * a hint to sign up another way first. The views carry no `screen`: the passkey screens show
 * them inline with Retry (the error screen elsewhere). Server codes the kernel maps (allowlist, user limit,
 * too many requests ...) keep the kernel's views.
 */
import { PorticoError, defineErrors, type ErrorContext, type ErrorView } from 'portico'
import { PASSKEY_TEXTS } from './strings'

export const PASSKEY = 'passkey'

/** The user closed the system dialogue, or it timed out (the browser does not tell which). */
export const PASSKEY_REJECTED = 'passkey_rejected'

export const passkeyError = (code: string, message: string, cause?: unknown) =>
  new PorticoError(code, message, { kind: 'client_error', cause, data: { provider: PASSKEY } })

/** Maps what @simplewebauthn/browser (or the browser) threw to a PorticoError. */
export function fromWebAuthnError(e: unknown, T: typeof PASSKEY_TEXTS = PASSKEY_TEXTS): PorticoError {
  if (e instanceof PorticoError) return e
  const err = e as { name?: string; code?: string; cause?: { name?: string } }
  const name = err?.cause?.name ?? err?.name
  // NotAllowedError: cancelled, timed out or not allowed; AbortError: aborted by us or the page.
  if (name === 'NotAllowedError' || name === 'AbortError' || err?.code === 'ERROR_CEREMONY_ABORTED') {
    return passkeyError(PASSKEY_REJECTED, T.rejected, e)
  }
  if (err?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return passkeyError(PASSKEY_REJECTED, T.rejected, e)
  }
  return passkeyError('unknown_auth_error', T.unknownError, e)
}

export function passkeyErrorView(error: PorticoError, ctx: ErrorContext, T: typeof PASSKEY_TEXTS = PASSKEY_TEXTS): ErrorView | undefined {
  const mine = error.data?.provider === PASSKEY || ctx.method === PASSKEY
  if (!mine) return undefined
  switch (error.code as string) {
    case PASSKEY_REJECTED:
      return { title: T.failedTitle, detail: T.rejected, cta: T.tryAgain, action: 'back' }
    case 'cannot_link_more_of_type':
      return { title: T.failedTitle, detail: T.cannotLinkMore, cta: T.done, action: 'close' }
    case 'not_supported':
      return { title: T.notSupportedTitle, detail: T.webauthnRequired, cta: T.tryAgain, action: 'landing' }
    case 'unknown_auth_error':
    case 'invalid_credentials':
      return { title: T.failedTitle, detail: `${T.unknownError} ${T.unknownErrorHint}`, cta: T.tryAgain, action: 'back' }
    default:
      return undefined
  }
}

/** The declarations handed to `ctx.declareErrors`. */
export function passkeyErrors(texts: () => typeof PASSKEY_TEXTS = () => PASSKEY_TEXTS) {
  const view = (error: PorticoError, ctx: ErrorContext) => passkeyErrorView(error, ctx, texts())
  return defineErrors({
    [PASSKEY_REJECTED]: view,
    cannot_link_more_of_type: view,
    not_supported: view,
    unknown_auth_error: view,
    invalid_credentials: view,
  })
}
