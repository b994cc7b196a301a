/**
 * The SMS plugin's API calls (part 1 section 7, "Passwordless SMS"), one small function each.
 * Field names are the spec's: camelCase except the update call's snake_case pair.
 */
import type { Api, WireAuthResponse, WireInitResponse } from 'portico'

export type SignupMode = 'login-or-sign-up' | 'no-signup'

const BASE = '/passwordless_sms'

/** POST /passwordless_sms/init {phoneNumber, token}: send a code. `token` is the captcha token. */
export const initSms = (api: Api, phoneNumber: string, token?: string) =>
  api.post<WireInitResponse>(`${BASE}/init`, token === undefined ? { phoneNumber } : { phoneNumber, token }, { fromUi: true })

/** POST /passwordless_sms/authenticate {phoneNumber, code, mode}: log in or sign up. */
export const authenticateSms = (api: Api, phoneNumber: string, code: string, mode: SignupMode = 'login-or-sign-up') =>
  api.post<WireAuthResponse>(`${BASE}/authenticate`, { phoneNumber, code, mode }, { fromUi: true })

/** POST /passwordless_sms/link {phoneNumber, code}: link to the logged-in user. */
export const linkSms = (api: Api, phoneNumber: string, code: string) =>
  api.post<WireAuthResponse>(`${BASE}/link`, { phoneNumber, code }, { fromUi: true })

/** POST /passwordless_sms/update {old_phone_number, new_phone_number, code}; the code went to the new number. */
export const updateSms = (api: Api, oldPhoneNumber: string, newPhoneNumber: string, code: string) =>
  api.post<WireAuthResponse>(
    `${BASE}/update`,
    { old_phone_number: oldPhoneNumber, new_phone_number: newPhoneNumber, code },
    { fromUi: true },
  )

/** POST /passwordless_sms/unlink {phoneNumber}. */
export const unlinkSms = (api: Api, phoneNumber: string) =>
  api.post<WireAuthResponse>(`${BASE}/unlink`, { phoneNumber }, { fromUi: true })

/** POST /passwordless_sms/transfer {nonce, phoneNumber}: move the number from its other account here. */
export const transferSms = (api: Api, nonce: string, phoneNumber: string) =>
  api.post<WireAuthResponse>(`${BASE}/transfer`, { nonce, phoneNumber }, { fromUi: true })
