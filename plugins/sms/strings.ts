/**
 * Every user-facing text of the SMS plugin. Texts the spec gives are word for word (part 1
 * sections 2, 5 and 8); the few the spec leaves open are marked "(ours)" and kept short.
 */
import { ERROR_TEXTS } from 'portico'

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
  needPhoneToUpdate: 'User is required to have a phone number to update it.',
  /** Part 1 section 5: 'User already has an account of type {type} linked.' */
  cannotLinkMore: 'User already has an account of type phone linked.',
  mustBeAuthenticated: ERROR_TEXTS.mustBeAuthenticatedToLink,
  regionNotSupported: ERROR_TEXTS.regionNotSupported,
  smsRegionNotAvailable: ERROR_TEXTS.smsRegionNotAvailable,
  tryAnotherMethod: ERROR_TEXTS.tryAnotherMethod,
  /** (ours) a number that is not valid for the chosen country, headless use. */
  invalidPhone: 'Please enter a valid phone number.',
} as const

export type SmsTexts = typeof SMS_TEXTS
