/** Every user-facing text of delegated actions (spec part 2 sections 2, 5, 6, 8); overridable with `texts: { 'delegated-actions': {...} }`. */
export const DELEGATED_ACTIONS_TEXTS = {
  consentTitle: 'Enable offline access',
  // The consent page (on the wallet service's origin) shows the app's name, the wallet and the policy.
  frameTitle: 'Offline access consent',
  consentSuccess: 'Offline access enabled',
  revokeTitle: 'Revoke offline access',
  revokeDescription: '{app} will no longer be able to use your wallets while you are away.',
  revoke: 'Revoke',
  cancel: 'Cancel',
  revokeSuccess: 'Offline access revoked',
  failedTitle: 'Something went wrong',
  declined: 'User declined offline access.',
  // Spec part 2 section 8, word for word.
  notAssociated: 'Address to delegate is not associated with current user.',
  needSolana: 'User must have a solana wallet in order to delegate actions',
  // Spec part 2 section 5 (rules without a given text).
  chainTypes: 'Delegation works only for Ethereum and Solana wallets.',
  nothingToRevoke: 'User has no delegated wallets to revoke.',
  mustBeAuthenticated: 'User must be authenticated before delegating actions',
  noWalletFrame: 'Embedded wallets are not set up: add the embedded-wallet plugin.',
}
