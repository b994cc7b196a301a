/**
 * The embedded wallet's errors: the frame's wallet-service error types become PorticoErrors
 * (`data.frameErrorType` keeps the type), with the spec's wallet codes where one fits.
 */
import { defineErrors, type ErrorDeclarations, type PorticoError } from 'portico'
import { DEVICE_REVOKED, DEVICE_STEP_UP_REQUIRED, NEEDS_RECOVERY, STEP_UP_UNAVAILABLE, walletError } from './codes'
import type { FrameError } from './protocol'
import { EMBEDDED_WALLET_TEXTS, type EmbeddedWalletTexts } from './strings'

export { EMBEDDED_WALLET, NEEDS_RECOVERY, walletError } from './codes'

/** The frame cannot use its storage on this site (and has nothing of this page's in memory). */
export const STORAGE_UNAVAILABLE = 'EMBEDDED_WALLET_STORAGE_UNAVAILABLE'
/** The custody failures (issue 26) keep their own codes: the host steps up, or shows the frame's text. */
const CUSTODY: Partial<Record<FrameError['type'], string>> = {
  device_step_up_required: DEVICE_STEP_UP_REQUIRED,
  step_up_unavailable: STEP_UP_UNAVAILABLE,
  device_revoked: DEVICE_REVOKED,
}

/** A frame reply's `{ type, message }` as a PorticoError. */
export function fromFrameError(e: FrameError): PorticoError {
  const code =
    e.type === 'wallet_not_on_device'
      ? NEEDS_RECOVERY
      : e.type in CUSTODY
        ? CUSTODY[e.type]!
        : e.type === 'missing_or_invalid_mfa'
        ? 'MISSING_MFA_CREDENTIALS'
        : e.type === 'insufficient_funds'
          ? 'INSUFFICIENT_BALANCE'
          : e.message === EMBEDDED_WALLET_TEXTS.alreadyExists
            ? 'EMBEDDED_WALLET_ALREADY_EXISTS'
            : e.message === EMBEDDED_WALLET_TEXTS.notFound
              ? 'EMBEDDED_WALLET_NOT_FOUND'
              : e.type === 'invalid_request_arguments'
                ? 'invalid_data'
                : e.type === 'storage_unavailable'
                  ? STORAGE_UNAVAILABLE
                  : 'UNKNOWN_EMBEDDED_WALLET_ERROR'
  // The browser's own storage text never reaches the page: the frame's storage failures read ours.
  const message = e.type === 'storage_unavailable' ? EMBEDDED_WALLET_TEXTS.storageUnavailable : e.message
  return walletError(code, message, { data: { frameErrorType: e.type } })
}

/** Error views: shown on the wallet screens and the error screen. */
export function embeddedWalletErrors(T: () => EmbeddedWalletTexts): ErrorDeclarations {
  const view = (detail: string) => ({ title: T().failedTitle, detail, cta: T().close, action: 'close' as const })
  return defineErrors({
    EMBEDDED_WALLET_ALREADY_EXISTS: () => view(T().alreadyExists),
    EMBEDDED_WALLET_NOT_FOUND: () => view(T().notFound),
    EMBEDDED_WALLET_CREATE_ERROR: (err) => view(err.message || T().tryAgain),
    UNKNOWN_EMBEDDED_WALLET_ERROR: (err) => view(err.message || T().tryAgain),
    [NEEDS_RECOVERY]: () => view(T().unableToRecover),
    [STORAGE_UNAVAILABLE]: () => view(T().storageUnavailable),
    [STEP_UP_UNAVAILABLE]: (err) => view(err.message || T().stepUpUnavailable),
    [DEVICE_REVOKED]: (err) => view(err.message || T().deviceRevoked),
    [DEVICE_STEP_UP_REQUIRED]: (err) => view(err.message || T().stepUpRequired),
  })
}
