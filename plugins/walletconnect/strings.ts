/**
 * The WalletConnect plugin's own texts. The wallet connection texts (the rejection 'You
 * rejected the request', time-outs, retries, 'Sign with your wallet') are the wallet base's
 * WALLET_TEXTS; these name the connector and its QR / deep-link screen. Apps override them
 * under `texts: { walletconnect: {...} }`.
 */
export const WALLETCONNECT_TEXTS = {
  /** The wallet list row (the brand 'wallet connect' of spec part 1 section 3). */
  name: 'WalletConnect',
  /** Description above the QR code, and its accessible name. */
  scan: 'Scan with your wallet',
  /** Mobile: description above the wallet links. */
  chooseWallet: 'Open your wallet to connect',
  /** Mobile: one link per wallet. */
  openWallet: 'Open {wallet}',
  /** Mobile: the bare `wc:` link for any other wallet. */
  otherWallet: 'Other wallet',
  copyLink: 'Copy link',
  copied: 'Copied',
  /** Closes the QR code: counts as the user rejecting (spec part 1 section 4). */
  closeQr: 'Close QR code',
  /** Mobile: leaves the wallet links, likewise a rejection. */
  cancel: 'Cancel',
  /** While the relay connection and the pairing URI are prepared. */
  preparing: 'Waiting for {wallet}',
  /** While the wallet signs (desktop: on the phone). */
  signOnPhone: 'Check your wallet to sign the message.',
  /** The statement of the sign-in message (the same as siwe's). */
  statement:
    'By signing, you are proving you own this wallet and logging in. This does not initiate a transaction or cost any fees.',
  /** Warning (console) when the plugin is on but no project id is configured. */
  noProjectId: 'WalletConnect is enabled but no project id is configured (walletconnect({ projectId }) or walletConnectCloudProjectId): the WalletConnect wallet is not offered.',
} as const
