/** The authenticator-app method's texts ('ours' where the spec names no words); overridable as `texts: { 'mfa-totp': {...} }`. */
export const MFA_TOTP_TEXTS = {
  /** Part 2 section 2, word for word. */
  added: 'Authenticator app verification added',
  /** (ours) */
  enrolTitle: 'Set up an authenticator app',
  enrolDescription: 'Scan this QR code with your authenticator app, or enter the secret below.',
  qrLabel: 'QR code for your authenticator app',
  secretLabel: 'Secret',
  copy: 'Copy',
  copied: 'Copied',
  continue: 'Continue',
  codeTitle: 'Enter the code',
  codeDescription: 'Enter the 6-digit code from your authenticator app.',
  /** Part 2 section 8, word for word: other enrolment errors and an invalid code. */
  unknownError: 'Unknown error',
  invalidCode: 'The code you entered is not valid',
}
