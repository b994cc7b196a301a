/** Every user-facing text of key export (spec part 2 sections 2 and 8); overridable with `texts: { 'wallet-export': {...} }`. */
export const WALLET_EXPORT_TEXTS = {
  title: 'Transfer wallet',
  description: 'Import this private key into another wallet app to take your wallet with you.',
  phraseDescription: 'Import this recovery phrase into another wallet app to take your wallets with you.',
  frameTitle: 'Your wallet’s private key',
  done: 'Done',
  // Spec part 2 section 8, word for word.
  mustBeAuthenticated: 'User must be authenticated before exporting their Privy wallet',
  mustHaveWallet: 'Must have a Privy wallet before exporting',
  noHdSolana: 'User does not have an HD Solana wallet.',
  failedTitle: 'Something went wrong',
  close: 'Close',
}
