/** Captcha texts (part 1 section 8 for the failure, time-out and invalid-captcha lines). */
export const CAPTCHA_TEXTS = {
  title: 'Checking that you are human',
  loading: 'This only takes a moment.',
  interactive: 'Complete the check to continue.',
  success: 'Success',
  invalidCaptcha: 'Please try again.',
  failure: 'You did not pass CAPTCHA. Please try again.',
  failureAfterRetries: 'If you use an adblocker or VPN, try disabling and re-attempting.',
  timeout: 'Something went wrong! Please try again later.',
  disabled: 'Captcha is not available.',
  tryAgain: 'Try again',
}
