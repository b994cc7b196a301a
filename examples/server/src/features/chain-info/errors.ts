/** Chain info's errors (424: the source could not be reached; 404: nothing to answer). */
import { ApiError } from '../../core/errors'
import type { WireErrorCode } from '../../wire'

export const unavailable = (code: WireErrorCode, msg: string) => new ApiError(424, code, msg)

export const noPrice = (symbol: string) => new ApiError(404, 'not_found', `No price for ${symbol}`)

export const notMint = () => new ApiError(404, 'not_found', 'Not an SPL token mint')
