/** MFA's rules: the methods a user enrolled, freshness, attempts, TOTP. */
import * as OTPAuth from 'otpauth'
import type { AppSettings } from '../../config'
import type { Auth } from '../../core/auth'
import { now } from '../../core/identity/tokens'
import type { Queryable } from '../../core/store'
import { mfaErrors } from './errors'
import { countAttemptRow, enrolledAndFresh } from './repo'

export type MfaType = 'totp' | 'sms' | 'passkey'

export const MFA_TYPES: readonly MfaType[] = ['totp', 'sms', 'passkey']

/** Spec part 2 section 9: 4 attempts. */
export const MFA_MAX_ATTEMPTS = 4

/** The attempts window (the client's blocking text says to try again in 10 seconds). */
export const MFA_ATTEMPT_WINDOW_S = 10

/** Attempts per user per day, whatever the windows (bounds guessing at 40 a day). */
export const MFA_DAILY_ATTEMPTS = 40

/** How long a verification counts for the gate and for method changes (5 minutes). */
export const MFA_FRESH_S = 300

/** An enrolment waiting for its first code expires after 10 minutes. */
export const MFA_PENDING_TTL_S = 600

export const TOTP_PERIOD_S = 30

/** TOTP steps accepted either side of now (clock drift). */
export const TOTP_WINDOW = 1

export { markVerified, mfaMethodsOf } from './repo'

/** Whether the user has a method and whether this session verified within MFA_FRESH_S. */
export const mfaState = (q: Queryable, auth: Auth): Promise<{ enrolled: boolean; fresh: boolean }> => enrolledAndFresh(q, auth, now() - MFA_FRESH_S)

/**
 * Counts one attempt before any code is checked, in one atomic upsert (the row lock orders
 * racing requests): refused with 429 mfa_verification_max_attempts_reached beyond
 * MFA_MAX_ATTEMPTS in the window or MFA_DAILY_ATTEMPTS in the day. Committed on its own, so a
 * wrong code stays counted.
 */
export async function countAttempt(q: Queryable, userId: string): Promise<void> {
  const r = await countAttemptRow(q, userId, now(), MFA_ATTEMPT_WINDOW_S)
  if (Number(r.count) > MFA_MAX_ATTEMPTS || Number(r.day_count) > MFA_DAILY_ATTEMPTS) throw mfaErrors.maxAttempts()
}

/** Methods this app allows (`mfa.methods` in apps.json; default all three). */
export function allowedTypes(app: AppSettings): MfaType[] {
  const m = (app as { mfa?: { methods?: unknown } }).mfa?.methods
  return Array.isArray(m) ? MFA_TYPES.filter((t) => m.includes(t)) : [...MFA_TYPES]
}

export function totpOf(secretBase32: string, issuer = 'Portico', label = 'user') {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: OTPAuth.Secret.fromBase32(secretBase32) })
}

/** The time step `code` belongs to (within ±TOTP_WINDOW of `at`), or null when it is wrong. */
export function totpStep(secretBase32: string, code: string, at = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: at, window: TOTP_WINDOW })
  if (delta === null) return null
  return OTPAuth.TOTP.counter({ period: TOTP_PERIOD_S, timestamp: at }) + delta
}
