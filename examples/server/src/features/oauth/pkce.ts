/**
 * What every PKCE authorization init shares (social login `/oauth/init`, cloud-recovery
 * `/recovery/oauth/init`): the checks (an S256 challenge, a state of the spec's shape, a
 * redirect to one of the app's allowed origins) and the provider URL it answers.
 */
import { errors } from '../../core/errors'

/** A state code: 16 to 256 unreserved URL characters. */
export const STATE_CODE = /^[A-Za-z0-9._~-]{16,256}$/
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export function checkStateCode(state: string): void {
  if (!STATE_CODE.test(state)) throw errors.field('state_code', 'Expected 16 to 256 characters of [A-Za-z0-9._~-]')
}

/** Checks the challenge, the state and the redirect; returns the redirect URL. */
export function checkPkceInit(app: { allowedOrigins: readonly string[] }, b: { code_challenge: string; state_code: string; redirect_to: string }): URL {
  if (!S256_CHALLENGE.test(b.code_challenge)) throw errors.field('code_challenge', 'Expected a BASE64URL(SHA-256) S256 challenge (43 characters)')
  checkStateCode(b.state_code)
  let redirectTo: URL
  try {
    redirectTo = new URL(b.redirect_to)
  } catch {
    throw errors.field('redirect_to', 'Expected an absolute URL')
  }
  if (!app.allowedOrigins.includes(redirectTo.origin)) {
    throw errors.invalidData('redirect_to: the origin is not allowed for this app', { fields: { redirect_to: 'Origin not allowed' } })
  }
  return redirectTo
}

/**
 * The provider URL of an authorization request (RFC 6749 section 4.1.1) with its S256 challenge
 * (RFC 7636 section 4.3) when given, then the provider's own parameters.
 */
export function authorizationUrl(
  endpoint: string,
  p: { clientIdParam?: string; clientId: string; redirectUri: string; scope: string; state: string; codeChallenge?: string; extra?: Record<string, string> },
): string {
  const url = new URL(endpoint)
  const q = url.searchParams
  q.set('response_type', 'code')
  q.set(p.clientIdParam ?? 'client_id', p.clientId)
  q.set('redirect_uri', p.redirectUri)
  q.set('scope', p.scope)
  q.set('state', p.state)
  if (p.codeChallenge) {
    q.set('code_challenge', p.codeChallenge)
    q.set('code_challenge_method', 'S256')
  }
  for (const [k, v] of Object.entries(p.extra ?? {})) q.set(k, v)
  return url.href
}
