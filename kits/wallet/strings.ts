/**
 * Every user-facing text of the wallet base (the wallet list, the awaiting-connection screen,
 * the wallet connection messages), word for word from spec part 1 sections 2 and 8, shared by
 * every wallet plugin (siwe, siws, ...). Apps override them under `texts: { wallet: {...} }`.
 * `{placeholders}` are filled with `formatText`.
 */
export const WALLET_TEXTS = {
  /** Landing entry label (login method display name 'wallet'). */
  methodLabel: 'Wallet',
  /** Title of the wallet list when linking (not in the spec). */
  linkTitle: 'Link a wallet',
  // Wallet list (part 1 section 2)
  connect: 'Connect',
  recent: 'Recent',
  solana: 'Solana',
  moreWallets: 'More wallets',
  noWalletsEthereum:
    'No wallets available: Please download an external wallet provider, like Rainbow, Phantom, or Coinbase Wallet',
  noWalletsSolana: 'No wallets available: Please download an external wallet provider, like Phantom or Solflare',
  // Awaiting connection (part 1 section 2)
  signWithWallet: 'Sign with your wallet',
  useDifferentWallet: 'Use a different wallet',
  retry: 'Retry',
  tryConnectingAgain: 'Try connecting again',
  // Wallet connection messages (part 1 section 8)
  couldNotLogIn: 'Could not log in with wallet',
  rejected: 'You rejected the request',
  timedOut: 'Wallet request timed out',
  userExists: 'User already exists for this address',
  cannotLinkMore: "Unable to link: You've reached the maximum number of linked wallets.",
  signatureRejected: 'Signature rejected: Please try signing again.',
  checkOtherWindows: "Don't see your wallet? Check your other browser windows.",
  unableToRetrieveAddress: 'Unable to retrieve address',
  unknownConnectionError: 'Unknown error during connection',
  unsupportedWallet: 'Unsupported wallet',
  unableToConnectTo: 'Unable to connect to wallet',
  /** The hint once the 2 retries are used up. */
  unableToConnect: 'Unable to connect wallet',
  // Status headlines of the awaiting-connection screen: the spec names the slot but not the
  // words of 'waiting'; 'Successfully connected' is the spec's OAuth success headline.
  waitingFor: 'Waiting for {wallet}',
  connected: 'Successfully connected',
  // Mobile wallets (part 1 section 2; part 2 section 4): the interstitial, its fallback, the
  // login-failed screen. 'Redirecting to Phantom Mobile Wallet' is the spec's, with the
  // wallet's name as a placeholder for the other mobile wallets.
  redirecting: 'Redirecting to {wallet} Mobile Wallet',
  goToAppStore: 'Go to App Store',
  couldNotConnect: 'Could not connect with wallet',
  tryAgain: 'Try again',
  cancel: 'Cancel',
  // Install-wallet screen (part 1 section 2 names the screen and its learn-more link, not its
  // words): ours.
  installTitle: 'Get {wallet}',
  installDetail: 'Install {wallet} in this browser, then come back and connect it.',
  installButton: 'Install {wallet}',
  learnMore: 'Learn more about wallets',
  learnMoreUrl: 'https://ethereum.org/en/wallets/',
  // Connect-only screens (part 1 section 2 names them, not their words): ours.
  connectTitle: 'Connect a wallet',
  connectAnotherTitle: 'Connect another wallet',
} as const

export type WalletTexts = { readonly [K in keyof typeof WALLET_TEXTS]: string }
