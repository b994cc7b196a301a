/** Every user-facing text of the generic screens, word for word from the spec (part 1). */
export const UI_TEXTS = {
  landingHeader: 'Log in or sign up',
  moreOptions: 'More options',
  recent: 'Recent',
  legalLine: 'By logging in I agree to the',
  terms: 'Terms',
  and: '&',
  privacyPolicy: 'Privacy Policy',
  // Terms consent
  consentTitle: 'One last step',
  consentBody: 'By signing up, you agree to our terms and privacy policy.',
  viewTerms: 'View Terms',
  viewPrivacy: 'View Privacy Policy',
  noThanks: 'No thanks',
  accept: 'Accept',
  // Allowlist
  allowlistTitle: "You don't have access to this app",
  allowlistDetail: 'Have you been invited?',
  allowlistCta: 'Try another account',
  // Other rejections
  accountNotFound: 'Account not found',
  userLimit: 'Unable to sign in',
  inAppBrowserTitle: 'Could not log in with provider',
  tryAnotherMethod: 'Try another method',
  tryAgain: 'Try again',
  // Wallet slot (part 1 section 2)
  noWalletsEthereum: 'No wallets available: Please download an external wallet provider, like Rainbow, Phantom, or Coinbase Wallet',
  noWalletsSolana: 'Phantom or Solflare',
  // Start-up (ours): the modal opened before the app config arrived
  loading: 'Loading',
  retryNow: 'Retry now',
} as const
