/**
 * What the MFA plugin and its method plugins (mfa-totp, mfa-sms, mfa-passkey) share: the
 * method types, the plugin's screen ids a method opens, the API a method plugin hands out,
 * and the MFA error codes (spec part 2 sections 3 and 8).
 */
import { PorticoError, type WireUser } from 'portico'

export type MfaType = 'totp' | 'sms' | 'passkey'

/** The MFA plugin's screens ('mfa-success' is where a method's enrolment ends). */
export const MFA_SCREENS = {
  intro: 'mfa-intro',
  methods: 'mfa-methods',
  verify: 'mfa-verify',
  remove: 'mfa-remove',
  success: 'mfa-success',
} as const

/** The enrolment screen a method plugin registers (`mfa-totp`, `mfa-sms`, `mfa-passkey`): its plugin id. */
export const methodPluginId = (type: MfaType) => `mfa-${type}`

/** The API a method plugin hands out (`kernel.plugin('mfa-totp')` ...), used for headless enrolment. */
export interface MfaMethodPluginApi {
  type: MfaType
  /** Start enrolment (TOTP: the secret and otpauth URL; SMS: texts a code to `phoneNumber`; passkey: links one). */
  initEnrollment(options?: Record<string, unknown>): Promise<unknown>
  /** Finish enrolment (TOTP/SMS: `{ code }`, SMS also `{ phoneNumber }`; passkey: `{ credentialIds }`): the server's updated user. */
  submitEnrollment(options: never): Promise<{ user: WireUser }>
}

/**
 * The MFA error codes: the wallet-service's `missing_or_invalid_mfa`,
 * `mfa_verification_max_attempts_reached`, `mfa_timeout`, and ours for a cancel
 * (`mfa_canceled`) and an unknown method (`unsupported_mfa_method`).
 */
export const MFA_ERRORS = {
  invalid: 'missing_or_invalid_mfa',
  maxAttempts: 'mfa_verification_max_attempts_reached',
  timeout: 'mfa_timeout',
  canceled: 'mfa_canceled',
  unsupported: 'unsupported_mfa_method',
} as const

/** An MFA error (a client error of provider 'mfa'). */
export const mfaError = (code: string, message: string, cause?: unknown) =>
  new PorticoError(code, message, { kind: 'client_error', cause, data: { provider: 'mfa' } })
