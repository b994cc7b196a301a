/** Every user-facing text of the Acme ID plugin, in one place (an app overrides them with `texts: { 'acme-id': {...} }`). */
export const ACME_ID_TEXTS = {
  label: 'Acme ID',
  title: 'Log in with Acme ID',
  waiting: 'Finish logging in in the Acme ID window.',
  verifying: 'Verifying your Acme ID…',
  success: 'Logged in with Acme ID',
  start: 'Continue with Acme ID',
  cancel: 'Cancel',
  // Popup flow errors (part 1 section 8, cross-app texts, word for word).
  unexpectedFlow: 'Unexpected auth flow. This may be a phishing attempt.',
  originMismatch: 'Origins between parent and child windows do not match.',
  userRejected: 'User rejected request',
  timedOut: 'Authorization request timed out after 2 minutes.',
  // The plugin's own.
  popupBlocked: 'The Acme ID window could not open. Allow pop-ups for this site and try again.',
  exchangeFailed: 'Acme ID could not confirm your login. Please try again.',
  rejectedTitle: 'Login cancelled',
  blockedTitle: 'Pop-up blocked',
  failedTitle: 'Could not log in with Acme ID',
  tryAgain: 'Try again',
  tryAnotherMethod: 'Try another method',
  invalidToken: 'The server did not accept the Acme ID login.',
  loginOnly: 'Acme ID can be used to log in, not to link or update an account.',
} as const
