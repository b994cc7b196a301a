/**
 * Wallet errors (spec part 1 sections 4 and 8), declared once for every wallet plugin.
 *
 * Anything a wallet or the server throws during a wallet login becomes a `PorticoError`
 * with a stable code, a kind and a `retryable` flag; `walletErrorText` turns it into the
 * headline and hint of the awaiting-connection screen, `walletErrors()` (declared by the
 * wallet base) into the error screen's view.
 */
import { PorticoError, defineErrors, isPorticoError, type ErrorContext } from 'portico'
import { WALLET_CONNECT_CODES, WALLET_CONNECT_SCREEN, MAX_WALLET_RETRIES, WALLET_REQUEST_TIMEOUT_MS } from './base'

export { WALLET_CONNECT_CODES } from './codes'
import { WALLET_TEXTS, type WalletTexts } from './strings'


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

/** Where the error happened: asking for the account, or asking for the signature. */
export type WalletPhase = 'connect' | 'sign'

/** Find a numeric wallet error code in an error or its causes (viem wraps them). */
export function walletErrorCode(e: unknown): number | undefined {
  for (const cur of PorticoError.walk(e)) {
    const code = (cur as { code?: unknown }).code
    if (typeof code === 'number') return code
  }
  return undefined
}

function isRejection(e: unknown): boolean {
  if (walletErrorCode(e) === 4001) return true
  for (const cur of PorticoError.walk(e)) if ((cur as { name?: unknown }).name === 'UserRejectedRequestError') return true
  return false
}

/**
 * Normalise anything thrown during a wallet login. Server errors (api_error) keep their code;
 * the retry flag is set per spec: a user rejection, a time-out and an unknown failure may be
 * retried, a conflict (linked to another user, cannot link more) may not.
 */
export function toWalletError(e: unknown, phase: WalletPhase, S: WalletTexts = WALLET_TEXTS): PorticoError {
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
  const S = WALLET_TEXTS
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
export function walletErrorText(error: PorticoError, phase: WalletPhase, retriesUsed = 0, S: WalletTexts = WALLET_TEXTS): WalletErrorText {
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

const OWN_CODES = Object.values(WALLET_CONNECT_CODES) as string[]

/** Whether the awaiting-connection screen shows this error itself (headline, hint, Retry). */
export function isWalletConnectError(error: PorticoError): boolean {
  return OWN_CODES.includes(String(error.code))
}

/**
 * The wallet base's error codes and the views they show on the generic error screen (where
 * they land when raised outside the awaiting-connection screen, e.g. by headless code), and
 * the server conflicts the awaiting-connection screen shows itself (spec part 1 section 4:
 * linked to another user gives user-exists, cannot link more gives user-limit-reached).
 * Views without `screen` stay on the screen they happened on (`hasOwnScreen` is false).
 * `texts` reads the app's overrides at the time the error shows.
 */
export function walletErrors(texts: () => WalletTexts = () => WALLET_TEXTS) {
  const view = (error: PorticoError) => {
    const S = texts()
    const t = walletErrorText(error, 'connect', 0, S)
    return { title: t.title, detail: t.hint, cta: S.retry, action: 'back' as const }
  }
  const onConnectScreen = (error: PorticoError, context: ErrorContext) => (context.screen === WALLET_CONNECT_SCREEN ? view(error) : undefined)
  return defineErrors({
    ...Object.fromEntries(OWN_CODES.map((code) => [code, view])),
    linked_to_another_user: onConnectScreen,
    cannot_link_more_of_type: onConnectScreen,
  })
}
