/** Cross-app's queries: the one-time codes a provider app issues to a requester. */
import type { Queryable } from '../../core/store'

export interface CodeRow {
  code_hash: string
  user_id: string
  code_challenge: string
}

/** Stores a code; now and then removes codes a day past their expiry. */
export async function insertCode(
  q: Queryable,
  c: { codeHash: string; providerAppId: string; requesterAppId: string; userId: string; codeChallenge: string; origin: string; t: number; expiresAt: number },
): Promise<void> {
  await q.query(
    `INSERT INTO cross_app_codes (code_hash, provider_app_id, requester_app_id, user_id, code_challenge, origin, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [c.codeHash, c.providerAppId, c.requesterAppId, c.userId, c.codeChallenge, c.origin, c.t, c.expiresAt],
  )
  if (Math.random() < 0.01) await q.query('DELETE FROM cross_app_codes WHERE expires_at < $1', [c.t - 86400])
}

/** The live, unused code for this requester and provider (nothing written). */
export async function liveCode(q: Queryable, codeHash: string, requesterAppId: string, providerAppId: string, t: number): Promise<CodeRow | undefined> {
  const rows = await q.query<CodeRow>(
    `SELECT code_hash, user_id, code_challenge FROM cross_app_codes
     WHERE code_hash = $1 AND requester_app_id = $2 AND provider_app_id = $3 AND used_at IS NULL AND expires_at > $4`,
    [codeHash, requesterAppId, providerAppId, t],
  )
  return rows[0]
}

/** Uses the code; false when it was used or expired meanwhile. */
export async function useCode(q: Queryable, codeHash: string, t: number): Promise<boolean> {
  return (await q.query('UPDATE cross_app_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING code_hash', [codeHash, t])).length === 1
}

/**
 * The provider user's wallets as the cross_app account shows them: their embedded Ethereum
 * wallets (wallet_client_type 'privy') and their linked smart wallets, oldest first.
 */
export async function providerWallets(
  q: Queryable,
  providerAppId: string,
  userId: string,
): Promise<{ embedded_wallets: { address: string }[]; smart_wallets: { address: string }[] }> {
  const rows = await q.query<{ type: string; address: string }>(
    `SELECT type, data->>'address' AS address FROM accounts
     WHERE app_id = $1 AND user_id = $2
       AND ((type = 'wallet' AND data->>'wallet_client_type' = 'privy' AND data->>'chain_type' = 'ethereum') OR type = 'smart_wallet')
     ORDER BY first_verified_at, id`,
    [providerAppId, userId],
  )
  const pick = (t: string) => rows.filter((r) => r.type === t && typeof r.address === 'string').map((r) => ({ address: r.address }))
  return { embedded_wallets: pick('wallet'), smart_wallets: pick('smart_wallet') }
}
