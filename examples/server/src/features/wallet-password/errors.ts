/** The wallet password's errors. */
import { ApiError } from '../../core/errors'
import { PASSWORD_CODES, PASSWORD_TEXTS } from '../../wire/password'

export const lockedError = (retryAfterS: number) => new ApiError(429, PASSWORD_CODES.locked, PASSWORD_TEXTS.locked, { retry_after: retryAfterS })
