/** OAuth's queries: the login states between init, the provider's redirect and the exchange. */
import type { Queryable } from '../../core/store'
import type { OAuthProvider } from './providers'

export interface StateRow {
  app_id: string
  provider: OAuthProvider
  code_challenge: string
  redirect_to: string
  redirect_uri: string
  data: { apple_user?: unknown } | null
}

/** Stores a state; false when its hash was used before. Now and then removes states a day past their expiry. */
export async function insertState(
  q: Queryable,
  s: { stateHash: string; appId: string; provider: string; codeChallenge: string; redirectTo: string; redirectUri: string; t: number; expiresAt: number },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO oauth_states (state_hash, app_id, provider, code_challenge, redirect_to, redirect_uri, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (state_hash) DO NOTHING RETURNING state_hash`,
    [s.stateHash, s.appId, s.provider, s.codeChallenge, s.redirectTo, s.redirectUri, s.t, s.expiresAt],
  )
  if (!rows.length) return false
  if (Math.random() < 0.01) await q.query('DELETE FROM oauth_states WHERE expires_at < $1', [s.t - 86400])
  return true
}

/** Uses the app's live state; undefined when unknown, used or expired. */
export async function useState(q: Queryable, stateHash: string, appId: string, t: number): Promise<StateRow | undefined> {
  const rows = await q.query<StateRow>(
    `UPDATE oauth_states SET used_at = $3 WHERE state_hash = $1 AND app_id = $2 AND used_at IS NULL AND expires_at > $3
     RETURNING app_id, provider, code_challenge, redirect_to, redirect_uri, data`,
    [stateHash, appId, t],
  )
  return rows[0]
}

/** The live state (any app), for the provider's redirect. */
export async function liveState(q: Queryable, stateHash: string, t: number): Promise<StateRow | undefined> {
  const rows = await q.query<StateRow>(
    'SELECT app_id, provider, code_challenge, redirect_to, redirect_uri, data FROM oauth_states WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [stateHash, t],
  )
  return rows[0]
}

/** Keeps what the provider sent with its redirect (Apple's user name) for the exchange. */
export async function setStateData(q: Queryable, stateHash: string, data: Record<string, unknown>): Promise<void> {
  await q.query('UPDATE oauth_states SET data = $2 WHERE state_hash = $1', [stateHash, JSON.stringify(data)])
}
