/** The step-up's errors. */
import { ApiError } from '../../core/errors'
import { STEP_UP_MSG } from './service'

export const stepUpErrors = {
  invalidCode: () => new ApiError(401, 'invalid_credentials', STEP_UP_MSG.invalidCode),
  voided: () => new ApiError(403, 'step_up_code_void', STEP_UP_MSG.voided),
  noCode: () => new ApiError(400, 'step_up_code_expired', STEP_UP_MSG.noCode),
  notFound: () => new ApiError(404, 'embedded_wallet_not_found', STEP_UP_MSG.notFound),
  deviceNotFound: () => new ApiError(404, 'wallet_device_not_found', STEP_UP_MSG.deviceNotFound),
}
