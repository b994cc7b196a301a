/**
 * Texts of the account-transfer screens (part 1 section 2, "Terms and transfer screens").
 * Word for word where the spec gives the words; the body copy the spec only describes is
 * marked "(ours)".
 */
export const ACCOUNT_TEXTS = {
  /** '{method} is associated with another account' */
  conflictTitle: '{method} is associated with another account',
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
  /** (ours) developer-facing */
  unsupported: "Transferring an account of this kind ('{method}') is not supported by this app.",
  missingData: 'The link conflict came without transfer data (nonce); it cannot be transferred.',
} as const

/** Method labels (part 1 section 2, "Method labels"). */
export const METHOD_LABELS: Record<string, string> = {
  sms: 'Phone number',
  email: 'Email address',
  siwe: 'Wallet address',
  siws: 'Wallet address',
  linkedin: 'LinkedIn profile',
}

/** Providers labelled '{Provider} profile'. */
const PROVIDERS: Record<string, string> = {
  google: 'Google',
  apple: 'Apple',
  discord: 'Discord',
  github: 'GitHub',
  instagram: 'Instagram',
  spotify: 'Spotify',
  tiktok: 'TikTok',
  twitter: 'Twitter',
  telegram: 'Telegram',
  farcaster: 'Farcaster',
}

/** The label of a link method for the conflict heading. */
export function methodLabel(linkMethod: string): string {
  const m = linkMethod.replace(/_oauth$/, '')
  if (METHOD_LABELS[m]) return METHOD_LABELS[m]
  if (PROVIDERS[m]) return `${PROVIDERS[m]} profile`
  return 'Account'
}
