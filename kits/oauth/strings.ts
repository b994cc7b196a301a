/**
 * Every user-facing text of the OAuth methods (part 1 sections 2 and 8, word for word; ours
 * marked). Each provider plugin reads them under its own id, so an app overrides them per
 * provider: `texts: { google: { verifying: '…' } }`. `{provider}` is the display name.
 */
export const OAUTH_TEXTS = {
  continueWith: 'Continue with {provider}',
  verifying: 'Verifying connection',
  success: 'Successfully connected',
  failedTitle: 'Authentication failed',
  retry: 'Retry',
  // Rules of part 1 sections 5 and 8.
  invalidCode: 'Invalid code during OAuth flow.',
  missingCodes: 'Authorization and state codes code must be set prior to calling authenticate/link.',
  missingVerifier: 'Authentication error.',
  unexpectedFlow: 'Unexpected auth flow. This may be a phishing attempt.',
  originMismatch: 'Origins between parent and child windows do not match.',
  timedOut: 'Authorization request timed out after 2 minutes.',
  // 'Authentication failed' details (part 1 section 8).
  linkedToAnotherUser: 'This account has already been linked to another user.',
  invalidCredentials: 'Something went wrong. Try again.',
  userDenied: 'Retry and check {provider} to finish connecting your account.',
  tooManyRequests: 'Too many requests. Please wait before trying again.',
  rateLimited: 'Request limit reached for {provider}. Please wait a moment and try again.',
  suspended: 'Your {provider} account is suspended. Please try another login method.',
  cannotLinkMore: 'You cannot authorize more than one account for this user.',
  // Ours.
  redirecting: 'Taking you to {provider}…',
  awaitingPopup: 'Finish connecting in the {provider} window.',
  popupBlocked: 'The {provider} window could not open. Allow pop-ups for this site and try again.',
  cancel: 'Cancel',
  tryAnotherMethod: 'Try another method',
  mustBeAuthenticated: 'User must be authenticated before linking an account.',
} as const
