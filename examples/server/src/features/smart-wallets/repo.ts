/** Smart wallets' queries (migration 036 and the accounts table). */
import type { Queryable } from '../../core/store'

/** Is `sender` a smart_wallet account linked to this user of this app? */
export async function ownsSmartWallet(q: Queryable, appId: string, userId: string, sender: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM accounts WHERE app_id = $1 AND user_id = $2 AND type = $3 AND identifier = $4', [appId, userId, 'smart_wallet', sender.toLowerCase()])
  return rows.length > 0
}

/** Sponsorships the user got since `since` (seconds), and whether this operation is one of them. */
export async function sponsorshipCount(q: Queryable, s: { appId: string; userId: string; chainId: number; sender: string; nonce: string; since: number }) {
  const rows = await q.query<{ n: string | number; mine: string | number }>(
    `SELECT count(*) AS n,
            count(*) FILTER (WHERE chain_id = $3 AND sender = $4 AND nonce = $5) AS mine
     FROM smart_wallet_sponsorships WHERE app_id = $1 AND user_id = $2 AND created_at > $6`,
    [s.appId, s.userId, s.chainId, s.sender.toLowerCase(), s.nonce, s.since],
  )
  return { count: Number(rows[0]?.n ?? 0), already: Number(rows[0]?.mine ?? 0) > 0 }
}

/** Serialises one user's sponsorship decisions (the daily limit under concurrency). */
export async function lockUser(q: Queryable, userId: string): Promise<void> {
  await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId])
}

/** Records (or renews) the sponsorship of one operation; false when another user holds it. */
export async function recordSponsorship(q: Queryable, s: { appId: string; userId: string; chainId: number; sender: string; nonce: string; validUntil: number; t: number }): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO smart_wallet_sponsorships (app_id, chain_id, sender, nonce, user_id, valid_until, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (app_id, chain_id, sender, nonce) DO UPDATE SET valid_until = $6
     WHERE smart_wallet_sponsorships.user_id = $5
     RETURNING nonce`,
    [s.appId, s.chainId, s.sender.toLowerCase(), s.nonce, s.userId, s.validUntil, s.t],
  )
  return rows.length === 1
}

/** Is `sender` an Ethereum wallet linked to this user (its embedded wallet, or one linked by SIWE)? An EIP-7702 upgraded EOA keeps its address. */
export async function ownsEthereumWallet(q: Queryable, appId: string, userId: string, sender: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM accounts WHERE app_id = $1 AND user_id = $2 AND type = $3 AND identifier = $4', [appId, userId, 'wallet', `ethereum:${sender.toLowerCase()}`])
  return rows.length > 0
}
