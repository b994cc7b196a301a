/** The e-mail plugin's API calls (part 1 section 7, "Passwordless e-mail"), one small function each. */
import type { Api, WireAuthResponse, WireUser } from 'portico'

export type LoginMode = 'login-or-sign-up' | 'no-signup'

/** POST /passwordless/init {email, token}: sends a code. `token` is the captcha token, when any. */
export function initEmail(api: Api, email: string, token?: string | null) {
  return api.post<{ success: true }>('/passwordless/init', token ? { email, token } : { email })
}

/** POST /passwordless/authenticate {email, code, mode} */
export function authenticateEmail(api: Api, input: { email: string; code: string; mode: LoginMode }) {
  return api.post<WireAuthResponse>('/passwordless/authenticate', { email: input.email, code: input.code.trim(), mode: input.mode })
}

/** POST /passwordless/link {email, code} */
export function linkEmail(api: Api, input: { email: string; code: string }) {
  return api.post<WireAuthResponse | { user: WireUser }>('/passwordless/link', { email: input.email, code: input.code.trim() })
}

/** POST /passwordless/update {oldAddress, newAddress, code}: the code was sent to the new address. */
export function updateEmail(api: Api, input: { oldAddress: string; newAddress: string; code: string }) {
  return api.post<WireAuthResponse | { user: WireUser }>('/passwordless/update', {
    oldAddress: input.oldAddress,
    newAddress: input.newAddress,
    code: input.code.trim(),
  })
}

/** POST /passwordless/unlink {address} */
export function unlinkEmail(api: Api, address: string) {
  return api.post<{ user: WireUser }>('/passwordless/unlink', { address })
}

/** POST /passwordless/transfer {nonce, email}: move the address from another account to this one. */
export function transferEmail(api: Api, input: { nonce: string; email: string }) {
  return api.post<WireAuthResponse | { user: WireUser }>('/passwordless/transfer', { nonce: input.nonce, email: input.email })
}
