/** The SMS method's texts ('ours' where the spec names no words); overridable as `texts: { 'mfa-sms': {...} }`. */
export const MFA_SMS_TEXTS = {
  /** Part 2 section 2, word for word. */
  added: 'SMS verification added',
  /**
   * Part 2 section 5: the consent text with the app name. The spec quotes its start and end
   * ('By providing your mobile number, you agree to receive text messages ... Some carrier
   * charges may apply'); the middle names the app.
   */
  consent: 'By providing your mobile number, you agree to receive text messages from {app}. Some carrier charges may apply',
  /** (ours) */
  phoneTitle: 'Verify with SMS',
  phoneDescription: 'Enter the mobile number to send verification codes to.',
  phoneLabel: 'Phone number',
  continue: 'Continue',
  codeTitle: 'Enter the code',
  codeDescription: 'Enter the 6-digit code sent to {number}.',
  /** Part 2 section 8, word for word. */
  unknownError: 'Unknown error',
  invalidCode: 'The code you entered is not valid',
}
