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
} as const

export type WalletTexts = { readonly [K in keyof typeof WALLET_TEXTS]: string }
