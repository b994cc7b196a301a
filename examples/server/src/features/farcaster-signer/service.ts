/**
 * The Signed Key Request flow against the Farcaster client API (Warpcast's), as Farcaster
 * documents it: the app FID's custody key signs the EIP-712 SignedKeyRequest; the server posts
 * it to `POST /v2/signed-key-requests {key, requestFid, signature, deadline}` and reads the
 * state with `GET /v2/signed-key-request?token=` (pending → approved (userFid) → completed;
 * revoked; expired). The request token stays on the server.
 */
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import type { AppSettings } from '../../config'
import { SIGNED_KEY_REQUEST_DOMAIN, SIGNED_KEY_REQUEST_TYPES } from './eip712'
import { signerErrors } from './errors'

export const DEFAULT_FARCASTER_CLIENT_API = 'https://api.farcaster.xyz'
/** How long the user has to approve a request (seconds), unless the app sets deadlineS. */
export const DEFAULT_SIGNER_DEADLINE_S = 86400

export interface SignerConfig {
  appFid: number
  custodyKey: Hex
  deadlineS: number
}

/** The app's signer configuration, or undefined when it has none (or its key variable is unset). */
export function signerConfig(app: AppSettings, env: NodeJS.ProcessEnv = process.env): SignerConfig | undefined {
  const f = app.farcasterSigner
  if (!f) return undefined
  const key = f.custodyKey ?? (f.custodyKeyEnv ? env[f.custodyKeyEnv] : undefined)
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) return undefined
  return { appFid: f.appFid, custodyKey: key as Hex, deadlineS: f.deadlineS ?? DEFAULT_SIGNER_DEADLINE_S }
}

/** The app FID's custody key signs the request for `key` (viem's EIP-712 signing). */
export function signKeyRequest(cfg: SignerConfig, key: Hex, deadline: number): Promise<Hex> {
  return privateKeyToAccount(cfg.custodyKey).signTypedData({
    domain: SIGNED_KEY_REQUEST_DOMAIN,
    types: SIGNED_KEY_REQUEST_TYPES,
    primaryType: 'SignedKeyRequest',
    message: { requestFid: BigInt(cfg.appFid), key, deadline: BigInt(deadline) },
  })
}

export interface SignedKeyRequest {
  token: string
  deeplinkUrl: string
  key: string
  state: 'pending' | 'approved' | 'completed' | 'revoked' | 'expired' | string
  userFid?: number
}

async function call(base: string, path: string, init: RequestInit): Promise<SignedKeyRequest> {
  let res: Response
  try {
    res = await fetch(new URL(path, base), { ...init, signal: AbortSignal.timeout(10_000) })
  } catch {
    throw signerErrors.unavailable('the Farcaster client API does not answer.')
  }
  const body = (await res.json().catch(() => null)) as { result?: { signedKeyRequest?: SignedKeyRequest }; errors?: { message?: string }[] } | null
  const skr = body?.result?.signedKeyRequest
  if (!res.ok || !skr || typeof skr.token !== 'string' || typeof skr.state !== 'string') {
    const why = body?.errors?.[0]?.message
    throw signerErrors.unavailable(`the Farcaster client API refused the request (${res.status}${why ? `: ${why}` : ''}).`)
  }
  return skr
}

export function createSignedKeyRequest(base: string, b: { key: Hex; requestFid: number; signature: Hex; deadline: number }): Promise<SignedKeyRequest> {
  return call(base, '/v2/signed-key-requests', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })
}

export function getSignedKeyRequest(base: string, token: string): Promise<SignedKeyRequest> {
  return call(base, `/v2/signed-key-request?${new URLSearchParams({ token })}`, { method: 'GET' })
}
