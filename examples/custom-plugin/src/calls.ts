/**
 * The plugin's two calls: one to Acme ID (exchange the code for an id_token, with the PKCE
 * verifier), one to the Portico API (log in with that token as a custom JWT account; the
 * server verifies it against Acme ID's JWKS, so the app needs `customAuth.jwksUrl`).
 */
import type { Api, WireAuthResponse } from 'portico'
import { acmeIdError } from './errors'
import type { AuthorizationGrant } from './popup'
import { ACME_ID_TEXTS } from './strings'

/** POST {issuer}/token: the code and its verifier for an id_token. Never logs the token. */
export async function exchangeCode(
  issuer: string,
  clientId: string,
  grant: AuthorizationGrant,
  fetchFn: typeof fetch = globalThis.fetch,
  T: Pick<typeof ACME_ID_TEXTS, 'exchangeFailed'> = ACME_ID_TEXTS,
): Promise<string> {
  let res: Response
  try {
    res = await fetchFn(new URL('/token', issuer).href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      credentials: 'omit',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: grant.code,
        code_verifier: grant.verifier,
        client_id: clientId,
        redirect_uri: grant.redirectUri,
      }).toString(),
    })
  } catch (e) {
    throw acmeIdError('acme_id_exchange_failed', T.exchangeFailed, e, { error: 'network_error' })
  }
  const body = (await res.json().catch(() => null)) as { id_token?: unknown; error?: unknown } | null
  if (!res.ok || typeof body?.id_token !== 'string' || body.id_token.split('.').length !== 3) {
    // Acme ID's error code (invalid_grant ...) is kept for the host developer, not shown to users.
    throw acmeIdError('acme_id_exchange_failed', T.exchangeFailed, undefined, { status: res.status, error: String(body?.error ?? 'no id_token') })
  }
  return body.id_token
}

/** POST /custom_jwt_account/authenticate {token}: log in (or sign up) with the Acme ID token. */
export const authenticateAcmeId = (api: Api, token: string) =>
  api.post<WireAuthResponse>('/custom_jwt_account/authenticate', { token }, { auth: 'none' })
