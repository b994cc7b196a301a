/**
 * The MFA base's texts. Spec part 2 section 8 'MFA code entry' and its further messages, and
 * section 5 'MFA rules', word for word; the rest (marked 'ours') where the spec names a
 * screen but not its words. Every one is overridable: `texts: { mfa: { ... } }`.
 */
export const MFA_TEXTS = {
  // --- part 2 section 8, 'MFA code entry' (word for word)
  maxAttemptsBlocking: 'You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.',
  invalidCodeInline: 'The code you entered is not valid',
  timeLimitBlocking: 'You have exceeded the time limit for code entry. Please try again in 30 seconds.',
  canceled: 'Verification canceled',
  unknownEnrolmentError: 'Unknown error',
  verificationError: 'Something went wrong.',
  passkeyError: 'something went wrong',
  // --- further MFA messages (word for word)
  invalidMfaCode: 'Invalid MFA code',
  unsupportedMethod: 'Unsupported MFA method',
  mfaCanceled: 'MFA canceled',
  maxAttempts: 'Max MFA verification attempts reached',
  timedOut: 'Timed out waiting for MFA code',
  mustBeAuthenticated: 'Must have valid access token to enroll in MFA',
  // --- part 2 section 5, 'MFA rules' (word for word)
  codeNumeric: 'Passcode can only be numbers',
  codeLength: 'Passcode must be exactly 6 numbers',
  verificationRequired: 'To add or delete verification methods, verification is required.',
  // --- ours (the spec has no text): a right authenticator code of a time step already used
  codeAlreadyUsed: 'This code has already been used. Wait for a new code.',
  // --- part 2 section 2, 'MFA screens' (word for word)
  chooseTitle: 'Choose a verification method',
  recommended: 'Recommended',
  enabled: 'Enabled',
  disabled: 'Disabled',
  verifyTitle: 'Verify your identity',
  notNow: 'Not now',
  verifyingWithPasskey: 'Verifying with passkey',
  tryAgain: 'Try again',
  chooseAnother: 'Choose another method',
  // --- method names (ours)
  totpLabel: 'Authenticator app',
  smsLabel: 'SMS',
  passkeyLabel: 'Passkey',
  // --- screens the spec names without words (ours)
  introTitle: 'Add extra security',
  introDescription: 'Verify your identity with a second method before sensitive actions such as signing or exporting your wallet.',
  introContinue: 'Continue',
  chooseDescription: 'Pick how you want to verify your identity.',
  removeLabel: 'Remove {method}',
  removeTitle: 'Remove {method}?',
  removeDescription: 'You will no longer be able to verify with this method.',
  removeConfirm: 'Remove',
  cancel: 'Cancel',
  done: 'Done',
  codeHelpTotp: 'Enter the 6-digit code from your authenticator app.',
  codeHelpSms: 'Enter the 6-digit code sent to your phone.',
  passkeyHelp: 'Use your passkey to verify your identity.',
  codeLabel: 'Verification code',
  successTitle: 'Verified',
}
