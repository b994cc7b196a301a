/**
 * Phantom's own texts. The interstitial ('Redirecting to Phantom Mobile Wallet', 'Go to App
 * Store'), the login-failed screen ('Could not connect with wallet', 'Try again', 'Cancel')
 * and the wallet connection messages are the wallet base's (`WALLET_TEXTS`).
 */
export const PHANTOM_TEXTS = {
  /** The wallet's name in the list and on the interstitial. */
  name: 'Phantom',
  /** The SIWS statement of the message Phantom signs. */
  statement: 'You are proving you own this account by signing this message.',
} as const

export type PhantomTexts = { readonly [K in keyof typeof PHANTOM_TEXTS]: string }
