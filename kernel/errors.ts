/**
 * The error catalogue: `PorticoError` with the spec's codes (part 1 section 8 and part 2
 * section 8) and kinds, the error views' types and texts; the kernel's mapping from codes to
 * views is in ./error-views.ts.
 */
import type { ERROR_TEXTS } from './error-texts'

/** Identity codes, part 1 section 8. */
export type IdentityErrorCode =
  | 'oauth_account_suspended'
  | 'missing_or_invalid_privy_app_id'
  | 'missing_or_invalid_privy_account_id'
  | 'missing_or_invalid_token'
  | 'invalid_data'
  | 'invalid_captcha'
  | 'linked_to_another_user'
  | 'cannot_link_more_of_type'
  | 'failed_to_link_account'
  | 'failed_to_update_account'
  | 'exited_update_flow'
  | 'allowlist_rejected'
  | 'oauth_user_denied'
  | 'oauth_unexpected'
  | 'unknown_auth_error'
  | 'exited_auth_flow'
  | 'exited_link_flow'
  | 'user_exited_set_password_flow'
  | 'must_be_authenticated'
  | 'client_request_timeout'
  | 'invalid_credentials'
  | 'captcha_timeout'
  | 'captcha_failure'
  | 'captcha_disabled'
  | 'session_storage_unavailable'
  | 'too_many_requests'
  | 'max_accounts_reached'
  | 'disallowed_login_method'
  | 'disallowed_plus_email'
  | 'passkey_not_allowed'
  | 'user_does_not_exist'
  | 'account_transfer_required'
  | 'not_supported'

/** Wallet codes, part 2 section 8 (reported through onError). */
export type WalletErrorCode =
  | 'MUST_BE_AUTHENTICATED'
  | 'EMBEDDED_WALLET_NOT_FOUND'
  | 'EMBEDDED_WALLET_ALREADY_EXISTS'
  | 'EMBEDDED_WALLET_CREATE_ERROR'
  | 'UNKNOWN_EMBEDDED_WALLET_ERROR'
  | 'TRANSACTION_FAILURE'
  | 'UNABLE_TO_SIGN'
  | 'INVALID_MESSAGE'
  | 'UNSUPPORTED_CHAIN_ID'
  | 'INSUFFICIENT_BALANCE'
  | 'MISSING_MFA_CREDENTIALS'

/**
 * Codes the client raises that the spec does not name but a host developer must be able to
 * tell apart: an aborted request, a network failure, an unreadable response, bad config,
 * a bad plugin, and `method_not_supported` — the neutral "this method cannot do that" any
 * plugin raises when it refuses something (its message is shown).
 */
export type ClientErrorCode =
  | 'request_aborted'
  | 'network_error'
  | 'invalid_response'
  | 'invalid_config'
  | 'invalid_plugin'
  | 'not_found'
  | 'method_not_supported'
  | 'api_unreachable'
  | 'already_logged_in'

/** Any code a `PorticoError` may carry. Unknown server codes are kept as strings. */
export type PorticoErrorCode = IdentityErrorCode | WalletErrorCode | ClientErrorCode | (string & {})

export type ErrorKind =
  | 'client_error'
  | 'api_error'
  | 'connector_error'
  | 'provider_error'
  | 'wallet_error'
  | 'captcha'

export interface PorticoErrorOptions {
  kind?: ErrorKind
  cause?: unknown
  /** HTTP status for api errors. */
  status?: number
  /** Extra data from the server (field errors, transfer data). */
  data?: Record<string, unknown>
  /** True when trying the same thing again may work. */
  retryable?: boolean
}

export class PorticoError extends Error {
  override name = 'PorticoError'
  // `declare`: set in the constructor (same properties, same order), no field initialisers.
  declare readonly code: PorticoErrorCode
  declare readonly kind: ErrorKind
  declare readonly status?: number
  declare readonly data?: Record<string, unknown>
  declare readonly retryable: boolean

  constructor(code: PorticoErrorCode, message: string, options: PorticoErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.kind = options.kind ?? 'client_error'
    this.status = options.status
    this.data = options.data
    this.retryable = options.retryable ?? false
  }

  /** This error, then its causes (`cause` chain, at most 8 deep): replaces hand-written loops. */
  walk(): Generator<unknown> {
    return PorticoError.walk(this)
  }

  /** Any error, then its causes: wallets and libraries wrap the error that matters. */
  static *walk(error: unknown): Generator<unknown> {
    let cur: unknown = error
    for (let depth = 0; cur != null && depth < 8; depth++) {
      yield cur
      cur = (cur as { cause?: unknown }).cause
    }
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, kind: this.kind, message: this.message, status: this.status }
  }
}

/** The dedicated error of an aborted request (by the caller's AbortSignal). */
export class PorticoAbortError extends PorticoError {
  override name = 'AbortError'
  constructor(cause?: unknown) {
    super('request_aborted', 'The request was aborted.', { kind: 'client_error', cause })
  }
}

export function isPorticoError(e: unknown, code?: PorticoErrorCode): e is PorticoError {
  return e instanceof PorticoError && (code === undefined || e.code === code)
}

/** Wrap anything thrown into a `PorticoError`, keeping the original as `cause`. */
export function toPorticoError(e: unknown, fallbackCode: PorticoErrorCode = 'unknown_auth_error'): PorticoError {
  if (e instanceof PorticoError) return e
  if (e instanceof Error) return new PorticoError(fallbackCode, e.message || 'Something went wrong.', { cause: e })
  return new PorticoError(fallbackCode, typeof e === 'string' ? e : 'Something went wrong.', { cause: e })
}

/** What the error screen shows, or the named screen to show instead. */
export interface ErrorView {
  title: string
  detail?: string
  /** Call-to-action label. */
  cta?: string
  /** What the call to action does: go back and try again (default), try another method, close. */
  action?: 'back' | 'retry' | 'landing' | 'close' | 'link'
  /** Link for `action: 'link'`. */
  href?: string
  /**
   * The one rule for "this error has its own screen": a view with `screen` leaves the screen
   * it happened on — for a dedicated screen (allowlist, user limit, a plugin's screen) or for
   * the generic error screen (`ERROR_SCREEN`). A view without it is for the current screen
   * to show inline where it can (a code screen's message) and the error screen otherwise.
   */
  screen?: string
  /** Show the message inline on the previous screen instead of an error screen. */
  inline?: boolean
}

export interface ErrorContext {
  /** The screen that was showing when the error happened. */
  screen?: string
  /** The login method involved, if any. */
  method?: string
  intent?: 'login' | 'link' | 'update' | null
}

/**
 * The error texts the kernel needs before its error views load (start-up's retry message, the
 * basic view, the logged-in refusal). The whole catalogue, `ERROR_TEXTS` (./error-texts.ts,
 * the 'kernel' text namespace), spreads these: each text is written once.
 */
export const START_ERROR_TEXTS = {
  tryAgain: 'Try again',
  somethingWentWrong: 'Something went wrong',
  tryAgainLater: 'Try again later',
  apiUnreachable: 'Could not reach the server. Check your connection; we keep trying.',
  alreadyLoggedIn: 'Attempted to log in, but the user is already logged in. Use a link method instead.',
} as const

/** The generic error screen's id (registered by the UI). */
export const ERROR_SCREEN = 'error'

/**
 * The view shown until the kernel's own mapping (./error-views.ts, loaded with start-up) is in,
 * or when it could not be loaded: method-neutral, with the app's texts.
 */
export function basicErrorView(t: Pick<ErrorTexts, 'somethingWentWrong' | 'tryAgainLater' | 'tryAgain'> = START_ERROR_TEXTS): ErrorView {
  return { title: t.somethingWentWrong, detail: t.tryAgainLater, cta: t.tryAgain, action: 'back' }
}

export type ErrorTexts = { readonly [K in keyof typeof ERROR_TEXTS]: string }

/**
 * One plugin's error declarations, in one place: code -> the view it shows (fixed, or made
 * from the error and its context; `undefined` leaves it to others). `ctx.declareErrors(map)`
 * taps `errorView` with it.
 */
export type ErrorDeclarations = Record<
  string,
  ErrorView | ((error: PorticoError, context: ErrorContext) => ErrorView | undefined)
>

/** Identity helper for typing a plugin's `errors.ts`. */
export function defineErrors<T extends ErrorDeclarations>(declarations: T): T {
  return declarations
}

/** Look an error up in declarations (the tap `declareErrors` installs). */
export function viewFromDeclarations(
  declarations: ErrorDeclarations,
  error: PorticoError,
  context: ErrorContext,
): ErrorView | undefined {
  if (!Object.prototype.hasOwnProperty.call(declarations, error.code)) return undefined
  const d = declarations[error.code]
  return typeof d === 'function' ? d(error, context) : d
}
