/**
 * The texts of the generic error views (part 1 section 8, part 2 section 8), word for word: the
 * 'kernel' text namespace an app overrides (`texts: { kernel: { … } }`). Only lazy code reads
 * the whole catalogue (the kernel's error views, the error screens), so it stays out of a
 * host's first load; public from `portico/ui/screens`.
 */
import { START_ERROR_TEXTS } from './errors'

export const ERROR_TEXTS = {
  ...START_ERROR_TEXTS,
  timedOut: 'Timed out',
  pleaseTryAgain: 'Please try again.',
  notAllowed: 'Not allowed',
  tryAnotherMethod: 'Try another method',
  captchaFailure: 'You did not pass CAPTCHA. Please try again.',
  captchaFailureAfterRetries: 'If you use an adblocker or VPN, try disabling and re-attempting.',
  captchaTimeout: 'Something went wrong! Please try again later.',
  authenticationFailed: 'Authentication failed',
  linkedToAnotherUser: 'This account has already been linked to another user.',
  notSupported: 'Not supported',
  requestFailed: 'Request failed',
  tooManyAttempts: 'Too many attempts.',
  insufficientBalance: 'Insufficient balance',
  transactionFailure: 'Transaction failure',
  genericRetry: 'Something went wrong. Try again.',
  genericLater: "Something went wrong. We're on it. Please try again later.",
  requestTimeout: 'Request timeout',
  mustBeAuthenticatedToLink: 'User must be authenticated before linking an account.',
  developmentMode:
    'This application is in development mode and must be upgraded to production to log in new users.',
  unableToSignIn: 'Unable to sign in',
  accountNotFound: 'Account not found',
  allowlistTitle: "You don't have access to this app",
  inAppBrowser:
    "It looks like you're using an in-app browser. To log in, please try again using an external browser.",
} as const
