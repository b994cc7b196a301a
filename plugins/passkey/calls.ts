/**
 * The passkey plugin's API calls (part 1 section 7, "Other login kinds"): payload keys
 * `relying_party`, `authenticator_response`, `challenge`; the init calls answer
 * `{ relying_party, options }` (WebAuthn options JSON for @simplewebauthn/browser).
 */
import type { Api, WireAuthResponse, WireUser } from 'portico'

/** WebAuthn options as JSON (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON). */
export type PasskeyOptionsJSON = Record<string, unknown> & { challenge: string }
export interface PasskeyInit {
  relying_party: string
  options: PasskeyOptionsJSON
}
export interface PasskeyResponseBody {
  relying_party: string
  challenge: string
  authenticator_response: unknown
}

/** POST /passkeys/register/init {relying_party, token}: creation options for a new account. */
export const initRegisterPasskey = (api: Api, relyingParty: string, token?: string | null) =>
  api.post<PasskeyInit>('/passkeys/register/init', token ? { relying_party: relyingParty, token } : { relying_party: relyingParty })

/** POST /passkeys/register {relying_party, challenge, authenticator_response}: signs up. */
export const registerPasskey = (api: Api, body: PasskeyResponseBody) => api.post<WireAuthResponse>('/passkeys/register', body)

/** POST /passkeys/authenticate/init {relying_party, token}: request options (any passkey of this site). */
export const initAuthenticatePasskey = (api: Api, relyingParty: string, token?: string | null) =>
  api.post<PasskeyInit>('/passkeys/authenticate/init', token ? { relying_party: relyingParty, token } : { relying_party: relyingParty })

/** POST /passkeys/authenticate {relying_party, challenge, authenticator_response}: logs in. */
export const authenticatePasskey = (api: Api, body: PasskeyResponseBody) => api.post<WireAuthResponse>('/passkeys/authenticate', body)

/** POST /passkeys/link/init {relying_party}: creation options excluding the user's passkeys. */
export const initLinkPasskey = (api: Api, relyingParty: string) => api.post<PasskeyInit>('/passkeys/link/init', { relying_party: relyingParty })

/** POST /passkeys/link {relying_party, challenge, authenticator_response}: adds a passkey. */
export const linkPasskey = (api: Api, body: PasskeyResponseBody) => api.post<WireAuthResponse | { user: WireUser }>('/passkeys/link', body)

/** POST /passkeys/unlink {credential_id} */
export const unlinkPasskey = (api: Api, credentialId: string) => api.post<{ user: WireUser }>('/passkeys/unlink', { credential_id: credentialId })
