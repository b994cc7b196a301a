/** Recovery's queries: the Google Drive authorization states (per user). */
import type { Queryable } from '../../core/store'

/** Stores a state; false when its hash was used before. Now and then removes states a day past their expiry. */
export async function insertState(
  q: Queryable,
  s: { stateHash: string; appId: string; userId: string; codeChallenge: string; redirectTo: string; redirectUri: string; t: number; expiresAt: number },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO recovery_oauth_states (state_hash, app_id, user_id, provider, code_challenge, redirect_to, redirect_uri, created_at, expires_at)
     VALUES ($1, $2, $3, 'google-drive', $4, $5, $6, $7, $8) ON CONFLICT (state_hash) DO NOTHING RETURNING state_hash`,
    [s.stateHash, s.appId, s.userId, s.codeChallenge, s.redirectTo, s.redirectUri, s.t, s.expiresAt],
  )
  if (!rows.length) return false
  if (Math.random() < 0.01) await q.query('DELETE FROM recovery_oauth_states WHERE expires_at < $1', [s.t - 86400])
  return true
}

/** Uses the user's live state; undefined when unknown, used or expired. */
export async function useState(q: Queryable, stateHash: string, appId: string, userId: string, t: number): Promise<{ code_challenge: string; redirect_uri: string } | undefined> {
  const rows = await q.query<{ code_challenge: string; redirect_uri: string }>(
    `UPDATE recovery_oauth_states SET used_at = $4 WHERE state_hash = $1 AND app_id = $2 AND user_id = $3 AND used_at IS NULL AND expires_at > $4
     RETURNING code_challenge, redirect_uri`,
    [stateHash, appId, userId, t],
  )
  return rows[0]
}

/** Where the live state sends Google's redirect back to. */
export async function liveStateRedirect(q: Queryable, stateHash: string, t: number): Promise<string | undefined> {
  const rows = await q.query<{ redirect_to: string }>('SELECT redirect_to FROM recovery_oauth_states WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $2', [stateHash, t])
  return rows[0]?.redirect_to
}
