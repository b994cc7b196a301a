/** The step-up's rules: limits and texts, the masked address it names, the devices list. */

/** Wrong codes after which a step-up code is void (a new one must be requested). */
export const STEP_UP_MAX_ATTEMPTS = 5

/** Step-up starts (codes sent) per user per rate window. */
export const STEP_UP_STARTS_PER_WINDOW = 10

/** Wrong step-up codes per user per day, whatever the codes (bounds guessing). */
export const STEP_UP_GUESSES_PER_DAY = 30

export const STEP_UP_MSG = {
  invalidCode: 'Invalid code. Please try again.',
  voided: 'Too many wrong codes: this code no longer works. Request a new code.',
  noCode: 'This code has expired. Request a new code.',
  codeRequired: 'code: Required',
  notFound: 'Embedded wallet not found',
  deviceNotFound: 'This device is not one of your wallet’s devices.',
  emailSubject: 'Confirm it’s you',
} as const

/** 'alice@example.com' → 'a•••@example.com'; '+14155550123' → '+1•••••••0123'. */
export function maskAddress(channel: 'email' | 'sms', to: string): string {
  if (channel === 'email') {
    const at = to.lastIndexOf('@')
    return at > 0 ? `${to[0]}•••${to.slice(at)}` : '•••'
  }
  return to.length > 6 ? `${to.slice(0, 2)}${'•'.repeat(to.length - 6)}${to.slice(-4)}` : '•••'
}
