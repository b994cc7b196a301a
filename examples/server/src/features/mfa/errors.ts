/** MFA's error texts and errors. */
import { ApiError, errors } from '../../core/errors'

export const MFA_MSG = {
  invalidCode: 'Invalid MFA code',
  /** A TOTP code of a time step already accepted (replayed, or typed again within its 30 s). */
  codeUsed: 'This code has already been used. Wait for a new code.',
  missing: 'Missing or invalid MFA',
  maxAttempts: 'Max MFA verification attempts reached',
  verificationRequired: 'To add or delete verification methods, verification is required.',
  unsupported: 'Unsupported MFA method',
  notEnrolled: 'This verification method is not enrolled.',
  noPending: 'Start the enrolment again: it has expired or was never started.',
  smsAuthUser: 'SMS verification is not available to a user who logs in with SMS.',
  notYourPasskey: 'Every credential id must be one of your passkeys.',
} as const

export const mfaErrors = {
  missing: (msg: string = MFA_MSG.missing) => new ApiError(403, 'missing_or_invalid_mfa', msg),
  invalidCode: () => new ApiError(403, 'missing_or_invalid_mfa', MFA_MSG.invalidCode),
  /** Same code as an invalid one (clients count it as an attempt), with the reason the client shows. */
  codeUsed: () => new ApiError(403, 'missing_or_invalid_mfa', MFA_MSG.codeUsed, { reason: 'code_already_used' }),
  maxAttempts: () => new ApiError(429, 'mfa_verification_max_attempts_reached', MFA_MSG.maxAttempts),
  unsupported: () => new ApiError(400, 'unsupported_mfa_method', MFA_MSG.unsupported),
  notEnrolled: () => errors.invalidData(MFA_MSG.notEnrolled),
}
