/** Every user-facing text of the e-mail plugin. Spec texts are word for word (part 1). */
export const EMAIL_TEXTS = {
  // Spec, part 1 section 5
  plusNotAllowed: "Please enter a valid email address without a '+'.",
  updateRequiresEmail: 'User is required to have an email address to update it.',
  // Spec, part 1 section 8 (passwordless code errors)
  invalidCode: 'Invalid or expired verification code',
  issueVerifying: 'Issue verifying code',
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
  resendIn: (s: number) => `Resend code in ${s}s`,
} as const

/** Constants of part 1 sections 4 and 9. */
export { CODE_LENGTH, RESEND_COOLDOWN_MS, CODE_RESET_MS } from 'portico/ui'
