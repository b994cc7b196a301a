/** The Farcaster plugin's state and timing: what the entry needs before the flow loads (./flow.ts). */
export const FARCASTER = 'farcaster'
export const FARCASTER_SCREEN = 'farcaster-connect'
export const FARCASTER_POLL_MS = 2000
export const FARCASTER_TIMEOUT_MS = 120_000

export type FarcasterStatusName = 'idle' | 'waiting' | 'verifying' | 'success'
export interface FarcasterState {
  status: FarcasterStatusName
  /** The channel's connect URI (QR code / app link) while waiting. */
  connectUri: string | null
}

export const INITIAL_FARCASTER_STATE: FarcasterState = { status: 'idle', connectUri: null }
