/**
 * Custom-auth errors (part 1 section 8). Custom auth has no screen: its errors land in its
 * state (`useCustomAuth().error`), so it declares no views; `toCustomAuthError` makes the
 * spec's two texts.
 */
import { PorticoError, defineErrors, toPorticoError } from 'portico'
import { CUSTOM_AUTH_TEXTS } from './strings'

export const CUSTOM_AUTH_ERRORS = defineErrors({})

/**
 * The custom JWT belongs to a user the server will not give this session (linked to another
 * user): 'User already exists with provided custom JWT account.' and custom auth resets to
 * initial. `already_logged_in` stays as it is. Anything else: 'Failed to sync with custom auth
 * provider'.
 */
export function toCustomAuthError(
  e: unknown,
  texts: Pick<typeof CUSTOM_AUTH_TEXTS, 'userAlreadyExists' | 'failedToSync'> = CUSTOM_AUTH_TEXTS,
): { error: PorticoError; reset: boolean } {
  const cause = toPorticoError(e)
  if (cause.code === 'already_logged_in') return { error: cause, reset: false }
  if (cause.code === 'linked_to_another_user') {
    return {
      error: new PorticoError(cause.code, texts.userAlreadyExists, { kind: cause.kind, status: cause.status, cause }),
      reset: true,
    }
  }
  return {
    error: new PorticoError(cause.code, texts.failedToSync, {
      kind: cause.kind,
      status: cause.status,
      cause,
      retryable: true,
    }),
    reset: false,
  }
}
