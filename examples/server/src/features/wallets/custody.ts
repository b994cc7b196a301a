/**
 * Wallet custody (issue 26): the contract the share routes, the step-up routes and the wallet
 * frame share. No single stolen credential yields two shares:
 *
 * - every wallet request of the frame carries a device proof (header `portico-device-proof`): a
 *   compact JWS (ES256, `typ: portico-device+jwt`, the public JWK in the header) by the frame's
 *   non-extractable P-256 key, over `{ htm, htu, iat, jti, nonce, ath, eid }` (method, path
 *   under /api/v1, issued-at in seconds, a random id, a single-use server nonce, the base64url
 *   SHA-256 of the access token, the root's entropy id or null). The server answers every
 *   wallet route with the next nonce in `portico-device-nonce`;
 * - the auth share goes only to a registered, unrevoked device bound to the session;
 * - a device that is not registered (a new browser, cleared storage) gets the recovery share
 *   only after a step-up the token does not carry (a one-time code to the verified e-mail or
 *   phone, or a fresh MFA verification): a grant, single use, for one session, device and root;
 * - changing shares (set_recovery, add) needs a device proof and a signature by the root's
 *   index-0 key; replaced shares are kept for GRACE_S.
 *
 * Headers such as Origin are hints for browsers, never credentials.
 */
import { randomToken } from '../../core/identity/tokens'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'

export { CUSTODY_CODES, CUSTODY_TEXTS, DEVICE_NONCE_HEADER, DEVICE_PROOF_HEADER, DEVICE_PROOF_TYP, ownerMessage, setRecoveryFields, type OwnerAction } from '../../wire/custody'
/** How long a device proof's iat is accepted (seconds, either side). */
export const PROOF_MAX_AGE_S = 60
/** How long a proof nonce lives (seconds). */
export const PROOF_NONCE_TTL_S = 300
/** How long a step-up grant lives once verified (seconds). */
export const STEP_UP_GRANT_TTL_S = 300
/** How long replaced shares are kept (seconds): 7 days. */
export const SHARE_GRACE_S = 7 * 86400


export interface StepUpGrantRef {
  appId: string
  userId: string
  sessionId: string
  deviceId: string
  entropyId: string
}

/** Records a verified step-up for one session, device and root (single use, STEP_UP_GRANT_TTL_S). */
export async function insertStepUpGrant(q: Queryable, ref: StepUpGrantRef, method: 'email' | 'sms' | 'mfa'): Promise<string> {
  const id = randomToken(18)
  const t = now()
  await q.query(
    `INSERT INTO wallet_step_up_grants (id, app_id, user_id, session_id, device_id, entropy_id, method, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, lower($6), $7, $8, $9)`,
    [id, ref.appId, ref.userId, ref.sessionId, ref.deviceId, ref.entropyId, method, t, t + STEP_UP_GRANT_TTL_S],
  )
  return id
}

/** Uses the newest unused, unexpired grant for exactly this session, device and root; false when none. */
export async function consumeStepUpGrant(q: Queryable, ref: StepUpGrantRef): Promise<{ method: string } | null> {
  const rows = await q.query<{ method: string }>(
    `UPDATE wallet_step_up_grants SET used_at = $6
     WHERE id = (
       SELECT id FROM wallet_step_up_grants
       WHERE app_id = $1 AND user_id = $2 AND session_id = $3 AND device_id = $4 AND entropy_id = lower($5)
         AND used_at IS NULL AND expires_at > $6
       ORDER BY created_at DESC LIMIT 1
     ) RETURNING method`,
    [ref.appId, ref.userId, ref.sessionId, ref.deviceId, ref.entropyId, now()],
  )
  return rows[0] ?? null
}

/** Whether an unused grant exists (without using it). */
export async function hasStepUpGrant(q: Queryable, ref: StepUpGrantRef): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM wallet_step_up_grants WHERE app_id = $1 AND user_id = $2 AND session_id = $3 AND device_id = $4
       AND entropy_id = lower($5) AND used_at IS NULL AND expires_at > $6 LIMIT 1`,
    [ref.appId, ref.userId, ref.sessionId, ref.deviceId, ref.entropyId, now()],
  )
  return rows.length > 0
}
