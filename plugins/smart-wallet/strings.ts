/** The smart-wallet plugin's texts (apps override them under `texts: { 'smart-wallet': { … } }`). */
export const SMART_WALLET_TEXTS = {
  /** Spec part 1: the login method display name. */
  displayName: 'smart wallet',
  /** The SIWE statement the smart account signs to be linked. */
  linkStatement: 'Link this smart wallet to your account.',
  notEnabled: 'Smart wallets are not enabled for this app.',
  noEmbeddedWallet: 'A smart wallet needs an embedded Ethereum wallet first.',
  chainNotConfigured: 'Chain {chainId} is not one of this app’s smart-wallet networks.',
  typeNotSupported: 'Smart wallet type {type} is not supported by this client.',
  notSponsored: 'Gas is not sponsored for this transaction: {reason} Your smart wallet pays the network fee.',
  batchTitle: 'Batch of {count} calls',
  batchDescription: 'Your smart wallet makes these calls in one transaction: {calls}.',
  bundlerFailed: 'The bundler refused the operation: {reason}',
  /** EIP-7702: the screen that embeds the wallet service's authorisation page. */
  authorizeTitle: 'Upgrade your wallet',
  authorizeFrameTitle: 'Wallet upgrade authorisation',
  authorizeFailed: 'Something went wrong',
  declined: 'User rejected the request.',
  noWalletFrame: 'Embedded wallets are not set up: add the embedded-wallet plugin.',
} as const

export type SmartWalletTexts = { -readonly [K in keyof typeof SMART_WALLET_TEXTS]: string }
