/** Telegram's errors. */
import { ApiError } from '../../core/errors'

export const notAllowed = () => new ApiError(403, 'disallowed_login_method', 'Login with Telegram not allowed.')
