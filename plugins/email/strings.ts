/**
 * Every user-facing text of the e-mail plugin, overridable with `texts: { email: {...} }`.
 * Spec texts are word for word (part 1).
 */
export const EMAIL_TEXTS = {
  // Spec, part 1 section 2 (login method display name, method label)
  displayName: 'e-mail',
  methodLabel: 'Email address',
  // Spec, part 1 section 5
  plusNotAllowed: "Please enter a valid email address without a '+'.",
  updateRequiresEmail: 'User is required to have an email address to update it.',
  codeNumeric: 'Code should be numeric',
  // Spec, part 1 section 8 (passwordless code errors, linking logged out)
  invalidCode: 'Invalid or expired verification code',
  issueVerifying: 'Issue verifying code',
  mustBeAuthenticated: 'User must be authenticated before linking an account.',
  // Spec, part 1 section 2 (awaiting passwordless code, update form, method label)
  codeSent: 'Code sent',
  resendCode: 'Resend code',
  submit: 'Submit',
  fieldLabel: 'Email address',
  // Not given by the spec: short, neutral wording of our own.
  rowLabel: 'Email',
  placeholder: 'your@email.com',
  codeTitle: 'Enter confirmation code',
  codeDescriptionBefore: 'Please check',
  codeDescriptionAfter: 'for an email and enter your code below.',
  didNotGetEmail: "Didn't get an email?",
  linkTitle: 'Link your email',
  updateTitle: 'Update your email',
  invalidEmail: 'Invalid email address',
  codeLength: 'Code should be 6 digits',
  noEmailToUnlink: 'The user has no email address to unlink.',
  mustBeAuthenticatedToUpdate: 'User must be authenticated to update an email address.',
}
