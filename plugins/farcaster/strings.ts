/** Every user-facing text of the Farcaster plugin (spec part 1 sections 2, 4, 8); overridable with `texts: { farcaster: {...} }`. */
export const FARCASTER_TEXTS = {
  displayName: 'Farcaster',
  rowLabel: 'Farcaster',
  methodLabel: 'Farcaster profile',
  title: 'Sign in with Farcaster',
  scan: 'Scan with your phone’s camera to continue.',
  openApp: 'Open Warpcast app',
  qrLabel: 'Farcaster sign-in QR code',
  waiting: 'Waiting for approval in Warpcast…',
  verifying: 'Verifying connection',
  success: 'Successfully connected',
  failedTitle: 'Authentication failed',
  timeout: 'The request timed out. Try again.',
  tryAgain: 'Retry',
}
