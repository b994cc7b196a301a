/** Custom-auth error texts (part 1 section 8). */
import { PorticoError, toPorticoError } from 'portico'
import { CUSTOM_AUTH_TEXTS } from './strings'

/**
 * The custom JWT belongs to a user the server will not give this session (linked to another
 * user): 'User already exists with provided custom JWT account.' and custom auth resets to
 * initial. Anything else: 'Failed to sync with custom auth provider'.
 */
export function toCustomAuthError(e: unknown): { error: PorticoError; reset: boolean } {
  const cause = toPorticoError(e)
  if (cause.code === 'linked_to_another_user') {
    return {
      error: new PorticoError(cause.code, CUSTOM_AUTH_TEXTS.userAlreadyExists, { kind: cause.kind, status: cause.status, cause }),
      reset: true,
    }
  }
  return {
    error: new PorticoError(cause.code, CUSTOM_AUTH_TEXTS.failedToSync, {
      kind: cause.kind,
      status: cause.status,
      cause,
      retryable: true,
    }),
    reset: false,
  }
}
