/** Every user-facing text of Farcaster signers (spec part 1 sections 2, 8; part 2 section 8); overridable with `texts: { 'farcaster-signer': {...} }`. */
export const FARCASTER_SIGNER_TEXTS = {
  title: 'Add a signer to Farcaster',
  scan: 'Scan with your phone’s camera to continue.',
  copyHint: 'Or copy this link and paste it into a phone browser to open the Warpcast app.',
  copyLink: 'Copy link',
  qrLabel: 'Farcaster signer approval QR code',
  waiting: 'Waiting for approval in Warpcast…',
  openApp: 'Open Warpcast app',
  takeMe: 'Take me to Warpcast',
  approved: 'Success!',
  approvedDetail: 'Your signer was approved.',
  rejectedTitle: 'Request rejected',
  rejectedDetail: 'The request was rejected. Please try again.',
  failedTitle: 'Connect failed',
  failedDetail: 'Something went wrong. Please try again.',
  tryAgain: 'Retry',
  // spec part 2 section 8
  needWallet: 'Must have an embedded wallet to use Farcaster signers',
  needFarcaster: 'Must have Farcaster account to use Farcaster signers',
  mustBeAuthenticated: 'User must be authenticated to use Farcaster signers',
}
