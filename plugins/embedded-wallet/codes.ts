/**
 * The embedded wallet's id and error codes, and the one error constructor the entry needs
 * synchronously. The error views and the frame-error mapping (with their texts) are in
 * ./errors.ts, which loads lazily.
 */
import { PorticoError } from 'portico'

export const EMBEDDED_WALLET = 'embedded-wallet'

/** The screen that explains a wallet kept for this tab only (the frame's storage is blocked on this site). */
export const STORAGE_NOTICE_SCREEN = 'embedded-wallet-storage'

/** This device has no share of the wallet: recovery is needed. */
export const NEEDS_RECOVERY = 'wallet_not_on_device'

/** A new device (or a session bound to another one): the user confirms it's them first (issue 26). */
export const DEVICE_STEP_UP_REQUIRED = 'DEVICE_STEP_UP_REQUIRED'
/** The user has no channel for that confirmation (no verified e-mail or phone, no MFA). */
export const STEP_UP_UNAVAILABLE = 'STEP_UP_UNAVAILABLE'
/** The user removed this device from their wallet. */
export const DEVICE_REVOKED = 'DEVICE_REVOKED'

export const walletError = (code: string, message: string, extra: { cause?: unknown; data?: Record<string, unknown> } = {}) =>
  new PorticoError(code, message, { kind: 'client_error', cause: extra.cause, data: { provider: EMBEDDED_WALLET, ...extra.data } })
