/**
 * The passkey method's calls: link a passkey (/passkeys/link/init, /passkeys/link — the
 * passkey login's link calls) and enrol credentials (/mfa/passkeys/enroll {credential_ids}).
 */
import type { Api, WireUser } from 'portico'

export interface PasskeyLinkInit {
  relying_party: string
  options: Record<string, unknown> & { challenge: string }
}

export const initLinkPasskey = (api: Api, relyingParty: string) => api.post<PasskeyLinkInit>('/passkeys/link/init', { relying_party: relyingParty })

export const linkPasskey = (api: Api, body: { relying_party: string; challenge: string; authenticator_response: unknown }) =>
  api.post<{ user: WireUser }>('/passkeys/link', body)

export const submitPasskeyEnrollment = (api: Api, credentialIds: string[]) =>
  api.post<{ user: WireUser }>('/mfa/passkeys/enroll', { credential_ids: credentialIds })
