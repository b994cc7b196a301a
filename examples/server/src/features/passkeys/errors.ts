/** Passkeys' error texts and errors. */
import { ApiError } from '../../core/errors'

export const PASSKEY_MSG = {
  cannotLinkMore: 'Cannot link more passkeys to account.',
  enrolledInMfa: 'This passkey is enrolled in MFA and cannot be unlinked.',
  badChallenge: 'Invalid or expired passkey challenge.',
  badResponse: 'The passkey response could not be verified.',
  unknownPasskey: 'Unknown passkey.',
  signupNotAllowed: 'Sign-up with a passkey is not allowed for this app.',
  notConfigured: 'Passkeys are not configured for this app (no relying party id).',
} as const

export const cannotLinkMore = () => new ApiError(400, 'cannot_link_more_of_type', PASSKEY_MSG.cannotLinkMore)

export const notAllowed = (msg: string) => new ApiError(403, 'passkey_not_allowed', msg)
