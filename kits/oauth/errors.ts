/**
 * The OAuth errors and how they show, in one place. Errors the flow raises are `PorticoError`s
 * marked `data.oauth = <provider>`; the server's codes keep their code and data (a transfer
 * needs the nonce) under the message 'Invalid code during OAuth flow.' (part 1 section 8).
 *
 * On the OAuth status screen every failure without a screen of its own shows inline as
 * 'Authentication failed' with the detail of part 1 section 8, and Retry when retryable.
 */
import { PorticoError, defineErrors, toPorticoError, type ErrorContext, type ErrorView, type PorticoErrorCode } from 'portico'
import type { OAUTH_TEXTS } from './strings'

type Texts = typeof OAUTH_TEXTS

/** The plugin's own codes (the rest are the spec's). */
export type OAuthErrorCode = 'oauth_popup_blocked'

export function oauthError(provider: string, code: OAuthErrorCode | PorticoErrorCode, message: string, cause?: unknown, retryable = false) {
  return new PorticoError(code, message, { kind: 'provider_error', cause, retryable, data: { oauth: provider } })
}

/** Rate limits are recognised by a message containing 'code 429' (part 1 section 8). */
export const isRateLimit = (error: unknown) =>
  [...PorticoError.walk(error)].some((e) => typeof (e as Error)?.message === 'string' && (e as Error).message.includes('code 429'))

const DENIED = 'User denied confirmation during OAuth flow'

/**
 * A failed authenticate or link call: 'User denied confirmation during OAuth flow' becomes
 * 'Invalid code during OAuth flow.' with `oauth_user_denied`; anything else the same message
 * with the server's code, or `unknown_auth_error` when it gave none.
 */
export function fromServerError(provider: string, e: unknown, T: Texts): PorticoError {
  const err = toPorticoError(e)
  if (err.data?.oauth) return err
  if ([...PorticoError.walk(err)].some((x) => String((x as Error)?.message ?? '').includes(DENIED)) || err.code === 'oauth_user_denied') {
    return oauthError(provider, 'oauth_user_denied', T.invalidCode, err, true)
  }
  const serverCode = err.kind === 'api_error' && typeof err.status === 'number' && err.code && !/^(network_error|invalid_response|request_aborted)$/.test(err.code)
  return new PorticoError(serverCode ? err.code : 'unknown_auth_error', T.invalidCode, {
    cause: err,
    kind: err.kind,
    status: err.status,
    data: { ...err.data, oauth: provider },
    retryable: err.retryable,
  })
}

export interface OAuthFailure {
  detail: string
  retryable: boolean
}

/** The 'Authentication failed' detail and whether Retry shows (part 1 section 8). */
export function oauthFailure(error: unknown, providerName: string, T: Texts): OAuthFailure {
  const err = toPorticoError(error)
  const fill = (t: string) => t.replace('{provider}', providerName)
  if (isRateLimit(err)) return { detail: fill(T.rateLimited), retryable: false }
  switch (err.code) {
    case 'linked_to_another_user':
      return { detail: T.linkedToAnotherUser, retryable: false }
    case 'invalid_credentials':
      return { detail: T.invalidCredentials, retryable: true }
    case 'oauth_user_denied':
      return { detail: fill(T.userDenied), retryable: true }
    case 'too_many_requests':
      return { detail: T.tooManyRequests, retryable: false }
    case 'oauth_account_suspended':
      return { detail: fill(T.suspended), retryable: false }
    case 'cannot_link_more_of_type':
      return { detail: T.cannotLinkMore, retryable: false }
    case 'client_request_timeout':
      return { detail: err.message || T.timedOut, retryable: true }
    case 'oauth_unexpected':
    case 'oauth_popup_blocked':
      return { detail: err.message, retryable: err.code === 'oauth_popup_blocked' }
    default:
      return { detail: err.message || T.invalidCredentials, retryable: true }
  }
}

/** Codes shown inline on the OAuth screen (for this method only; others keep their views). */
const INLINE = [
  'linked_to_another_user',
  'invalid_credentials',
  'oauth_user_denied',
  'too_many_requests',
  'oauth_account_suspended',
  'cannot_link_more_of_type',
  'client_request_timeout',
  'oauth_unexpected',
  'oauth_popup_blocked',
  'unknown_auth_error',
] as const

/** The declarations a provider plugin hands to `ctx.declareErrors`. */
export function oauthErrors(method: string, providerName: string, texts: () => Texts) {
  const view = (error: PorticoError, ctx: ErrorContext): ErrorView | undefined => {
    if (ctx.method !== method && error.data?.oauth !== method) return undefined
    const T = texts()
    const f = oauthFailure(error, providerName, T)
    return f.retryable
      ? { title: T.failedTitle, detail: f.detail, cta: T.retry, action: 'back' }
      : { title: T.failedTitle, detail: f.detail, cta: T.tryAnotherMethod, action: 'landing' }
  }
  return defineErrors(Object.fromEntries(INLINE.map((code) => [code, view])))
}
