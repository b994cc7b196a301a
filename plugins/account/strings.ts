/**
 * Texts of the account-transfer screens (part 1 section 2, "Terms and transfer screens").
 * Word for word where the spec gives the words; the body copy the spec only describes is
 * marked "(ours)". Overridable: `texts: { account: {...} }`. The method labels are not here:
 * each login method declares its own (`transferLabel` of its descriptor).
 */
export const ACCOUNT_TEXTS = {
  /** '{method} is associated with another account' ({method}: the method's transferLabel). */
  conflictTitle: '{method} is associated with another account',
  /** (ours) The label when no declared method names the link method. */
  fallbackLabel: 'Account',
  /** (ours) asks whether to transfer the handle and warns the other account will be deleted. */
  conflictBody: 'Do you want to transfer {account} to this account instead? Your other account will be deleted.',
  continue: 'Continue',
  transferAndDelete: 'Transfer and delete account',
  noThanks: 'No thanks',
  checkAssetsTitle: 'Check account assets before transferring',
  /** (ours) assets do not transfer automatically and may be lost; log in there or use a block explorer. */
  checkAssetsBody:
    'Assets in your other account will not be transferred automatically and may be lost. Log in to your other account to move them first, or check them on a block explorer.',
  /** (ours) */
  walletAddress: 'Wallet address',
  success: 'Success!',
  copy: 'Copy',
  copied: 'Copied',
  /** (ours) The refusal when no enabled method can transfer this kind of account (`method_not_supported`). */
  unsupportedTitle: 'This account cannot be transferred',
  unsupported: "Transferring an account of this kind ('{method}') is not supported by this app.",
  /** (ours) Back to the prompt (where 'No thanks' ends the flow). */
  back: 'Back',
  /** (ours) developer-facing */
  missingData: 'The link conflict came without transfer data (nonce); it cannot be transferred.',
} as const
