/**
 * The embedded wallet's texts (spec part 2 sections 2 and 8, word for word where the spec
 * gives them), overridable under `texts: { 'embedded-wallet': {...} }`.
 */
export const EMBEDDED_WALLET_TEXTS = {
  // Created screen (section 2: 'Welcome' for a new user, 'All set!' otherwise; closes after 2.5 s)
  createdTitleNewUser: 'Welcome',
  createdTitle: 'All set!',
  createdDescription: 'Your wallet is ready.',
  creatingTitle: 'Creating your wallet',
  creatingDescription: 'This only takes a moment.',
  connectingTitle: 'Connecting your wallet',
  recoveringTitle: 'Recovering your wallet',
  close: 'Close',
  failedTitle: 'Something went wrong',
  // Section 8, 'Wallet and recovery'
  mustBeAuthenticated: 'User must be authenticated before creating a Privy wallet',
  alreadyExists: 'User already has an embedded wallet.',
  negativeIndex: 'A negative walletIndex is invalid.',
  failedToConnect: 'Failed to connect to wallet proxy',
  mustHaveWalletBeforeSigning: 'Must have a Privy wallet before signing',
  notFound: 'Embedded wallet not found',
  httpsOnly: 'Embedded wallet is only available over HTTPS',
  unableToRecover: 'Unable to recover wallet',
  missingToken: 'An error has occured, please login again.',
  proxyMissing: 'walletProxy does not exist.',
  createTimedOut: 'walletProxy.create timed out.',
  createNoResponse: 'walletProxy.create did not send a response.',
  refreshFailed: 'Failed to refresh user.',
  missingAfterUpdate: 'Updated user is missing embedded wallet.',
  recoveryNotSupported: 'Recovery method not supported',
  tryAgain: 'An error has occurred, please try again.',
  generic: 'Something went wrong. We’re on it. Please try again later.',
  needsIndexZero: 'An additional wallet needs a wallet at index 0 first.',
  // Import (the spec names no import texts: ours, the same as the wallet frame's)
  invalidEthereumKey: 'Invalid private key: expected 32 bytes of hex (0x…)',
  invalidSolanaKey: 'Invalid private key: expected a base58 Solana secret key (64 bytes)',
  unsupportedChainType: 'chainType: expected ethereum or solana',
  // Storage blocked or partitioned (issue 26; the spec names none: ours)
  storageSessionTitle: 'This wallet stays in this tab',
  storageSession:
    'Your browser blocks this wallet’s storage on this site, so it stays on this device only until you close or reload this page. Next time, you’ll confirm it’s you to restore it.',
  storageUnavailable: 'This browser doesn’t let the wallet use its storage on this site, so this can’t be done here. Please try another browser.',
  gotIt: 'Got it',
  // Section 5 / 8 'Signing and transactions'
  messageEmpty: 'Message must be a non-empty string',
  userRejected: 'User rejected the request.',
  unsupportedMethod: 'The provider does not support the requested method.',
  unauthorized: 'The requested account has not been authorized by the user.',
  chainNotSupported: 'Chain ID {id} is not supported by this app.',
  disconnected: 'The provider is disconnected from the chain.',
  wrongAddress: 'Cannot request a signature with this wallet address',
  // New device (issue 26; the spec names none: ours). '{to}' is the masked address.
  stepUpTitle: 'Confirm it’s you',
  stepUpSent: 'We sent a code to {to} to confirm it’s you.',
  stepUpMfa: 'Verify with your MFA method to use your wallet on this device.',
  stepUpRequired: 'Confirm it’s you to use your wallet on this device.',
  stepUpUnavailable: 'This wallet cannot be restored on a new device: add an e-mail address, a phone number or MFA to your account first.',
  deviceRevoked: 'This device was removed from your wallet.',
  codeSent: 'Code sent',
  didNotGetEmail: 'Didn’t get an email?',
  didNotGetSms: 'Didn’t get a text message?',
  resendCode: 'Resend code',
  // The wallet's devices
  devicesTitle: 'Devices',
  thisDevice: 'This device',
  removeDevice: 'Remove',
  removeDeviceQuestion: 'Remove this device from your wallet?',
  sessionOnlyDevice: 'this browser session only',
} as const

export type EmbeddedWalletTexts = { [K in keyof typeof EMBEDDED_WALLET_TEXTS]: string }
