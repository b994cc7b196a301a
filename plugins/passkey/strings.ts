/**
 * Every user-facing text of the passkey plugin, overridable with `texts: { passkey: {...} }`.
 * Spec texts are word for word (part 1 sections 2, 3, 5, 8).
 */
export const PASSKEY_TEXTS = {
  // Spec, part 1 section 2 (display name, choice, link screens)
  displayName: 'passkey',
  createAccount: 'Create new account',
  logInWithPasskey: 'Log in with a passkey',
  linkTitle: 'Secure your account with a passkey',
  addPasskey: 'Add new passkey',
  updated: 'Passkeys updated',
  done: 'Done',
  // Spec, part 1 section 3 (display title fallback)
  unknownDevice: 'Unknown device',
  // Spec, part 1 section 5
  webauthnRequired: 'The browser must support WebAuthn',
  // Spec, part 1 section 8 (passkey messages)
  cannotLinkMore: 'Cannot link more passkeys to account.',
  rejected: 'Passkey request timed out or rejected by user.',
  unknownError: 'An unknown error occurred.',
  // Not given by the spec: short, neutral wording of our own.
  rowLabel: 'Passkey',
  chooseTitle: 'Log in or sign up with a passkey',
  chooseDescription: 'Use the passkey saved on this device, or create a new account with one.',
  waitTitle: 'Waiting for passkey',
  waitSystemDialogue: 'Follow the prompts from your browser or device.',
  waitVerifying: 'Verifying your passkey',
  waitSuccess: 'Success!',
  continue: 'Continue',
  retry: 'Retry',
  unknownErrorHint: 'If you have no passkey for this app yet, sign up another way first, then add a passkey.',
  failedTitle: 'Could not use your passkey',
  notSupportedTitle: 'Passkeys are not available',
  linkDescription: 'Log in with your fingerprint, face or screen lock instead of a code.',
  yourPasskeys: 'Your passkeys',
  unlink: 'Remove',
  unlinkLabel: 'Remove passkey {title}',
  // Asked before a passkey is removed (issue 25: removing took one click and no confirmation).
  unlinkConfirm: 'Unlink {title}?',
  unlinkConfirmButton: 'Unlink',
  cancel: 'Cancel',
  enrolledInMfa: 'Used for MFA',
  tryAgain: 'Try again',
} as const

export type PasskeyTexts = typeof PASSKEY_TEXTS
