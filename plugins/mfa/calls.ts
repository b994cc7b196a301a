/**
 * The MFA verification and removal calls (spec part 2 section 7 'MFA', paths per
 * ARCHITECTURE 'Where the spec names no path'): `/mfa/{totp,passwordless_sms,passkeys}/...`.
 * Enrolment calls live in the method plugins (mfa-totp, mfa-sms, mfa-passkey).
 */
import type { Api, WireAuthResponse, WireUser } from 'portico'
import type { MfaType } from 'portico/kits/mfa'

/** The path segment of a method. */
export const MFA_PATHS: Record<MfaType, string> = { totp: 'totp', sms: 'passwordless_sms', passkey: 'passkeys' }

/** WebAuthn request options as JSON (for @simplewebauthn/browser) and their relying party. */
export interface MfaPasskeyInit {
  relying_party: string
  options: Record<string, unknown> & { challenge: string }
}

/** POST /mfa/passwordless_sms/init {action: 'verify'}: texts a code to the enrolled number. */
export const initSmsVerification = (api: Api) => api.post<{ success: boolean }>('/mfa/passwordless_sms/init', { action: 'verify' })

/** POST /mfa/passkeys/init {}: request options for the enrolled passkeys. */
export const initPasskeyVerification = (api: Api) => api.post<MfaPasskeyInit>('/mfa/passkeys/init', {})

/** POST /mfa/totp/verify {code} or /mfa/passwordless_sms/verify {code}. */
export const verifyMfaCode = (api: Api, type: 'totp' | 'sms', code: string) => api.post<{ success: boolean }>(`/mfa/${MFA_PATHS[type]}/verify`, { code })

/** POST /mfa/passkeys/verify {relying_party, challenge, authenticator_response}. */
export const verifyMfaPasskey = (api: Api, body: { relying_party: string; challenge: string; authenticator_response: unknown }) =>
  api.post<{ success: boolean }>('/mfa/passkeys/verify', body)

/** POST /mfa/{method}/unenroll {}: answers the updated user. */
export const unenrollMfa = (api: Api, type: MfaType) => api.post<WireAuthResponse | { user: WireUser }>(`/mfa/${MFA_PATHS[type]}/unenroll`, {})
