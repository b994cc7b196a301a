/**
 * Password recovery not guessable offline (issue 26): the Node-free half shared by the server
 * route (src/features/wallet-password/routes.ts) and the wallet frame (frame/handlers/recovery-passcode.ts).
 *
 * The frame hardens the password with scrypt, blinds it (OPRF, RFC 9497, ristretto255-SHA512,
 * @noble/curves), the server evaluates the blinded element under a per-wallet key derived from
 * the recovery key and counts the evaluation; the frame finalizes and keys AES-256-GCM with an
 * HKDF of the output. Without the server's key nothing in the sealed record can be tested: a
 * guess costs an evaluation, and after MAX_EVALUATIONS without a reported success (an owner
 * signature by the root's index-0 key) the wallet's password is locked for LOCK_S.
 */
export const OPRF_SUITE = 'ristretto255-SHA512'
/** Evaluations without a reported success before the lock-out. */
export const PASSWORD_MAX_EVALUATIONS = 10
/** The lock-out (seconds). */
export const PASSWORD_LOCK_S = 3600
/** How long the nonce a success report signs lives (seconds). */
export const PASSWORD_NONCE_TTL_S = 600

export const PASSWORD_CODES = {
  locked: 'too_many_password_attempts',
} as const

export const PASSWORD_TEXTS = {
  locked: 'Too many password attempts. Try again in 1 hour.',
  noEvaluation: 'Enter your password again.',
  badElement: 'blinded: not a valid group element',
} as const
