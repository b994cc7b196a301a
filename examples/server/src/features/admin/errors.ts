/** The admin API's errors and texts. */
import { ApiError } from '../../core/errors'

export const ADMIN_MSG = {
  unauthenticated: 'Missing or invalid admin credentials (an admin API key or an operator’s access token of the console app).',
  notOperator: 'This user is not an operator of this server.',
  ownerOnly: 'Only an owner may manage operators.',
  scope: (s: string) => `This credential lacks the scope ${s}.`,
  appExists: 'An app with this id exists already.',
  appNotFound: 'No app with this id.',
  consoleApp: 'The console app cannot be deleted: operators sign in through it.',
  userNotFound: 'No user with this id in this app.',
  keyNotFound: 'No live API key with this id.',
  operatorNotFound: 'No operator with this e-mail.',
  lastOwner: 'The last owner cannot be removed or demoted.',
  secretField: 'Secrets are not set here: rotate the app secret with POST /admin/v1/apps/{appId}/secret.',
  idempotencyReuse: 'This idempotency key was used with a different body.',
  importNotFound: 'No import with this id in this app.',
  undeliverable: (m: string) => `${m} login cannot be delivered by this server (no ${m === 'email' ? 'e-mail' : 'SMS'} provider configured).`,
} as const

export const adminErrors = {
  unauthenticated: () => new ApiError(401, 'missing_or_invalid_token', ADMIN_MSG.unauthenticated),
  forbidden: (msg: string, data?: Record<string, unknown>) => new ApiError(403, 'forbidden', msg, data),
  notFound: (msg: string) => new ApiError(404, 'not_found', msg),
  conflict: (msg: string) => new ApiError(409, 'invalid_data', msg),
  invalid: (fields: Record<string, string>) =>
    new ApiError(422, 'invalid_data', Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('; '), { fields }),
}
