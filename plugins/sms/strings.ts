/**
 * Every user-facing text of the SMS plugin, overridable with `texts: { sms: {...} }`. Texts
 * the spec gives are word for word (part 1 sections 2, 5 and 8); the few the spec leaves open
 * are marked "(ours)" and kept short.
 */
export const SMS_TEXTS = {
  /** Login method display name (part 1 section 2). */
  displayName: 'SMS',
  /** Method label on the link-conflict screen (part 1 section 2, "Method labels"). */
  methodLabel: 'Phone number',
  /** (ours) The spec asks for consent text with the app name but gives no wording. */
  consent: 'By providing your phone number, you agree to receive SMS messages from {app}.',
  /** (ours) */
  phonePlaceholder: 'Phone number',
  /** (ours) */
  countryLabel: 'Country',
  submit: 'Submit',
  /** (ours) */
  loginHeading: 'Log in with SMS',
  /** (ours) */
  linkHeading: 'Link your phone number',
  /** (ours) */
  updateHeading: 'Update your phone number',
  /** (ours) */
  codeHeading: 'Enter confirmation code',
  /** (ours) */
  codeSentToBefore: 'Please check',
  /** (ours) */
  codeSentToAfter: 'for an SMS and enter your code below.',
  codeSent: 'Code sent',
  resendCode: 'Resend code',
  /** (ours) help line under the code boxes. */
  helpLine: "Didn't get an SMS?",
  /** (ours) success state of the code screen */
  success: 'Success!',
  invalidCode: 'Invalid or expired verification code',
  issueVerifyingCode: 'Issue verifying code',
  codeNumeric: 'Code should be numeric',
  /** (ours) */
  codeLength: 'Code should be 6 digits',
  needPhoneToUpdate: 'User is required to have a phone number to update it.',
  /** Part 1 section 5: 'User already has an account of type {type} linked.' */
  cannotLinkMore: 'User already has an account of type phone linked.',
  /** Part 1 section 8. */
  mustBeAuthenticated: 'User must be authenticated before linking an account.',
  /** Part 1 section 8, 'not supported': the region refusal. */
  regionNotSupported: 'This region is not supported',
  smsRegionNotAvailable: 'SMS authentication from this region is not available',
  tryAnotherMethod: 'Try another method',
  /** (ours) a number that is not valid for the chosen country, headless use. */
  invalidPhone: 'Please enter a valid phone number.',
  /** (ours) unlink without a number. */
  noPhoneToUnlink: 'The user has no phone number to unlink.',
}
