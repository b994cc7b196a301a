/** The embedded wallets' queries: HD roots, their wallet accounts, replaced shares and step-up grants. */
import type { Queryable } from '../../core/store'
import { now, randomToken } from '../../core/identity/tokens'

export interface RootRow {
  app_id: string
  entropy_id: string
  user_id: string
  entropy_id_verifier: string
  auth_share: string
  recovery_method: string
  recovery_share: string
  recovery_meta: Record<string, unknown> | null
  imported: boolean
  recovery_proof_key: string | null
}

/** A wallet account's data (linked account of type wallet, wallet_client_type 'privy'). */
export interface WalletData {
  address: string
  chain_type: string
  wallet_index: number
  entropy_id?: string
  imported?: boolean
}

/** The user's root named by its entropy id (case-insensitive); `lock`: FOR UPDATE. */
export async function selectRoot(q: Queryable, appId: string, userId: string, entropy: string, lock = false): Promise<RootRow | undefined> {
  const rows = await q.query<RootRow>(
    `SELECT * FROM embedded_wallet_roots WHERE app_id = $1 AND lower(entropy_id) = lower($2) AND user_id = $3${lock ? ' FOR UPDATE' : ''}`,
    [appId, entropy, userId],
  )
  return rows[0]
}

/** Who owns the root with this entropy id (any user). */
export async function rootOwner(q: Queryable, appId: string, entropy: string): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string }>('SELECT user_id FROM embedded_wallet_roots WHERE app_id = $1 AND lower(entropy_id) = lower($2)', [appId, entropy])
  return rows[0]?.user_id
}

/** Whether the user has a created (not imported) root. */
export async function hasCreatedRoot(q: Queryable, appId: string, userId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM embedded_wallet_roots WHERE app_id = $1 AND user_id = $2 AND NOT imported', [appId, userId])).length > 0
}

/** Whether the user has an unrevoked wallet device. */
export async function hasActiveDevice(q: Queryable, appId: string, userId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM wallet_devices WHERE app_id = $1 AND user_id = $2 AND revoked_at IS NULL LIMIT 1', [appId, userId])).length > 0
}

export interface NewRoot {
  appId: string
  entropyId: string
  userId: string
  verifier: string
  authShare: string
  recoveryMethod: string
  recoveryShare: string
  recoveryMeta: Record<string, unknown> | null | undefined
  imported: boolean
  /** The creating session (null: a pre-generated wallet, imported by an operator). */
  sessionId: string | null
  recoveryProofKey: string | null | undefined
}

/** Inserts a root inside a savepoint (a unique violation rolls back to it and is rethrown). */
export async function insertRoot(q: Queryable, r: NewRoot, t: number): Promise<void> {
  await q.query('SAVEPOINT root_insert')
  try {
    await q.query(
      r.imported
        ? `INSERT INTO embedded_wallet_roots (app_id, entropy_id, user_id, entropy_id_verifier, auth_share, recovery_method, recovery_share, recovery_meta, created_at, updated_at, imported, created_session_id, recovery_proof_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, true, $10, $11)`
        : `INSERT INTO embedded_wallet_roots (app_id, entropy_id, user_id, entropy_id_verifier, auth_share, recovery_method, recovery_share, recovery_meta, created_at, updated_at, created_session_id, recovery_proof_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11)`,
      [r.appId, r.entropyId, r.userId, r.verifier, r.authShare, r.recoveryMethod, r.recoveryShare, r.recoveryMeta ? JSON.stringify(r.recoveryMeta) : null, t, r.sessionId, r.recoveryProofKey ?? null],
    )
  } catch (e) {
    await q.query('ROLLBACK TO SAVEPOINT root_insert')
    throw e
  }
  await q.query('RELEASE SAVEPOINT root_insert')
}

/** Inserts a wallet account inside a savepoint (a unique violation rolls back to it and is rethrown). */
export async function insertWalletAccount(q: Queryable, appId: string, userId: string, data: { address: string; chain_type: string } & Record<string, unknown>, t: number): Promise<void> {
  const identifier = `${data.chain_type}:${data.chain_type === 'ethereum' ? data.address.toLowerCase() : data.address}`
  await q.query('SAVEPOINT wallet_insert')
  try {
    await q.query(
      `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
       VALUES ($1, $2, 'wallet', $3, $4, $5, $5, $5)`,
      [userId, appId, identifier, JSON.stringify(data), t],
    )
  } catch (e) {
    await q.query('ROLLBACK TO SAVEPOINT wallet_insert')
    throw e
  }
  await q.query('RELEASE SAVEPOINT wallet_insert')
}

/** The user's embedded wallets (linked accounts of type wallet with wallet_client_type 'privy'). */
export async function embeddedWallets(q: Queryable, appId: string, userId: string): Promise<WalletData[]> {
  const rows = await q.query<{ data: WalletData }>(
    `SELECT data FROM accounts WHERE app_id = $1 AND user_id = $2 AND type = 'wallet' AND data->>'wallet_client_type' = 'privy'`,
    [appId, userId],
  )
  return rows.map((x) => x.data)
}

/** The newest replaced auth share still within its grace period. */
export async function previousAuthShare(q: Queryable, appId: string, entropy: string): Promise<string | undefined> {
  const [prev] = await q.query<{ auth_share: string }>(
    'SELECT auth_share FROM embedded_wallet_share_history WHERE app_id = $1 AND lower(entropy_id) = lower($2) AND expires_at > $3 ORDER BY replaced_at DESC, id DESC LIMIT 1',
    [appId, entropy, now()],
  )
  return prev?.auth_share
}

/** Keeps the root's current shares until `expiresAt` (a device that missed a change still opens). */
export async function keepReplacedShares(q: Queryable, row: RootRow, t: number, expiresAt: number): Promise<void> {
  await q.query(
    `INSERT INTO embedded_wallet_share_history (app_id, entropy_id, user_id, auth_share, recovery_method, recovery_share, recovery_meta, recovery_proof_key, replaced_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [row.app_id, row.entropy_id, row.user_id, row.auth_share, row.recovery_method, row.recovery_share, row.recovery_meta ? JSON.stringify(row.recovery_meta) : null, row.recovery_proof_key, t, expiresAt],
  )
}

/** Reseals the root's recovery share (and, when given, replaces its auth share); its wallet accounts follow. */
export async function setRootRecovery(
  q: Queryable,
  row: RootRow,
  s: { method: string; share: string; meta: Record<string, unknown> | null | undefined; authShare: string | null; proofKey: string | null | undefined },
  t: number,
): Promise<void> {
  await q.query(
    'UPDATE embedded_wallet_roots SET recovery_method = $3, recovery_share = $4, recovery_meta = $5, updated_at = $6, auth_share = COALESCE($7, auth_share), recovery_proof_key = $8 WHERE app_id = $1 AND entropy_id = $2',
    [row.app_id, row.entropy_id, s.method, s.share, s.meta ? JSON.stringify(s.meta) : null, t, s.authShare, s.proofKey ?? null],
  )
  await q.query(
    `UPDATE accounts SET data = jsonb_set(data, '{recovery_method}', to_jsonb($4::text)) - 'claim_pending'
     WHERE app_id = $1 AND user_id = $2 AND type = 'wallet' AND lower(data->>'entropy_id') = lower($3)`,
    [row.app_id, row.user_id, row.entropy_id, s.method],
  )
}

export interface StepUpGrantRef {
  appId: string
  userId: string
  sessionId: string
  deviceId: string
  entropyId: string
}

/** Records a verified step-up for one session, device and root (single use, until `expiresAt`). */
export async function insertStepUpGrant(q: Queryable, ref: StepUpGrantRef, method: 'email' | 'sms' | 'mfa', ttlS: number): Promise<string> {
  const id = randomToken(18)
  const t = now()
  await q.query(
    `INSERT INTO wallet_step_up_grants (id, app_id, user_id, session_id, device_id, entropy_id, method, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, lower($6), $7, $8, $9)`,
    [id, ref.appId, ref.userId, ref.sessionId, ref.deviceId, ref.entropyId, method, t, t + ttlS],
  )
  return id
}

/** Uses the newest unused, unexpired grant for exactly this session, device and root; null when none. */
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

/** Stores a device-proof nonce; now and then removes nonces a day past their expiry (cheap on the expiry index). */
export async function insertProofNonce(q: Queryable, n: { nonce: string; appId: string; sessionId: string; t: number; expiresAt: number }): Promise<void> {
  await q.query('INSERT INTO wallet_proof_nonces (nonce, app_id, session_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [n.nonce, n.appId, n.sessionId, n.t, n.expiresAt])
  if (Math.random() < 0.01) await q.query('DELETE FROM wallet_proof_nonces WHERE expires_at < $1', [n.t - 86400])
}

/** Uses the session's unexpired nonce; false when it is unknown, used or expired. */
export async function useProofNonce(q: Queryable, nonce: string, appId: string, sessionId: string, t: number): Promise<boolean> {
  const used = await q.query(
    `UPDATE wallet_proof_nonces SET used_at = $4 WHERE nonce = $1 AND app_id = $2 AND session_id = $3 AND used_at IS NULL AND expires_at > $4 RETURNING nonce`,
    [nonce, appId, sessionId, t],
  )
  return used.length > 0
}

/** The device the session is bound to (null: unbound). */
export async function sessionDevice(q: Queryable, sessionId: string): Promise<string | null> {
  const [s] = await q.query<{ device_id: string | null }>('SELECT device_id FROM sessions WHERE id = $1', [sessionId])
  return s?.device_id ?? null
}

/** Binds an unbound session to the device; false when another bound it first. */
export async function bindSession(q: Queryable, sessionId: string, deviceId: string): Promise<boolean> {
  return (await q.query('UPDATE sessions SET device_id = $2 WHERE id = $1 AND device_id IS NULL RETURNING id', [sessionId, deviceId])).length > 0
}

/** Binds the session to the device whatever it was bound to. */
export async function rebindSession(q: Queryable, sessionId: string, deviceId: string): Promise<void> {
  await q.query('UPDATE sessions SET device_id = $2 WHERE id = $1', [sessionId, deviceId])
}

export interface DeviceRow {
  device_id: string
  added_by: string
  revoked_at: string | number | null
  session_only: boolean
}

/** The user's device registration (revoked ones too). */
export async function selectDevice(q: Queryable, appId: string, userId: string, deviceId: string): Promise<DeviceRow | undefined> {
  const [row] = await q.query<DeviceRow>('SELECT device_id, added_by, revoked_at, session_only FROM wallet_devices WHERE app_id = $1 AND user_id = $2 AND device_id = $3', [appId, userId, deviceId])
  return row
}

/** Whether the device is registered and unrevoked, locking its row. */
export async function lockActiveDevice(q: Queryable, appId: string, userId: string, deviceId: string): Promise<boolean> {
  const [old] = await q.query<{ revoked_at: unknown }>('SELECT revoked_at FROM wallet_devices WHERE app_id = $1 AND user_id = $2 AND device_id = $3 FOR UPDATE', [appId, userId, deviceId])
  return !!old && old.revoked_at == null
}

export async function touchDevice(q: Queryable, appId: string, userId: string, deviceId: string, t: number): Promise<void> {
  await q.query('UPDATE wallet_devices SET last_used_at = $4 WHERE app_id = $1 AND user_id = $2 AND device_id = $3', [appId, userId, deviceId, t])
}

/** Registers the device, or re-admits a revoked one. */
export async function upsertDevice(
  q: Queryable,
  d: { appId: string; userId: string; deviceId: string; jwk: unknown; addedBy: string; label?: string | null; sessionOnly?: boolean },
  t: number,
): Promise<void> {
  await q.query(
    `INSERT INTO wallet_devices (app_id, user_id, device_id, public_jwk, label, session_only, added_by, created_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (app_id, user_id, device_id) DO UPDATE SET revoked_at = NULL, added_by = EXCLUDED.added_by, label = EXCLUDED.label, last_used_at = EXCLUDED.last_used_at`,
    [d.appId, d.userId, d.deviceId, JSON.stringify(d.jwk), d.label ?? null, !!d.sessionOnly, d.addedBy, t],
  )
}
