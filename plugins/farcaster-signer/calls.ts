/** The Farcaster signer's API calls (spec part 2: POST /api/v1/farcaster/signer/status {ed25519_public_key}; init beside it). */
import type { Api } from 'portico'

export interface FarcasterSignerReply {
  public_key: string
  status: 'pending_approval' | 'approved' | 'revoked' | 'expired'
  /** While pending: the Farcaster app's approval link. */
  signer_approval_url?: string
  /** Once decided: the fid the signer belongs to. */
  fid?: string
}

/** POST /farcaster/signer/init {ed25519_public_key}: the app asks the Farcaster app to approve the key. */
export const initFarcasterSigner = (api: Api, publicKey: string, signal?: AbortSignal) =>
  api.post<FarcasterSignerReply>('/farcaster/signer/init', { ed25519_public_key: publicKey }, { signal })

/** POST /farcaster/signer/status {ed25519_public_key}. */
export const farcasterSignerStatus = (api: Api, publicKey: string, signal?: AbortSignal) =>
  api.post<FarcasterSignerReply>('/farcaster/signer/status', { ed25519_public_key: publicKey }, { signal })
