/**
 * The server-side MFA gate for wallet secrets (issue 16 fills it in).
 *
 * Routes that release key material to the wallet frame (the auth share, an export, a
 * recovery share, delegation consent) call `requireFreshMfa` first. When the user has
 * enrolled an MFA method and this session has no fresh verification, it throws the API error
 * `missing_or_invalid_mfa` (HTTP 403), so a client that skips the 'Verify your identity'
 * screen gains nothing. It also tells the caller whether what it releases may be cached in
 * the frame for the session (only when the user has no MFA method).
 */
import type { Auth, ServerCtx } from './context'

export type GatedAction = 'auth_share' | 'export' | 'recovery' | 'delegation'

export interface GateResult {
  /** The user has at least one MFA method: the frame must not keep the share past this operation. */
  mfaEnrolled: boolean
}

export async function requireFreshMfa(_ctx: ServerCtx, _auth: Auth, _action: GatedAction): Promise<GateResult> {
  // Until MFA enrolment exists (issue 16), no user has a method, so nothing is gated.
  return { mfaEnrolled: false }
}
