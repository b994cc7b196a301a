/** The Farcaster signer plugin's ids, timing (spec part 1 section 9) and state: what the entry needs before the flow loads. */
export const FARCASTER_SIGNER = 'farcaster-signer'
export const FARCASTER_SIGNER_SCREEN = 'farcaster-signer'
/** The approval state is polled every 2 s… */
export const FARCASTER_SIGNER_POLL_MS = 2000
/** …for 5 minutes, then 'Connect failed'. */
export const FARCASTER_SIGNER_TIMEOUT_MS = 300_000
/** 'approved' refreshes the user and closes the screen after 1400 ms. */
export const FARCASTER_SIGNER_CLOSE_MS = 1400

export type FarcasterSignerStatusName = 'idle' | 'starting' | 'pending_approval' | 'approved' | 'revoked' | 'failed'

export interface FarcasterSignerState {
  status: FarcasterSignerStatusName
  /** The Farcaster app's approval link (QR code, copy link, 'Open Warpcast app') while pending. */
  approvalUrl: string | null
  /** The signer's Ed25519 public key (0x hex), once the wallet frame made it. */
  publicKey: string | null
}

export const INITIAL_FARCASTER_SIGNER_STATE: FarcasterSignerState = { status: 'idle', approvalUrl: null, publicKey: null }
