/** The wallet password's queries: the per-root OPRF key and its evaluation counter. */
import type { Queryable } from '../../core/store'

export interface OprfRow {
  user_id: string
  oprf_key: string
  evaluations: number
  locked_until: string | number | null
  success_nonce: string | null
  success_nonce_expires_at: string | number | null
}

/** Whose root this is (any user), its stored spelling and verifier. */
export async function rootOf(q: Queryable, appId: string, entropy: string): Promise<{ user_id: string; entropy_id: string; entropy_id_verifier: string } | undefined> {
  const rows = await q.query<{ user_id: string; entropy_id: string; entropy_id_verifier: string }>(
    'SELECT user_id, entropy_id, entropy_id_verifier FROM embedded_wallet_roots WHERE app_id = $1 AND lower(entropy_id) = lower($2)',
    [appId, entropy],
  )
  return rows[0]
}

/** The root's OPRF row, created for `userId` with `sealedKey` when missing (the first asker owns it), locked. */
export async function lockOprfRow(q: Queryable, appId: string, entropy: string, userId: string, sealedKey: string, t: number): Promise<OprfRow> {
  await q.query(
    `INSERT INTO wallet_password_oprf (app_id, entropy_id, user_id, oprf_key, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (app_id, entropy_id) DO NOTHING`,
    [appId, entropy, userId, sealedKey, t],
  )
  return (await q.query<OprfRow>('SELECT * FROM wallet_password_oprf WHERE app_id = $1 AND entropy_id = $2 FOR UPDATE', [appId, entropy]))[0]
}

/** Records an evaluation: the counter (or the lock) and the nonce a verified password may present. */
export async function recordEvaluation(
  q: Queryable,
  appId: string,
  entropy: string,
  e: { evaluations: number; lockedUntil: number | null; nonce: string; nonceExpiresAt: number; t: number },
): Promise<void> {
  await q.query(
    `UPDATE wallet_password_oprf SET evaluations = $3, locked_until = $4, success_nonce = $5, success_nonce_expires_at = $6, last_evaluated_at = $7
     WHERE app_id = $1 AND entropy_id = $2`,
    [appId, entropy, e.evaluations, e.lockedUntil, e.nonce, e.nonceExpiresAt, e.t],
  )
}

/** The user's OPRF row of the root. */
export async function oprfRowOf(q: Queryable, appId: string, entropy: string, userId: string): Promise<OprfRow | undefined> {
  return (await q.query<OprfRow>('SELECT * FROM wallet_password_oprf WHERE app_id = $1 AND entropy_id = $2 AND user_id = $3', [appId, entropy, userId]))[0]
}

/** A verified password resets the counter; false when the nonce was used meanwhile. */
export async function recordSuccess(q: Queryable, appId: string, entropy: string, nonce: string, t: number): Promise<boolean> {
  const done = await q.query(
    `UPDATE wallet_password_oprf SET evaluations = 0, locked_until = NULL, success_nonce = NULL, success_nonce_expires_at = NULL, last_success_at = $4
     WHERE app_id = $1 AND entropy_id = $2 AND success_nonce = $3 RETURNING entropy_id`,
    [appId, entropy, nonce, t],
  )
  return done.length > 0
}
