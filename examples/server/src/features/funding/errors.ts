/** Funding's errors. */
import { ApiError } from '../../core/errors'

export const unavailable = (provider: string) =>
  new ApiError(424, 'funding_provider_unavailable', `${provider} could not be reached. Please try again or use another method.`)

export const notEnabled = () => new ApiError(403, 'funding_not_enabled', 'Wallet funding is not enabled')

export const notConfigured = (what: string) => new ApiError(403, 'funding_not_enabled', `${what} is not configured for this app.`)
