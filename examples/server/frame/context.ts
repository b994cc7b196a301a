/**
 * What every frame handler gets: the app's settings (from the page), the server API (from
 * this origin, with the user's access token), the session's unlocked roots, and the
 * failure type that becomes `{ error: { type, message } }`.
 */
import type { FrameErrorType } from '../src/wire/frame'
import { CUSTODY_CODES, CUSTODY_TEXTS, DEVICE_NONCE_HEADER, DEVICE_PROOF_HEADER } from '../src/wire/custody'
import { deviceKey, proof } from './device-key'
import type { FrameStore } from './storage'

export interface FrameConfig {
  appId: string
  /** The reference server's origin (the API is under /api/v1). */
  apiUrl: string
  /** Origins allowed to talk to this frame (the app's allowed origins, custom schemes included). */
  allowedOrigins: string[]
  clientId?: string | null
  caid?: string | null
  /** The app signs raw hashes (secp256k1_sign): off unless its settings say embeddedWallets.allowRawSign. */
  allowRawSign?: boolean
}

export interface CallOptions {
  /** Fields signed over this call's nonce (and this device's id), merged into the body. */
  sign?: (nonce: string, deviceId: string) => Promise<Record<string, unknown>>
}

/** A failure the host sees as `{ type, message }`. */
export class FrameFailure extends Error {
  constructor(
    readonly type: FrameErrorType,
    message: string,
    /** The server's error code, when the server refused. */
    readonly code?: string,
  ) {
    super(message)
  }
}

export interface FrameContext {
  config: FrameConfig
  /** The host origin that sent the request. */
  origin: string
  /**
   * POST to the reference server's /api/v1 with the user's access token and a device proof.
   * `sign` adds fields made for the proof's nonce (an owner signature, a recovery proof).
   */
  api<T = any>(path: string, body: unknown, accessToken: string, opts?: CallOptions): Promise<T>
}

/** The spec's wallet texts the frame itself produces. */
export const FRAME_TEXTS = {
  alreadyHasWallet: 'User already has an embedded wallet.',
  negativeIndex: 'A negative walletIndex is invalid.',
  recoveryNotSupported: 'Recovery method not supported',
  unableToRecover: 'Unable to recover wallet',
  notOnDevice: 'Wallet is not on this device: it needs recovery.',
  notFound: 'Embedded wallet not found',
  mismatch: 'The wallet shares do not rebuild this wallet.',
  mustBeAuthenticated: 'User must be authenticated before creating a Privy wallet',
  missingToken: 'An error has occured, please login again.',
  unknownType: 'Unknown request type',
  badArguments: 'Invalid request arguments',
  // wallets:import (the spec names no import texts: ours)
  invalidEthereumKey: 'Invalid private key: expected 32 bytes of hex (0x…)',
  invalidSolanaKey: 'Invalid private key: expected a base58 Solana secret key (64 bytes)',
  // secp256k1_sign (ours): a raw hash may be a transaction or a message nobody can read.
  rawSignOff: 'This app does not allow signing raw hashes: a raw hash can be a transaction or message you cannot check.',
} as const

export interface ApiOptions {
  /** The store holding the device key (default: the frame's store). */
  store?: FrameStore
}

const CUSTODY_FAILURES: Partial<Record<string, [FrameErrorType, string]>> = {
  [CUSTODY_CODES.stepUpRequired]: ['device_step_up_required', CUSTODY_TEXTS.stepUpRequired],
  [CUSTODY_CODES.stepUpUnavailable]: ['step_up_unavailable', CUSTODY_TEXTS.stepUpUnavailable],
  [CUSTODY_CODES.deviceRevoked]: ['device_revoked', CUSTODY_TEXTS.deviceRevoked],
}

/** The user's headers for an API call: JSON, the app id, the access token. */
const userHeaders = (config: FrameConfig, accessToken: string): Record<string, string> => ({ 'content-type': 'application/json', 'privy-app-id': config.appId, authorization: `Bearer ${accessToken}` })

/** POST to /api/v1`path`; an unreachable API is the spec's 'Failed to connect to wallet proxy'. */
async function send(config: FrameConfig, path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  try {
    return await fetch(`${config.apiUrl}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body ?? {}), credentials: 'omit' })
  } catch {
    throw new FrameFailure('error', 'Failed to connect to wallet proxy')
  }
}

/**
 * The frame's API client: every call carries a device proof (device-key.ts) over the method,
 * the path, the access token's hash, the root and the last server nonce this frame saw (every
 * wallet answer brings the next one in `portico-device-nonce`; with none yet, it asks
 * /wallets/device_nonce). A used or expired nonce (401 device_proof_nonce) is retried once
 * with the fresh nonce of that answer.
 */
export function createApi(config: FrameConfig, opts: ApiOptions = {}): FrameContext['api'] {
  let nonce: { value: string; accessToken: string } | null = null
  const headers = (accessToken: string) => userHeaders(config, accessToken)
  const post = (path: string, body: unknown, h: Record<string, string>) => send(config, path, body, h)
  // Nonces are issued per session: one kept for the token it came with (a new login asks afresh).
  const keep = (res: Response, accessToken: string) => {
    const n = res.headers.get(DEVICE_NONCE_HEADER)
    if (n) nonce = { value: n, accessToken }
  }
  const fresh = async (accessToken: string) => {
    const res = await post('/wallets/device_nonce', {}, headers(accessToken))
    keep(res, accessToken)
    if (!res.ok) return fail(res, await res.json().catch(() => ({})))
    const json = (await res.json().catch(() => ({}))) as { nonce?: string }
    if (json.nonce) nonce = { value: json.nonce, accessToken }
  }
  return async (path, body, accessToken, call = {}) => {
    if (!accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
    const key = await deviceKey(config.appId, opts.store)
    const eid = body && typeof body === 'object' && typeof (body as { entropy_id?: unknown }).entropy_id === 'string' ? (body as { entropy_id: string }).entropy_id : null
    for (let attempt = 0; ; attempt++) {
      if (nonce?.accessToken !== accessToken) await fresh(accessToken)
      const used = nonce?.value ?? ''
      nonce = null
      const signed = await proof(key, { htm: 'POST', htu: path, accessToken, entropyId: eid, nonce: used })
      const sent = call.sign ? { ...(body as object), ...(await call.sign(used, key.id)) } : body
      const res = await post(path, sent, { ...headers(accessToken), [DEVICE_PROOF_HEADER]: signed })
      keep(res, accessToken)
      const json = (await res.json().catch(() => ({}))) as { code?: string; error?: string }
      if (res.ok) return json as never
      if (res.status === 401 && json.code === CUSTODY_CODES.nonce && attempt === 0) continue
      return fail(res, json)
    }
  }
}

/**
 * POST to an API route that takes no device proof (the user's MFA routes): the user's access
 * token only, failures mapped as the wallet calls' are.
 */
export async function postPlain<T = any>(config: FrameConfig, path: string, body: unknown, accessToken: string): Promise<T> {
  if (!accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
  const res = await send(config, path, body, userHeaders(config, accessToken))
  const json = (await res.json().catch(() => ({}))) as { code?: string; error?: string }
  if (res.ok) return json as T
  return fail(res, json)
}

function fail(res: Response, json: { code?: string; error?: string }): never {
  const custody = json.code ? CUSTODY_FAILURES[json.code] : undefined
  if (custody) throw new FrameFailure(custody[0], custody[1], json.code)
  const type: FrameErrorType =
    json.code === 'missing_or_invalid_mfa'
      ? 'missing_or_invalid_mfa'
      : json.code === 'mfa_verification_max_attempts_reached'
        ? 'mfa_verification_max_attempts_reached'
        : res.status === 400 || res.status === 422
          ? 'invalid_request_arguments'
          : 'error'
  const msg = res.status === 429 ? `${json.error ?? 'Too many requests'} (code 429)` : (json.error ?? `Request failed (${res.status})`)
  throw new FrameFailure(type, msg, json.code)
}
