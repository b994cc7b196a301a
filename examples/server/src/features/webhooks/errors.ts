/** Webhooks' errors (the service API the admin API will call). */
import { ApiError } from '../../core/errors'

export const webhookErrors = {
  invalid: (field: string, message: string) => new ApiError(400, 'invalid_data', `${field}: ${message}`, { fields: { [field]: message } }),
  endpointNotFound: () => new ApiError(404, 'not_found', 'Unknown webhook endpoint.'),
  configEndpoint: () => new ApiError(409, 'invalid_data', 'This endpoint comes from apps.json: change it there (the server seeds it at start-up).'),
  deliveryNotFound: () => new ApiError(404, 'not_found', 'Unknown webhook delivery.'),
}
