/**
 * What every frame handler gets: the app's settings (from the page), the server API (from
 * this origin, with the user's access token), the session's unlocked roots, and the
 * failure type that becomes `{ error: { type, message } }`.
 */
import type { FrameErrorType } from '../../../plugins/embedded-wallet/protocol'

export interface FrameConfig {
  appId: string
  /** The reference server's origin (the API is under /api/v1). */
  apiUrl: string
  /** Origins allowed to talk to this frame (the app's allowed origins, custom schemes included). */
  allowedOrigins: string[]
  clientId?: string | null
  caid?: string | null
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
  /** POST to the reference server's /api/v1 with the user's access token. */
  api<T = any>(path: string, body: unknown, accessToken: string): Promise<T>
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
} as const

export function createApi(config: FrameConfig): FrameContext['api'] {
  return async (path, body, accessToken) => {
    if (!accessToken) throw new FrameFailure('invalid_request_arguments', FRAME_TEXTS.missingToken)
    let res: Response
    try {
      res = await fetch(`${config.apiUrl}/api/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'privy-app-id': config.appId, authorization: `Bearer ${accessToken}` },
        body: JSON.stringify(body ?? {}),
        credentials: 'omit',
      })
    } catch {
      throw new FrameFailure('error', 'Failed to connect to wallet proxy')
    }
    const json = (await res.json().catch(() => ({}))) as { code?: string; error?: string }
    if (!res.ok) {
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
    return json as never
  }
}
