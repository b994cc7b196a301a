/** The admin feature's queries: app settings, audit, API keys, operators, users, imports. */
import type { Queryable } from '../../core/store'

// ---------------------------------------------------------------- app settings

export interface AppRow {
  id: string
  settings: Record<string, unknown>
  source: 'seed' | 'admin'
  created_at: number
  updated_at: number
  deleted_at: number | null
}

/** Locks the version row: one writer of app settings at a time (seeding processes included). */
export async function lockAppsVersion(q: Queryable): Promise<number> {
  return Number((await q.query<{ version: number }>('SELECT version FROM app_settings_version WHERE id = 1 FOR UPDATE'))[0].version)
}

export async function bumpAppsVersion(q: Queryable): Promise<number> {
  return Number((await q.query<{ version: number }>('UPDATE app_settings_version SET version = version + 1 WHERE id = 1 RETURNING version'))[0].version)
}

export async function appsVersion(q: Queryable): Promise<number> {
  return Number((await q.query<{ version: number }>('SELECT version FROM app_settings_version WHERE id = 1'))[0].version)
}

/** The apps (with `deleted`, also the ones deleted through the admin API). */
export async function allApps(q: Queryable, deleted = false): Promise<AppRow[]> {
  return q.query<AppRow>(`SELECT id, settings, source, created_at, updated_at, deleted_at FROM app_settings${deleted ? '' : ' WHERE deleted_at IS NULL'} ORDER BY created_at, id`)
}

export async function appRow(q: Queryable, id: string, lock = false): Promise<AppRow | undefined> {
  return (await q.query<AppRow>(`SELECT id, settings, source, created_at, updated_at, deleted_at FROM app_settings WHERE id = $1 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`, [id]))[0]
}

/** A new app (or one deleted earlier, created again); false when the id is taken. */
export async function insertApp(q: Queryable, id: string, settings: unknown, source: 'seed' | 'admin', t: number): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO app_settings (id, settings, source, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, source = EXCLUDED.source, created_at = EXCLUDED.created_at,
       updated_at = EXCLUDED.updated_at, deleted_at = NULL WHERE app_settings.deleted_at IS NOT NULL
     RETURNING id`,
    [
    id,
    JSON.stringify(settings),
    source,
    t,
  ],
  )
  return rows.length === 1
}

export async function updateApp(q: Queryable, id: string, settings: unknown, source: 'seed' | 'admin', t: number) {
  await q.query('UPDATE app_settings SET settings = $2, source = $3, updated_at = $4 WHERE id = $1', [id, JSON.stringify(settings), source, t])
}

/** Marks the app deleted (the row stays: the seed file does not bring it back). */
export async function deleteApp(q: Queryable, id: string, t: number): Promise<boolean> {
  return (await q.query(`UPDATE app_settings SET deleted_at = $2, source = 'admin', updated_at = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING id`, [id, t])).length === 1
}

export async function insertAudit(
  q: Queryable,
  a: { actor: string; action: string; appId: string | null; target?: string | null; before?: unknown; after?: unknown; t: number },
) {
  await q.query('INSERT INTO admin_audit (actor, action, app_id, target, before, after, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    a.actor,
    a.action,
    a.appId,
    a.target ?? null,
    a.before === undefined ? null : JSON.stringify(a.before),
    a.after === undefined ? null : JSON.stringify(a.after),
    a.t,
  ])
}

export interface AuditRow {
  id: number
  actor: string
  action: string
  app_id: string | null
  target: string | null
  before: unknown
  after: unknown
  created_at: number
}

export async function listAudit(q: Queryable, appId: string | null, limit: number): Promise<AuditRow[]> {
  return appId
    ? q.query<AuditRow>('SELECT * FROM admin_audit WHERE app_id = $1 ORDER BY id DESC LIMIT $2', [appId, limit])
    : q.query<AuditRow>('SELECT * FROM admin_audit ORDER BY id DESC LIMIT $1', [limit])
}

// ---------------------------------------------------------------- API keys

export interface KeyRow {
  id: string
  name: string
  scopes: string[]
  created_by: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}

export async function insertKey(q: Queryable, k: { id: string; name: string; hash: string; scopes: string[]; by: string; t: number }) {
  await q.query('INSERT INTO admin_api_keys (id, name, key_hash, scopes, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    k.id,
    k.name,
    k.hash,
    k.scopes,
    k.by,
    k.t,
  ])
}

/** A live key by its hash; its last use is written at most once a minute. */
export async function useKey(q: Queryable, hash: string, t: number): Promise<KeyRow | undefined> {
  const row = (await q.query<KeyRow>('SELECT id, name, scopes, created_by, created_at, last_used_at, revoked_at FROM admin_api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hash]))[0]
  if (row && (row.last_used_at == null || t - Number(row.last_used_at) >= 60)) {
    await q.query('UPDATE admin_api_keys SET last_used_at = $2 WHERE id = $1', [row.id, t])
  }
  return row
}

export async function listKeys(q: Queryable): Promise<KeyRow[]> {
  return q.query<KeyRow>('SELECT id, name, scopes, created_by, created_at, last_used_at, revoked_at FROM admin_api_keys ORDER BY created_at DESC, id')
}

export async function revokeKey(q: Queryable, id: string, t: number): Promise<boolean> {
  return (await q.query('UPDATE admin_api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id, t])).length === 1
}

// ---------------------------------------------------------------- operators

export interface OperatorRow {
  email: string
  role: 'owner' | 'admin' | 'viewer'
  added_by: string
  created_at: number
}

/** The operator a user of the console app is, through a verified e-mail of theirs (the highest role wins). */
export async function operatorOfUser(q: Queryable, userId: string, consoleAppId: string): Promise<OperatorRow | undefined> {
  return (
    await q.query<OperatorRow>(
      `SELECT o.* FROM admin_operators o JOIN accounts a ON a.app_id = $2 AND a.type = 'email' AND a.identifier = o.email
       WHERE a.user_id = $1 ORDER BY CASE o.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END LIMIT 1`,
      [userId, consoleAppId],
    )
  )[0]
}

/** The first owner (PORTICO_ADMIN_OWNER_EMAIL): written only while there is no owner at all. */
export async function ensureFirstOwner(q: Queryable, email: string, t: number): Promise<boolean> {
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['admin_operators:owner'])
  const rows = await q.query(
    `INSERT INTO admin_operators (email, role, added_by, created_at)
     SELECT $1, 'owner', 'env', $2 WHERE NOT EXISTS (SELECT 1 FROM admin_operators WHERE role = 'owner')
     ON CONFLICT (email) DO UPDATE SET role = 'owner' RETURNING email`,
    [email, t],
  )
  return rows.length === 1
}

export async function listOperators(q: Queryable): Promise<OperatorRow[]> {
  return q.query<OperatorRow>('SELECT * FROM admin_operators ORDER BY created_at, email')
}

export async function operatorByEmail(q: Queryable, email: string): Promise<OperatorRow | undefined> {
  return (await q.query<OperatorRow>('SELECT * FROM admin_operators WHERE email = $1 FOR UPDATE', [email]))[0]
}

export async function upsertOperator(q: Queryable, o: { email: string; role: string; by: string; t: number }) {
  await q.query(
    'INSERT INTO admin_operators (email, role, added_by, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO UPDATE SET role = EXCLUDED.role',
    [o.email, o.role, o.by, o.t],
  )
}

export async function deleteOperator(q: Queryable, email: string): Promise<boolean> {
  return (await q.query('DELETE FROM admin_operators WHERE email = $1 RETURNING email', [email])).length === 1
}

export async function ownerCount(q: Queryable): Promise<number> {
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['admin_operators:owner'])
  return (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM admin_operators WHERE role = 'owner'`))[0].n
}

// ---------------------------------------------------------------- users

/** Users of the app whose id is `id` or who have an account with one of `identifiers`, newest first. */
export async function findUsers(q: Queryable, appId: string, id: string | null, identifiers: string[], limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT u.id FROM users u WHERE u.app_id = $1 AND (u.id = $2 OR u.id IN (SELECT a.user_id FROM accounts a WHERE a.app_id = $1 AND a.identifier = ANY($3::text[])))
     ORDER BY u.created_at DESC, u.id DESC LIMIT $4`,
    [appId, id, identifiers, limit],
  )
  return rows.map((r) => r.id)
}

/** The app's users, newest first, after a (created_at, id) cursor. */
export async function listUsers(q: Queryable, appId: string, limit: number, before: { t: number; id: string } | null): Promise<{ id: string; created_at: number }[]> {
  return before
    ? q.query('SELECT id, created_at FROM users WHERE app_id = $1 AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4', [appId, before.t, before.id, limit])
    : q.query('SELECT id, created_at FROM users WHERE app_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [appId, limit])
}

export async function userInApp(q: Queryable, userId: string, appId: string, lock = false): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM users WHERE id = $1 AND app_id = $2${lock ? ' FOR UPDATE' : ''}`, [userId, appId])).length === 1
}

export async function userSessions(q: Queryable, userId: string) {
  return q.query<{ id: string; family_id: string; created_at: number; revoked_at: number | null; device_id: string | null }>(
    'SELECT id, family_id, created_at, revoked_at, device_id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 200',
    [userId],
  )
}

/** The user's embedded wallet roots: what is known of them, never a share. */
export async function userWalletRoots(q: Queryable, userId: string) {
  return q.query<{ entropy_id: string; recovery_method: string; imported: boolean; created_at: number; updated_at: number }>(
    'SELECT entropy_id, recovery_method, imported, created_at, updated_at FROM embedded_wallet_roots WHERE user_id = $1 ORDER BY created_at',
    [userId],
  )
}

export async function userDevices(q: Queryable, userId: string) {
  return q.query<{ device_id: string; label: string | null; session_only: boolean; added_by: string; created_at: number; last_used_at: number; revoked_at: number | null }>(
    'SELECT device_id, label, session_only, added_by, created_at, last_used_at, revoked_at FROM wallet_devices WHERE user_id = $1 ORDER BY created_at',
    [userId],
  )
}

export async function userDelegations(q: Queryable, userId: string) {
  return q.query<{ chain_type: string; address: string; wallet_index: number | null; created_at: number; last_used_at: number | null; expires_at: number | null }>(
    'SELECT chain_type, address, wallet_index, created_at, last_used_at, expires_at FROM wallet_delegations WHERE user_id = $1 ORDER BY created_at',
    [userId],
  )
}

/** Revokes every live session of the user and their active refresh tokens; answers how many sessions. */
export async function revokeUserSessions(q: Queryable, userId: string, t: number): Promise<number> {
  const rows = await q.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId, t])
  await q.query(`UPDATE refresh_tokens SET state = 'revoked' WHERE state = 'active' AND session_id IN (SELECT id FROM sessions WHERE user_id = $1)`, [userId])
  return rows.length
}

/**
 * Deletes the user: the row and, by the schema's ON DELETE CASCADE, their accounts, sessions
 * and refresh tokens, wallet roots (auth and recovery shares), devices, delegations (sealed
 * keys), MFA methods, password OPRF keys, Farcaster signers. Pending cross-app codes (no
 * foreign key) go explicitly.
 */
export async function deleteUserCascade(q: Queryable, userId: string, appId: string): Promise<boolean> {
  await q.query('DELETE FROM cross_app_codes WHERE user_id = $1', [userId])
  return (await q.query('DELETE FROM users WHERE id = $1 AND app_id = $2 RETURNING id', [userId, appId])).length === 1
}

export interface ExportRow {
  id: string
  created_at: number
  is_guest: boolean
  has_accepted_terms: boolean
  custom_metadata: Record<string, unknown> | null
  accounts: { type: string; identifier: string; data: Record<string, unknown>; first_verified_at: number; latest_verified_at: number }[] | null
  mfa: { type: string; verified_at: number }[] | null
}

/** One page of the app's users with their accounts and MFA methods, by id after `after`. */
export async function exportPage(q: Queryable, appId: string, after: string, limit: number): Promise<ExportRow[]> {
  return q.query<ExportRow>(
    `SELECT u.id, u.created_at, u.is_guest, u.has_accepted_terms, u.custom_metadata,
       (SELECT json_agg(json_build_object('type', a.type, 'identifier', a.identifier, 'data', a.data, 'first_verified_at', a.first_verified_at, 'latest_verified_at', a.latest_verified_at) ORDER BY a.id)
        FROM accounts a WHERE a.user_id = u.id) AS accounts,
       (SELECT json_agg(json_build_object('type', m.type, 'verified_at', m.verified_at) ORDER BY m.type) FROM mfa_methods m WHERE m.user_id = u.id) AS mfa
     FROM users u WHERE u.app_id = $1 AND u.id > $2 ORDER BY u.id LIMIT $3`,
    [appId, after, limit],
  )
}

// ---------------------------------------------------------------- user imports

export async function lockUsersOfApp(q: Queryable, appId: string) {
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`users:${appId}`])
}

/** Which of the (type, identifier) pairs already exist in the app. */
export async function existingAccounts(q: Queryable, appId: string, types: string[], identifiers: string[]): Promise<Set<string>> {
  const rows = await q.query<{ type: string; identifier: string }>(
    `SELECT a.type, a.identifier FROM accounts a JOIN unnest($2::text[], $3::text[]) AS x(type, identifier)
       ON a.app_id = $1 AND a.type = x.type AND a.identifier = x.identifier`,
    [appId, types, identifiers],
  )
  return new Set(rows.map((r) => `${r.type}\u0000${r.identifier}`))
}

/** Many users in one statement. */
export async function insertUsers(q: Queryable, appId: string, ids: string[], createdAt: number[], metadata: (string | null)[]) {
  await q.query(
    `INSERT INTO users (id, app_id, created_at, custom_metadata)
     SELECT x.id, $1, x.t, x.m::jsonb FROM unnest($2::text[], $3::bigint[], $4::text[]) AS x(id, t, m)`,
    [appId, ids, createdAt, metadata],
  )
}

/** Many accounts in one statement; an identifier taken meanwhile is skipped. Answers the users that got an account. */
export async function insertAccounts(q: Queryable, appId: string, a: { userIds: string[]; types: string[]; identifiers: string[]; data: string[] }, t: number): Promise<Set<string>> {
  const rows = await q.query<{ user_id: string }>(
    `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
     SELECT x.u, $1, x.ty, x.i, x.d::jsonb, $6, $6, $6 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS x(u, ty, i, d)
     ON CONFLICT (app_id, type, identifier) DO NOTHING RETURNING user_id`,
    [appId, a.userIds, a.types, a.identifiers, a.data, t],
  )
  return new Set(rows.map((r) => r.user_id))
}

export async function deleteUsers(q: Queryable, ids: string[]) {
  if (ids.length) await q.query('DELETE FROM users WHERE id = ANY($1::text[])', [ids])
}

export interface ImportRow {
  id: string
  app_id: string
  idempotency_key: string
  body_hash: string
  status: 'running' | 'done' | 'failed'
  total: number
  processed: number
  created: number
  existing: number
  failed: number
  errors: { index: number; error: string }[]
  created_by: string
  created_at: number
  updated_at: number
}
const IMPORT_COLS = 'id, app_id, idempotency_key, body_hash, status, total, processed, created, existing, failed, errors, created_by, created_at, updated_at'

/** A new import job, or the one this key already names (then `inserted` is false). */
export async function insertImport(
  q: Queryable,
  j: { id: string; appId: string; key: string; bodyHash: string; payload: string; total: number; by: string; t: number },
): Promise<{ row: ImportRow; inserted: boolean }> {
  const ins = await q.query<ImportRow>(
    `INSERT INTO admin_user_imports (id, app_id, idempotency_key, body_hash, payload, status, total, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'running', $6, $7, $8, $8) ON CONFLICT (app_id, idempotency_key) DO NOTHING RETURNING ${IMPORT_COLS}`,
    [j.id, j.appId, j.key, j.bodyHash, j.payload, j.total, j.by, j.t],
  )
  if (ins.length) return { row: ins[0], inserted: true }
  const row = (await q.query<ImportRow>(`SELECT ${IMPORT_COLS} FROM admin_user_imports WHERE app_id = $1 AND idempotency_key = $2`, [j.appId, j.key]))[0]
  return { row, inserted: false }
}

export async function importById(q: Queryable, appId: string, id: string): Promise<ImportRow | undefined> {
  return (await q.query<ImportRow>(`SELECT ${IMPORT_COLS} FROM admin_user_imports WHERE id = $1 AND app_id = $2`, [id, appId]))[0]
}

/** A slice of the job's users (the payload stays in the database; each batch reads its own). */
export async function importSlice(q: Queryable, id: string, from: number, count: number): Promise<unknown[]> {
  const rows = await q.query<{ u: unknown[] | null }>(
    `SELECT (SELECT jsonb_agg(e ORDER BY n) FROM jsonb_array_elements(payload) WITH ORDINALITY AS x(e, n) WHERE n > $2 AND n <= $2 + $3) AS u
     FROM admin_user_imports WHERE id = $1`,
    [id, from, count],
  )
  return rows[0]?.u ?? []
}

/** Records a batch's outcome; only the job's own next batch moves it (processed must still be `from`). */
export async function recordImportBatch(
  q: Queryable,
  id: string,
  from: number,
  b: { processed: number; created: number; existing: number; failed: number; errors: unknown[]; done: boolean; t: number },
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE admin_user_imports SET processed = processed + $3, created = created + $4, existing = existing + $5, failed = failed + $6,
       errors = CASE WHEN jsonb_array_length(errors) < 100 THEN errors || $7::jsonb ELSE errors END,
       status = CASE WHEN $8 THEN 'done' ELSE status END, updated_at = $9
     WHERE id = $1 AND processed = $2 AND status = 'running' RETURNING id`,
    [id, from, b.processed, b.created, b.existing, b.failed, JSON.stringify(b.errors), b.done, b.t],
  )
  return rows.length === 1
}

export async function failImport(q: Queryable, id: string, t: number) {
  await q.query(`UPDATE admin_user_imports SET status = 'failed', updated_at = $2 WHERE id = $1 AND status = 'running'`, [id, t])
}

/** Running jobs nobody has moved for `staleS` seconds (their process died): to resume. */
export async function staleImports(q: Queryable, staleBefore: number): Promise<{ id: string; app_id: string; processed: number }[]> {
  return q.query(`SELECT id, app_id, processed FROM admin_user_imports WHERE status = 'running' AND updated_at < $1`, [staleBefore])
}

/** Claims a stale job for this process (its updated_at moves, so one process resumes it). */
export async function claimImport(q: Queryable, id: string, updatedBefore: number, t: number): Promise<boolean> {
  return (await q.query(`UPDATE admin_user_imports SET updated_at = $3 WHERE id = $1 AND status = 'running' AND updated_at < $2 RETURNING id`, [id, updatedBefore, t])).length === 1
}

// ---------------------------------------------------------------- stats (the console's charts)

export interface DayCount {
  day: number
  method: string
  count: number
}

/**
 * Sign-ups per UTC day since `from` by method: the type of the user's first verified account
 * ('guest' for a guest, 'other' for a user without an account).
 */
export async function signupsPerDay(q: Queryable, appId: string, from: number): Promise<DayCount[]> {
  const rows = await q.query<DayCount>(
    `SELECT (u.created_at / 86400) * 86400 AS day, CASE WHEN u.is_guest THEN 'guest' ELSE coalesce(a.type, 'other') END AS method, count(*)::int AS count
       FROM users u LEFT JOIN LATERAL (SELECT type FROM accounts WHERE user_id = u.id ORDER BY first_verified_at, id LIMIT 1) a ON true
      WHERE u.app_id = $1 AND u.created_at >= $2 GROUP BY 1, 2 ORDER BY 1, 2`,
    [appId, from],
  )
  return rows.map((r) => ({ day: Number(r.day), method: r.method, count: Number(r.count) }))
}

/**
 * Logins per UTC day since `from` by method. A login is a session that is no fork; its method
 * is the one the session records (`login_method`, migration 040). Sessions from before that
 * have it inferred: the type of the account verified at that moment (within 10 minutes before
 * it), else 'other'. Deleted users' logins are gone with them.
 */
export async function loginsPerDay(q: Queryable, appId: string, from: number): Promise<DayCount[]> {
  const rows = await q.query<DayCount>(
    `SELECT (s.created_at / 86400) * 86400 AS day, coalesce(s.login_method, CASE WHEN u.is_guest THEN 'guest' ELSE coalesce(a.type, 'other') END) AS method, count(*)::int AS count
       FROM sessions s JOIN users u ON u.id = s.user_id
       LEFT JOIN LATERAL (SELECT type FROM accounts x WHERE x.user_id = s.user_id
                            AND (x.latest_verified_at BETWEEN s.created_at - 600 AND s.created_at OR x.first_verified_at BETWEEN s.created_at - 600 AND s.created_at)
                          ORDER BY x.latest_verified_at DESC, x.id LIMIT 1) a ON true
      WHERE s.app_id = $1 AND s.created_at >= $2
        AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = s.id AND r.kind = 'fork')
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [appId, from],
  )
  return rows.map((r) => ({ day: Number(r.day), method: r.method, count: Number(r.count) }))
}
