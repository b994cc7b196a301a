/**
 * Recovery password rules (spec part 2 section 5 'Recovery password', section 9): minimum
 * length 6, the allowed characters (letters, digits and ! @ # $ % ^ & * ( ) - _ +), the strength
 * score with its 0.5 / 0.9 thresholds, the confirmation rule, the 4-word passphrase drawn from
 * the platform CSPRNG over the BIP-39 English wordlist, and the download file-name rule.
 * Pure functions: the screens and the tests use the same ones.
 */
import { RECOVERY_TEXTS, type RecoveryTexts } from './strings'

export const PASSWORD_MIN_LENGTH = 6
export const STRENGTH_MEDIUM = 0.5
export const STRENGTH_STRONG = 0.9
/** The download's blob URL is revoked after 5 s (spec part 2 section 9). */
export const DOWNLOAD_REVOKE_MS = 5000
/** 'Copied' shows for 1.5 s. */
export const COPIED_MS = 1500

const ALLOWED = /^[A-Za-z0-9!@#$%^&*()\-_+]$/

/** The characters of `password` the rules refuse, each once, in order of appearance (a space as SPACE). */
export function invalidCharacters(password: string): string[] {
  const seen: string[] = []
  for (const ch of password) {
    if (ALLOWED.test(ch)) continue
    const shown = ch === ' ' ? 'SPACE' : ch
    if (!seen.includes(shown)) seen.push(shown)
  }
  return seen
}

/**
 * The error to show for a password, or null when it is valid. `touched` false: no error yet
 * (checks apply once the field is touched); Continue still needs `isValidPassword`.
 */
export function passwordError(password: string, touched = true, T: RecoveryTexts = RECOVERY_TEXTS): string | null {
  if (!touched) return null
  const bad = invalidCharacters(password)
  if (bad.length) return T.invalidCharacters.replace('{list}', bad.join(', '))
  if (password.length < PASSWORD_MIN_LENGTH) return T.tooShort
  return null
}

export const isValidPassword = (password: string) => password.length > 0 && passwordError(password) === null

export type Strength = 'Weak' | 'Medium' | 'Strong'

/** Character classes present: lower-case letters, upper-case letters, digits, symbols. */
export function characterClasses(password: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length
}

/**
 * The strength score in [0, 1] from the spec's three ingredients: a length of at least 8
 * (0.25), character classes (0.25 × classes / 3, capped), and a length-based term (0.5 ×
 * length / 24, capped). An invalid password scores 0.
 */
export function strengthScore(password: string): number {
  if (!isValidPassword(password)) return 0
  const longEnough = password.length >= 8 ? 0.25 : 0
  const classes = 0.25 * Math.min(1, characterClasses(password) / 3)
  const length = 0.5 * Math.min(1, password.length / 24)
  return Math.round((longEnough + classes + length) * 1000) / 1000
}

/** Weak, Medium (score above 0.5) or Strong (above 0.9); an invalid password is Weak. */
export function passwordStrength(password: string): Strength {
  const s = strengthScore(password)
  return s > STRENGTH_STRONG ? 'Strong' : s > STRENGTH_MEDIUM ? 'Medium' : 'Weak'
}

/** The confirm field's error: 'Passwords do not match' once touched and different. */
export function confirmError(original: string, confirm: string, touched = true, T: RecoveryTexts = RECOVERY_TEXTS): string | null {
  if (!touched || confirm === original) return null
  return T.mismatch
}

/**
 * The download's file name (spec part 2 section 9): the app name lower-cased, letters only,
 * words joined by hyphens, plus '-privy-wallet-recovery.txt'.
 */
export function recoveryFileName(appName: string | null | undefined): string {
  const words = (appName ?? '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
  const base = words.join('-')
  return `${base ? `${base}-` : ''}privy-wallet-recovery.txt`.replace(/^-/, '')
}

/** The downloaded file's text: the password and that it is needed on a new device. */
export function recoveryFileText(password: string, appName: string | null | undefined, T: RecoveryTexts = RECOVERY_TEXTS): string {
  return `${T.downloadText.replace('{app}', appName || 'this app')}\n\n${password}\n`
}
