/**
 * The access token's expiry, read from the JWT without verifying it. Only a session with a token
 * needs it, so only ./session-calls.ts (loaded when first needed) imports it; ./session.ts does
 * not, and a visitor without a session does not load it.
 */

/** The access token counts as inactive this long before it expires. */
export const TOKEN_EXPIRY_MARGIN_S = 30

/** Read `exp` (seconds) from a JWT without verifying it. */
export function tokenExpiry(token: string): number | null {
  const part = token.split('.')[1]
  if (!part) return null
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')
    const payload = JSON.parse(atob(b64))
    return typeof payload.exp === 'number' ? payload.exp : null
  } catch {
    return null
  }
}

/** Active = has an expiry more than 30 s away. */
export function isTokenActive(token: string | null, nowMs: number = Date.now()): boolean {
  if (!token) return false
  const exp = tokenExpiry(token)
  return exp !== null && exp - TOKEN_EXPIRY_MARGIN_S > nowMs / 1000
}
