/** The Farcaster plugin's API calls (spec part 1 section 7, "Farcaster"). */
import type { Api, WireAuthResponse, WireUser } from 'portico'

export type LoginMode = 'no-signup' | 'login-or-sign-up'

export interface FarcasterChannel {
  channel_token: string
  connect_uri: string
}

export interface FarcasterStatus {
  state: 'pending' | 'completed'
  message?: string
  signature?: string
  fid?: number
  username?: string | null
  display_name?: string | null
}

export interface FarcasterSignature {
  channel_token: string
  message: string
  signature: string
  fid: number
}

/** POST /farcaster/init {token}: a sign-in channel (connect_uri for the QR code / app link, channel_token). */
export const initFarcaster = (api: Api, body: { token?: string } = {}, signal?: AbortSignal) =>
  api.post<FarcasterChannel>('/farcaster/init', body, { auth: 'none', signal })

/** GET /farcaster/status with the channel token in the `farcaster-channel-token` header. */
export const getFarcasterStatus = (api: Api, channelToken: string, signal?: AbortSignal) =>
  api.get<FarcasterStatus>('/farcaster/status', { headers: { 'farcaster-channel-token': channelToken }, auth: 'none', signal })

/** POST /farcaster/authenticate {channel_token, message, signature, fid, mode}. */
export const authenticateFarcaster = (api: Api, body: FarcasterSignature & { mode?: LoginMode }) =>
  api.post<WireAuthResponse>('/farcaster/authenticate', body)

/** POST /farcaster/link (bearer). */
export const linkFarcaster = (api: Api, body: FarcasterSignature) => api.post<WireAuthResponse | { user: WireUser }>('/farcaster/link', body)

/** POST /farcaster/unlink {fid}. */
export const unlinkFarcaster = (api: Api, fid: number) => api.post<WireAuthResponse | { user: WireUser }>('/farcaster/unlink', { fid })

/** POST /farcaster/transfer {nonce, farcaster_id, farcaster_embedded_address}. */
export const transferFarcaster = (api: Api, body: { nonce: string; farcaster_id: number; farcaster_embedded_address?: string | null }) =>
  api.post<WireAuthResponse | { user: WireUser }>('/farcaster/transfer', body)
