/** Farcaster's errors. */
import { ApiError } from '../../core/errors'

export const unavailable = () =>
  new ApiError(503, 'not_supported', 'Farcaster login is unavailable right now: the custody-address lookup (Optimism RPC) failed.')
