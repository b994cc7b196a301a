/** The wallet step-up's queries: its channel, its codes, the user's devices and grants. */
import type { Queryable } from '../../core/store'

/** The user's guest flag and e-mail / phone accounts (oldest first); empty when the user is gone. */
export async function contactsAndGuest(q: Queryable, userId: string, appId: string): Promise<{ type: string; identifier: string; is_guest: boolean }[]> {
  return q.query<{ type: string; identifier: string; is_guest: boolean }>(
    `SELECT a.type, a.identifier, u.is_guest FROM users u LEFT JOIN accounts a ON a.user_id = u.id AND a.app_id = $2 AND a.type IN ('email', 'phone')
     WHERE u.id = $1 ORDER BY a.created_at`,
    [userId, appId],
  )
}

export interface CodeKey {
  appId: string
  channel: 'email' | 'sms'
  identifier: string
}

/** The identifier's newest live code, locked. */
export async function lockNewestCode(q: Queryable, k: CodeKey, t: number): Promise<{ id: string; code_hash: string; attempts: number } | undefined> {
  const [row] = await q.query<{ id: string; code_hash: string; attempts: number }>(
    `SELECT id::text AS id, code_hash, attempts FROM otp_codes
     WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL AND expires_at > $4
     ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [k.appId, k.channel, k.identifier, t],
  )
  return row
}

/** Consumes every live code of the identifier. */
export async function consumeCodes(q: Queryable, k: CodeKey, t: number): Promise<void> {
  await q.query('UPDATE otp_codes SET consumed_at = $4 WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL', [k.appId, k.channel, k.identifier, t])
}

/** Records a wrong guess on the code: `attempts`, and consumed once it reaches `max`. */
export async function setCodeAttempts(q: Queryable, codeId: string, attempts: number, max: number, t: number): Promise<void> {
  await q.query('UPDATE otp_codes SET attempts = $2::int, consumed_at = CASE WHEN $2::int >= $3::int THEN $4::bigint ELSE consumed_at END WHERE id = $1::bigint', [codeId, attempts, max, t])
}

export interface DeviceRecord {
  device_id: string
  label: string | null
  created_at: string | number
  last_used_at: string | number
  session_only: boolean
  added_by: string
}

/** The user's unrevoked devices, oldest first. */
export async function activeDevices(q: Queryable, appId: string, userId: string): Promise<DeviceRecord[]> {
  return q.query<DeviceRecord>(
    `SELECT device_id, label, created_at, last_used_at, session_only, added_by FROM wallet_devices
     WHERE app_id = $1 AND user_id = $2 AND revoked_at IS NULL ORDER BY created_at, device_id`,
    [appId, userId],
  )
}

/** The stored spelling of the user's root named by `entropy` (case-insensitive). */
export async function rootEntropyId(q: Queryable, appId: string, userId: string, entropy: string): Promise<string | undefined> {
  const [row] = await q.query<{ entropy_id: string }>('SELECT entropy_id FROM embedded_wallet_roots WHERE app_id = $1 AND lower(entropy_id) = lower($2) AND user_id = $3', [appId, entropy, userId])
  return row?.entropy_id
}

/** Uses the newest live grant of this session and device, whatever its root; false when none. */
export async function useAnyGrant(q: Queryable, g: { appId: string; userId: string; sessionId: string; deviceId: string }, t: number): Promise<boolean> {
  const used = await q.query(
    `UPDATE wallet_step_up_grants SET used_at = $5 WHERE id = (
       SELECT id FROM wallet_step_up_grants WHERE app_id = $1 AND user_id = $2 AND session_id = $3 AND device_id = $4
         AND used_at IS NULL AND expires_at > $5 ORDER BY created_at DESC LIMIT 1) RETURNING id`,
    [g.appId, g.userId, g.sessionId, g.deviceId, t],
  )
  return used.length > 0
}

/** Revokes the user's device; false when it is unknown or revoked already. */
export async function revokeDevice(q: Queryable, appId: string, userId: string, deviceId: string, t: number): Promise<boolean> {
  const gone = await q.query('UPDATE wallet_devices SET revoked_at = $4 WHERE app_id = $1 AND user_id = $2 AND device_id = $3 AND revoked_at IS NULL RETURNING device_id', [appId, userId, deviceId, t])
  return gone.length > 0
}
