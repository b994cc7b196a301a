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
import type { Auth } from '../../core/auth'
import type { ServerCtx } from '../../core/context'
import { MFA_FRESH_S, mfaState } from './service'
import { mfaErrors } from './errors'

/** A verification counts for this long (seconds): 5 minutes, then the user verifies again. */
export const FRESH_MFA_WINDOW_S = MFA_FRESH_S

export type GatedAction = 'auth_share' | 'export' | 'recovery' | 'delegation' | 'authorization'

export interface GateResult {
  /** The user has at least one MFA method: the frame must not keep the share past this operation. */
  mfaEnrolled: boolean
}

/**
 * Passes when the user has no MFA method, or when this session (`auth.sessionId`) verified
 * within FRESH_MFA_WINDOW_S (a successful /mfa/{totp,passwordless_sms,passkeys}/verify or
 * enrolment); otherwise throws 403 `missing_or_invalid_mfa`. The same rule for every action.
 */
export async function requireFreshMfa(ctx: ServerCtx, auth: Auth, _action: GatedAction): Promise<GateResult> {
  const s = await mfaState(ctx.store, auth)
  if (s.enrolled && !s.fresh) throw mfaErrors.missing()
  return { mfaEnrolled: s.enrolled }
}
