/** Farcaster signers' queries (migration 035). */
import type { Queryable } from '../../core/store'

export type SignerState = 'pending' | 'approved' | 'revoked' | 'expired'

export interface SignerRow {
  app_id: string
  public_key: string
  user_id: string
  fid: number
  request_fid: number
  token: string
  deeplink_url: string
  state: SignerState
  user_fid: number | null
  deadline: number
  created_at: number
  updated_at: number
}

export async function selectSigner(q: Queryable, appId: string, publicKey: string, lock = false): Promise<SignerRow | undefined> {
  const rows = await q.query<SignerRow>(`SELECT * FROM farcaster_signers WHERE app_id = $1 AND public_key = $2${lock ? ' FOR UPDATE' : ''}`, [appId, publicKey])
  const r = rows[0]
  return r && { ...r, fid: Number(r.fid), request_fid: Number(r.request_fid), user_fid: r.user_fid == null ? null : Number(r.user_fid), deadline: Number(r.deadline) }
}

/** A new signed key request for the key (replaces an expired, revoked or past-deadline one of the same user). */
export async function upsertSigner(
  q: Queryable,
  s: { appId: string; publicKey: string; userId: string; fid: number; requestFid: number; token: string; deeplinkUrl: string; deadline: number; t: number },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO farcaster_signers (app_id, public_key, user_id, fid, request_fid, token, deeplink_url, state, deadline, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $9)
     ON CONFLICT (app_id, public_key) DO UPDATE SET fid = $4, request_fid = $5, token = $6, deeplink_url = $7, state = 'pending', user_fid = NULL,
       deadline = $8, updated_at = $9
     WHERE farcaster_signers.user_id = $3
       AND (farcaster_signers.state IN ('revoked', 'expired') OR (farcaster_signers.state = 'pending' AND farcaster_signers.deadline <= $9))
     RETURNING public_key`,
    [s.appId, s.publicKey, s.userId, s.fid, s.requestFid, s.token, s.deeplinkUrl, s.deadline, s.t],
  )
  return rows.length === 1
}

export async function setSignerState(q: Queryable, appId: string, publicKey: string, state: SignerState, userFid: number | null, t: number) {
  await q.query('UPDATE farcaster_signers SET state = $3, user_fid = $4, updated_at = $5 WHERE app_id = $1 AND public_key = $2', [appId, publicKey, state, userFid, t])
}

/** The linked Farcaster account gains the approved key (`signer_public_key`). */
export async function setAccountSigner(q: Queryable, userId: string, fid: number, publicKey: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE accounts SET data = data || jsonb_build_object('signer_public_key', $3::text) WHERE user_id = $1 AND type = 'farcaster' AND identifier = $2 RETURNING id`,
    [userId, String(fid), publicKey],
  )
  return rows.length === 1
}

/** The user's Farcaster fid (undefined: none linked) and whether the user has an embedded wallet. */
export async function signerPrerequisites(q: Queryable, userId: string): Promise<{ fid: number | undefined; embedded: boolean }> {
  const rows = await q.query<{ type: string; identifier: string; embedded: boolean }>(
    `SELECT type, identifier, (type = 'wallet' AND coalesce(data->>'connector_type', '') = 'embedded') AS embedded
     FROM accounts WHERE user_id = $1 AND (type = 'farcaster' OR type = 'wallet')`,
    [userId],
  )
  const fc = rows.find((r) => r.type === 'farcaster')
  return { fid: fc ? Number(fc.identifier) : undefined, embedded: rows.some((r) => r.embedded) }
}
