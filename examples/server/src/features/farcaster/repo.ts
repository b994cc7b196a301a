/** Farcaster's queries: the sign-in channels the relay completes. */
import type { Queryable } from '../../core/store'

export interface ChannelRow {
  token_hash: string
  app_id: string
  nonce: string
  domain: string
  siwe_uri: string
  state: string
  message: string | null
  signature: string | null
  fid: string | number | null
  profile: Record<string, string | null> | null
  expires_at: number
  used_at: number | null
}

export async function selectChannel(q: Queryable, tokenHash: string, appId: string): Promise<ChannelRow | undefined> {
  return (await q.query<ChannelRow>('SELECT * FROM farcaster_channels WHERE token_hash = $1 AND app_id = $2', [tokenHash, appId]))[0]
}

/** Opens a channel; now and then removes channels a day past their expiry. */
export async function insertChannel(q: Queryable, ch: { tokenHash: string; appId: string; nonce: string; domain: string; siweUri: string; t: number; expiresAt: number }): Promise<void> {
  await q.query(
    `INSERT INTO farcaster_channels (token_hash, app_id, nonce, domain, siwe_uri, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [ch.tokenHash, ch.appId, ch.nonce, ch.domain, ch.siweUri, ch.t, ch.expiresAt],
  )
  if (Math.random() < 0.01) await q.query('DELETE FROM farcaster_channels WHERE expires_at < $1', [ch.t - 86400])
}

/** Uses the channel once (false: replayed or expired). */
export async function useChannel(q: Queryable, tokenHash: string, t: number): Promise<boolean> {
  return (await q.query('UPDATE farcaster_channels SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING token_hash', [tokenHash, t])).length === 1
}

/** The relay completes a pending channel with the signed message; its nonce, or undefined when unknown, completed or expired. */
export async function completeChannel(
  q: Queryable,
  tokenHash: string,
  m: { message: string; signature: string; fid: number; profile: Record<string, string | null> },
  t: number,
): Promise<string | undefined> {
  const rows = await q.query<{ nonce: string }>(
    `UPDATE farcaster_channels SET state = 'completed', message = $2, signature = $3, fid = $4, profile = $5
     WHERE token_hash = $1 AND state = 'pending' AND used_at IS NULL AND expires_at > $6 RETURNING nonce`,
    [tokenHash, m.message, m.signature, m.fid, JSON.stringify(m.profile), t],
  )
  return rows[0]?.nonce
}
