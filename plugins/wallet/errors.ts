/**
 * Wallet error mapping (spec part 1 sections 4 and 8), shared by `siwe` and `siws`.
 *
 * Anything a wallet or the server throws during a wallet login becomes a `PorticoError`
 * with a stable code, a kind and a `retryable` flag; `walletErrorView` turns it into the
 * headline and hint of the awaiting-connection screen.
 */
import { PorticoError, isPorticoError, type ErrorView } from 'portico'
import { WALLET_STRINGS as S } from './strings'

/** Max wallet connection retries (spec part 1 section 9). */
export const MAX_WALLET_RETRIES = 2
/** Wallet request time-out (spec part 1 section 9). */
export const WALLET_REQUEST_TIMEOUT_MS = 120_000
/** Wallet provider detection time-out (spec part 1 section 9). */
export const PROVIDER_DETECTION_TIMEOUT_MS = 3_000

/** Codes this plugin raises on its own (the server's codes pass through unchanged). */
export const WALLET_CONNECT_CODES = {
  rejected: 'wallet_user_rejected',
  timeout: 'wallet_request_timeout',
  noAddress: 'wallet_no_address',
  unsupported: 'wallet_unsupported',
  failed: 'wallet_connection_failed',
} as const

/**
 * The standard wallet error codes (EIP-1193 provider errors and JSON-RPC errors) and whether
 * trying again may work. The spec lists the codes but not the flags; these follow what the
 * code means: a user's "no" or a busy / disconnected wallet may change, a malformed or
 * unsupported request will not.
 */
export const STANDARD_WALLET_ERRORS: Record<number, { name: string; retryable: boolean }> = {
  4001: { name: 'User rejected the request', retryable: true },
  4100: { name: 'Unauthorized', retryable: true },
  4200: { name: 'Unsupported method', retryable: false },
  4900: { name: 'Disconnected', retryable: true },
  4901: { name: 'Chain disconnected', retryable: true },
  [-32700]: { name: 'Parse error', retryable: false },
  [-32600]: { name: 'Invalid request', retryable: false },
  [-32601]: { name: 'Method not found', retryable: false },
  [-32602]: { name: 'Invalid params', retryable: false },
  [-32603]: { name: 'Internal error', retryable: true },
  [-32000]: { name: 'Invalid input', retryable: false },
  [-32001]: { name: 'Resource not found', retryable: true },
  [-32002]: { name: 'Resource unavailable', retryable: true },
  [-32003]: { name: 'Transaction rejected', retryable: true },
  [-32004]: { name: 'Method not supported', retryable: false },
  [-32005]: { name: 'Limit exceeded', retryable: true },
  [-32006]: { name: 'JSON-RPC version not supported', retryable: false },
}

/** Provider errors the product itself raises (spec part 1 section 8). */
export function providerError(code: 4200 | 4900, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code })
}

/** Where the error happened: asking for the account, or asking for the signature. */
export type WalletPhase = 'connect' | 'sign'

/** Find a numeric wallet error code in an error or its causes (viem wraps them). */
export function walletErrorCode(e: unknown): number | undefined {
  let cur: any = e
  for (let depth = 0; cur && depth < 8; depth++) {
    if (typeof cur.code === 'number') return cur.code
    cur = cur.cause
  }
  return undefined
}

function isRejection(e: unknown): boolean {
  if (walletErrorCode(e) === 4001) return true
  let cur: any = e
  for (let depth = 0; cur && depth < 8; depth++) {
    if (cur.name === 'UserRejectedRequestError') return true
    cur = cur.cause
  }
  return false
}

/**
 * Normalise anything thrown during a wallet login. Server errors (api_error) keep their code;
 * the retry flag is set per spec: a user rejection, a time-out and an unknown failure may be
 * retried, a conflict (linked to another user, cannot link more) may not.
 */
export function toWalletError(e: unknown, phase: WalletPhase): PorticoError {
  if (isPorticoError(e)) {
    if (e.kind === 'api_error') {
      const fixed = ['linked_to_another_user', 'cannot_link_more_of_type', 'account_transfer_required']
      if (fixed.includes(String(e.code))) {
        return new PorticoError(e.code, e.message, { kind: 'api_error', status: e.status, data: e.data, cause: e, retryable: false })
      }
      if (e.retryable) return e
      return new PorticoError(e.code, e.message, { kind: 'api_error', status: e.status, data: e.data, cause: e, retryable: true })
    }
    return e
  }
  if (isRejection(e)) {
    return new PorticoError(WALLET_CONNECT_CODES.rejected, phase === 'sign' ? S.signatureRejected : S.rejected, {
      kind: 'wallet_error',
      cause: e,
      retryable: true,
    })
  }
  const code = walletErrorCode(e)
  const known = code === undefined ? undefined : STANDARD_WALLET_ERRORS[code]
  const message = (e as Error)?.message || S.unknownConnectionError
  return new PorticoError(WALLET_CONNECT_CODES.failed, message, {
    kind: known ? 'provider_error' : 'connector_error',
    cause: e,
    retryable: known ? known.retryable : true,
    data: code === undefined ? undefined : { walletCode: code },
  })
}

/** Run a wallet request with the wallet request time-out (120 s by default). */
export function withWalletTimeout<T>(promise: Promise<T>, ms: number = WALLET_REQUEST_TIMEOUT_MS, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new PorticoError(WALLET_CONNECT_CODES.timeout, S.timedOut, { kind: 'wallet_error', retryable: true })),
      ms,
    )
    const onAbort = () => {
      clearTimeout(timer)
      reject(new PorticoError('request_aborted', 'The wallet request was aborted.'))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (err) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        reject(err)
      },
    )
  })
}

/** Headline and hint of the awaiting-connection screen for an error. */
export interface WalletErrorText {
  title: string
  hint: string
}

/**
 * The texts for an error on the awaiting-connection screen (spec part 1 section 8, wallet
 * connection messages). `retriesUsed` >= 2 turns the hint into 'Unable to connect wallet'.
 */
export function walletErrorText(error: PorticoError, phase: WalletPhase, retriesUsed = 0): WalletErrorText {
  const base = ((): WalletErrorText => {
    switch (error.code) {
      case WALLET_CONNECT_CODES.rejected:
        return { title: S.rejected, hint: phase === 'sign' ? S.signatureRejected : S.unableToConnectTo }
      case WALLET_CONNECT_CODES.timeout:
      case 'client_request_timeout':
        return { title: S.timedOut, hint: S.checkOtherWindows }
      case WALLET_CONNECT_CODES.noAddress:
        return { title: S.couldNotLogIn, hint: S.unableToRetrieveAddress }
      case WALLET_CONNECT_CODES.unsupported:
        return { title: S.couldNotLogIn, hint: S.unsupportedWallet }
      case 'linked_to_another_user':
        return { title: S.couldNotLogIn, hint: S.userExists }
      case 'cannot_link_more_of_type':
        return { title: S.couldNotLogIn, hint: S.cannotLinkMore }
      default:
        return { title: S.couldNotLogIn, hint: S.unknownConnectionError }
    }
  })()
  if (retriesUsed >= MAX_WALLET_RETRIES) return { title: base.title, hint: S.unableToConnect }
  return base
}

/** Retry is offered while the error is retryable and fewer than 2 retries were used. */
export function canRetry(error: PorticoError, retriesUsed: number): boolean {
  return error.retryable && retriesUsed < MAX_WALLET_RETRIES
}

/**
 * Errors that leave the awaiting-connection screen for a dedicated screen of the kernel or
 * the UI (allowlist, user limit, account transfer, disallowed method, account not found).
 */
export const SCREEN_ERRORS = new Set([
  'allowlist_rejected',
  'max_accounts_reached',
  'account_transfer_required',
  'disallowed_login_method',
  'user_does_not_exist',
  'too_many_requests',
])

/** The `errorView` tap: wallet errors that reach the generic error screen. */
export function walletErrorView(error: PorticoError): ErrorView | undefined {
  const ours = Object.values(WALLET_CONNECT_CODES) as string[]
  if (ours.includes(String(error.code))) {
    const t = walletErrorText(error, 'connect')
    return { title: t.title, detail: t.hint, cta: S.retry, action: 'back' }
  }
  return undefined
}
