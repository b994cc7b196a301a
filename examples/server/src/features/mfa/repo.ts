/** MFA's queries: enrolled methods, verifications, attempts. */
import type { Auth } from '../../core/auth'
import { now } from '../../core/identity/tokens'
import type { Queryable } from '../../core/store'
import type { MfaType } from './service'

/** The methods a user has enrolled (type and verified_at, seconds). */
export async function mfaMethodsOf(q: Queryable, userId: string): Promise<{ type: MfaType; verified_at: number }[]> {
  const rows = await q.query<{ type: MfaType; verified_at: number }>(
    'SELECT type, verified_at FROM mfa_methods WHERE user_id = $1 ORDER BY verified_at, type',
    [userId],
  )
  return rows.map((r) => ({ type: r.type, verified_at: Number(r.verified_at) }))
}

/** Whether the user has a method and whether this session verified after `freshSince`. */
export async function enrolledAndFresh(q: Queryable, auth: Auth, freshSince: number): Promise<{ enrolled: boolean; fresh: boolean }> {
  const [r] = await q.query<{ enrolled: boolean; fresh: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM mfa_methods WHERE user_id = $1) AS enrolled,
            EXISTS (SELECT 1 FROM mfa_verifications WHERE session_id = $2 AND user_id = $1 AND verified_at > $3) AS fresh`,
    [auth.userId, auth.sessionId, freshSince],
  )
  return { enrolled: !!r?.enrolled, fresh: !!r?.fresh }
}

export async function markVerified(q: Queryable, auth: Auth, method: MfaType) {
  await q.query(
    `INSERT INTO mfa_verifications (session_id, user_id, method, verified_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (session_id) DO UPDATE SET method = $3, verified_at = $4, user_id = $2`,
    [auth.sessionId, auth.userId, method, now()],
  )
}

/** Counts one attempt in one atomic upsert (the row lock orders racing requests); the window's and the day's counts. */
export async function countAttemptRow(q: Queryable, userId: string, t: number, windowS: number): Promise<{ count: number; day_count: number }> {
  const [r] = await q.query<{ count: number; day_count: number }>(
    `INSERT INTO mfa_attempts (user_id, window_start, count, day_start, day_count) VALUES ($1, $2, 1, $2, 1)
     ON CONFLICT (user_id) DO UPDATE SET
       count = CASE WHEN mfa_attempts.window_start > $2 - $3 THEN mfa_attempts.count + 1 ELSE 1 END,
       window_start = CASE WHEN mfa_attempts.window_start > $2 - $3 THEN mfa_attempts.window_start ELSE $2 END,
       day_count = CASE WHEN mfa_attempts.day_start > $2 - 86400 THEN mfa_attempts.day_count + 1 ELSE 1 END,
       day_start = CASE WHEN mfa_attempts.day_start > $2 - 86400 THEN mfa_attempts.day_start ELSE $2 END
     RETURNING count, day_count`,
    [userId, t, windowS],
  )
  return r
}

/** Removes the user's method; false when it was not enrolled. */
export async function deleteMethod(q: Queryable, userId: string, type: MfaType): Promise<boolean> {
  return (await q.query('DELETE FROM mfa_methods WHERE user_id = $1 AND type = $2 RETURNING type', [userId, type])).length > 0
}

/** The method's data (TOTP: the sealed secret; SMS: the number); undefined when not enrolled. */
export async function methodData<D>(q: Queryable, userId: string, type: MfaType): Promise<D | undefined> {
  const rows = await q.query<{ data: D }>(`SELECT data FROM mfa_methods WHERE user_id = $1 AND type = $2`, [userId, type])
  return rows[0]?.data
}

/** Stores (or replaces) the user's pending TOTP enrolment. */
export async function putPendingTotp(q: Queryable, userId: string, sealedSecret: string, t: number, expiresAt: number): Promise<void> {
  await q.query(
    `INSERT INTO mfa_pending (user_id, type, data, created_at, expires_at) VALUES ($1, 'totp', $2, $3, $4)
     ON CONFLICT (user_id, type) DO UPDATE SET data = $2, created_at = $3, expires_at = $4`,
    [userId, JSON.stringify({ secret: sealedSecret }), t, expiresAt],
  )
}

/** The sealed secret of the user's live pending TOTP enrolment. */
export async function pendingTotp(q: Queryable, userId: string, t: number): Promise<string | undefined> {
  const rows = await q.query<{ data: { secret: string } }>(`SELECT data FROM mfa_pending WHERE user_id = $1 AND type = 'totp' AND expires_at > $2`, [userId, t])
  return rows[0]?.data.secret
}

/** Consumes the pending enrolment of exactly this secret (two racing enrolments: one wins). */
export async function takePendingTotp(q: Queryable, userId: string, sealedSecret: string): Promise<boolean> {
  return (await q.query(`DELETE FROM mfa_pending WHERE user_id = $1 AND type = 'totp' AND data->>'secret' = $2 RETURNING user_id`, [userId, sealedSecret])).length > 0
}

/** Enrols (or re-enrols) a method; TOTP keeps the accepted step. */
export async function upsertMethod(q: Queryable, userId: string, type: MfaType, data: Record<string, unknown>, t: number, lastStep?: number): Promise<void> {
  if (type === 'totp') {
    await q.query(
      `INSERT INTO mfa_methods (user_id, type, data, last_step, verified_at) VALUES ($1, 'totp', $2, $3, $4)
       ON CONFLICT (user_id, type) DO UPDATE SET data = $2, last_step = $3, verified_at = $4`,
      [userId, JSON.stringify(data), lastStep, t],
    )
  } else if (type === 'sms') {
    await q.query(
      `INSERT INTO mfa_methods (user_id, type, data, verified_at) VALUES ($1, 'sms', $2, $3)
       ON CONFLICT (user_id, type) DO UPDATE SET data = $2, verified_at = $3`,
      [userId, JSON.stringify(data), t],
    )
  } else {
    await q.query(
      `INSERT INTO mfa_methods (user_id, type, data, verified_at) VALUES ($1, 'passkey', '{}', $2)
       ON CONFLICT (user_id, type) DO UPDATE SET verified_at = $2`,
      [userId, t],
    )
  }
}

/** Compare-and-set of the TOTP step: false when this step or a later one was used. */
export async function advanceTotpStep(q: Queryable, userId: string, step: number): Promise<boolean> {
  return (await q.query(`UPDATE mfa_methods SET last_step = $2 WHERE user_id = $1 AND type = 'totp' AND (last_step IS NULL OR last_step < $2) RETURNING type`, [userId, step])).length > 0
}

/** Marks exactly the given passkeys of the user as enrolled in MFA (none: `[]`). */
export async function setPasskeysEnrolled(q: Queryable, userId: string, credentialIds: string[] | null): Promise<void> {
  if (credentialIds === null) {
    await q.query(`UPDATE accounts SET data = jsonb_set(data, '{enrolled_in_mfa}', 'false'::jsonb) WHERE user_id = $1 AND type = 'passkey'`, [userId])
    return
  }
  await q.query(
    `UPDATE accounts SET data = jsonb_set(data, '{enrolled_in_mfa}', to_jsonb(identifier = ANY($2::text[])))
     WHERE user_id = $1 AND type = 'passkey'`,
    [userId, credentialIds],
  )
}
