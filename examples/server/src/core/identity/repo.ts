/**
 * Every query of the identity core (users, accounts, sessions, refresh tokens, transfer
 * nonces, the signing key). Each takes the connection it runs on (the store or a transaction).
 */
import type { Queryable } from '../store'

export interface UserRow {
  id: string
  app_id: string
  created_at: number
  has_accepted_terms: boolean
  is_guest: boolean
  custom_metadata: Record<string, unknown> | null
}
export interface AccountRow {
  id: number
  user_id: string
  type: string
  identifier: string
  data: Record<string, unknown>
  first_verified_at: number
  latest_verified_at: number
}
/** A user with its accounts and MFA methods (json_agg keeps jsonb data and bigints as numbers). */
export type UserRowWithAccounts = UserRow & {
  accounts: AccountRow[] | string | null
  mfa: { type: string; verified_at: number }[] | string | null
}
export interface NewAccount {
  type: string
  identifier: string
  data: Record<string, unknown>
}

// ---------------------------------------------------------------- users

/** The user and its accounts and MFA methods in one row; `$1` is the user id. */
const USER_ROW = `SELECT u.*, (SELECT json_agg(a ORDER BY a.id) FROM accounts a WHERE a.user_id = u.id) AS accounts,
       (SELECT json_agg(json_build_object('type', m.type, 'verified_at', m.verified_at) ORDER BY m.verified_at, m.type)
        FROM mfa_methods m WHERE m.user_id = u.id) AS mfa
     FROM users u WHERE u.id = $1`

export async function selectUser(q: Queryable, userId: string): Promise<UserRowWithAccounts | undefined> {
  return (await q.query<UserRowWithAccounts>(USER_ROW, [userId]))[0]
}

/** A user of this app (the app backend's lookup), or undefined. */
export async function userOfApp(q: Queryable, userId: string, appId: string): Promise<string | undefined> {
  return (await q.query<{ id: string }>('SELECT id FROM users WHERE id = $1 AND app_id = $2', [userId, appId]))[0]?.id
}

export async function insertUser(q: Queryable, u: { id: string; appId: string; createdAt: number; isGuest: boolean; guestHash: string | null }) {
  await q.query('INSERT INTO users (id, app_id, created_at, is_guest, guest_credential_hash) VALUES ($1, $2, $3, $4, $5)', [
    u.id,
    u.appId,
    u.createdAt,
    u.isGuest,
    u.guestHash,
  ])
}

/** Locks the app's user count for this transaction (one sign-up at a time) and reads it. */
export async function lockedUserCount(q: Queryable, appId: string): Promise<number> {
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`users:${appId}`])
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE app_id = $1', [appId])
  return n
}

export async function lockGuestUser(q: Queryable, userId: string): Promise<UserRow | undefined> {
  return (await q.query<UserRow>('SELECT * FROM users WHERE id = $1 AND is_guest FOR UPDATE', [userId]))[0]
}

export async function setGuest(q: Queryable, userId: string, isGuest: boolean) {
  await q.query('UPDATE users SET is_guest = $2 WHERE id = $1', [userId, isGuest])
}

export async function deleteUser(q: Queryable, userId: string) {
  await q.query('DELETE FROM users WHERE id = $1', [userId])
}

export async function acceptTerms(q: Queryable, userId: string) {
  await q.query('UPDATE users SET has_accepted_terms = true WHERE id = $1', [userId])
}

export async function userByGuestHash(q: Queryable, hash: string): Promise<{ id: string; is_guest: boolean } | undefined> {
  return (await q.query<{ id: string; is_guest: boolean }>('SELECT id, is_guest FROM users WHERE guest_credential_hash = $1', [hash]))[0]
}

/** The user's account count, and whether the user began as a guest. */
export async function accountCountAndGuest(q: Queryable, userId: string): Promise<{ n: number; guest: boolean }> {
  const [r] = await q.query<{ n: number; guest: boolean }>(
    `SELECT (SELECT count(*)::int FROM accounts WHERE user_id = $1) AS n,
            EXISTS (SELECT 1 FROM users WHERE id = $1 AND guest_credential_hash IS NOT NULL) AS guest`,
    [userId],
  )
  return r
}

// ---------------------------------------------------------------- accounts

/**
 * The one-account-per-type rule (spec part 1 section 5) counts what the user linked: the
 * embedded wallets the provider created (type 'wallet', connector type 'embedded') are not
 * linked accounts in that sense and never block linking an external wallet.
 */
const NOT_EMBEDDED = "NOT (type = 'wallet' AND coalesce(data->>'connector_type', '') = 'embedded')"

export async function hasLinkedOfType(q: Queryable, userId: string, type: string): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM accounts WHERE user_id = $1 AND type = $2 AND ${NOT_EMBEDDED}`, [userId, type])).length > 0
}

export async function hasAccountOfType(q: Queryable, userId: string, type: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM accounts WHERE user_id = $1 AND type = $2', [userId, type])).length > 0
}

export async function insertAccount(q: Queryable, appId: string, userId: string, a: NewAccount, t: number) {
  await q.query(
    `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`,
    [userId, appId, a.type, a.identifier, JSON.stringify(a.data), t],
  )
}

export async function findAccount(q: Queryable, appId: string, type: string, identifier: string, lock = true): Promise<AccountRow | undefined> {
  const rows = await q.query<AccountRow>(
    `SELECT * FROM accounts WHERE app_id = $1 AND type = $2 AND identifier = $3${lock ? ' FOR UPDATE' : ''}`,
    [appId, type, identifier],
  )
  return rows[0]
}

/** A returning account found, locked and refreshed in one statement: its user, or undefined. */
export async function touchAccount(q: Queryable, appId: string, a: NewAccount, t: number): Promise<string | undefined> {
  const rows = await q.query<{ user_id: string }>(
    `UPDATE accounts SET latest_verified_at = $4, data = data || $5::jsonb
     WHERE app_id = $1 AND type = $2 AND identifier = $3 RETURNING user_id`,
    [appId, a.type, a.identifier, t, JSON.stringify(a.data)],
  )
  return rows[0]?.user_id
}

export async function refreshAccount(q: Queryable, accountId: number, data: Record<string, unknown>, t: number) {
  await q.query('UPDATE accounts SET latest_verified_at = $2, data = data || $3::jsonb WHERE id = $1', [accountId, t, JSON.stringify(data)])
}

export async function moveAccount(q: Queryable, accountId: number, userId: string, t: number) {
  await q.query('UPDATE accounts SET user_id = $2, latest_verified_at = $3 WHERE id = $1', [accountId, userId, t])
}

export async function lockAccountOfType(q: Queryable, userId: string, type: string): Promise<AccountRow | undefined> {
  return (await q.query<AccountRow>('SELECT * FROM accounts WHERE user_id = $1 AND type = $2 FOR UPDATE', [userId, type]))[0]
}

export async function replaceAccount(q: Queryable, accountId: number, a: NewAccount, t: number) {
  await q.query('UPDATE accounts SET identifier = $2, data = $3, first_verified_at = $4, latest_verified_at = $4 WHERE id = $1', [
    accountId,
    a.identifier,
    JSON.stringify(a.data),
    t,
  ])
}

export async function deleteAccount(q: Queryable, accountId: number) {
  await q.query('DELETE FROM accounts WHERE id = $1', [accountId])
}

/**
 * A first login in one round trip: the user, its first account, its session and refresh
 * token.
 */
export async function insertUserWithSession(
  q: Queryable,
  p: { userId: string; appId: string; t: number; account: NewAccount; sessionId: string; familyId: string; refreshHash: string; expiresAt: number },
) {
  await q.query(
    `WITH u AS (INSERT INTO users (id, app_id, created_at, is_guest) VALUES ($1, $2, $3, false) RETURNING id),
     a AS (INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
           SELECT u.id, $2, $4, $5, $6, $3, $3, $3 FROM u),
     s AS (INSERT INTO sessions (id, user_id, app_id, family_id, created_at, login_method) SELECT $7, u.id, $2, $8, $3, $4 FROM u RETURNING id)
     INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at)
     SELECT $9, s.id, 'active', 'session', $3, $10 FROM s`,
    [p.userId, p.appId, p.t, p.account.type, p.account.identifier, JSON.stringify(p.account.data), p.sessionId, p.familyId, p.refreshHash, p.expiresAt],
  )
}

// ---------------------------------------------------------------- transfer nonces

export async function insertTransferNonce(
  q: Queryable,
  p: { nonce: string; appId: string; subject: string; data: Record<string, unknown>; t: number; ttlS: number },
) {
  await q.query(`INSERT INTO nonces (nonce, app_id, kind, subject, data, created_at, expires_at) VALUES ($1, $2, 'transfer', $3, $4, $5, $6)`, [
    p.nonce,
    p.appId,
    p.subject,
    JSON.stringify(p.data),
    p.t,
    p.t + p.ttlS,
  ])
}

/** Uses a live transfer nonce once: its subject and data, or undefined. */
export async function useTransferNonce(q: Queryable, nonce: string, appId: string, t: number) {
  const rows = await q.query<{ subject: string; data: { target_user_id: string } }>(
    `UPDATE nonces SET used_at = $3 WHERE nonce = $1 AND app_id = $2 AND kind = 'transfer' AND used_at IS NULL AND expires_at > $3
     RETURNING subject, data`,
    [nonce, appId, t],
  )
  return rows[0]
}

// ---------------------------------------------------------------- sessions and refresh tokens

export interface SessionRow {
  sessionId: string
  userId: string
  appId: string
  familyId: string
  t: number
  refreshHash: string
  kind: 'session' | 'fork'
  expiresAt: number
}

/** A session and its first refresh token in one round trip. */
export async function insertSession(q: Queryable, s: SessionRow) {
  await q.query(
    `WITH s AS (INSERT INTO sessions (id, user_id, app_id, family_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id)
     INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at)
     SELECT $6, s.id, 'active', $7, $5, $8 FROM s`,
    [s.sessionId, s.userId, s.appId, s.familyId, s.t, s.refreshHash, s.kind, s.expiresAt],
  )
}

/** A login's session and refresh token, and the user read back, in one round trip. `method`: what it logged in with (the console's stats). */
export async function insertSessionSelectUser(q: Queryable, s: Omit<SessionRow, 'kind'> & { method: string | null }): Promise<UserRowWithAccounts | undefined> {
  const rows = await q.query<UserRowWithAccounts>(
    `WITH s AS (INSERT INTO sessions (id, user_id, app_id, family_id, created_at, login_method) VALUES ($2, $1, $3, $4, $5, $8) RETURNING id),
     r AS (INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at)
           SELECT $6, s.id, 'active', 'session', $5, $7 FROM s)
     ${USER_ROW}`,
    [s.userId, s.sessionId, s.appId, s.familyId, s.t, s.refreshHash, s.expiresAt, s.method],
  )
  return rows[0]
}

export async function insertRefreshToken(q: Queryable, p: { hash: string; sessionId: string; kind: 'session' | 'fork'; t: number; expiresAt: number }) {
  await q.query(
    `INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at) VALUES ($1, $2, 'active', $3, $4, $5)`,
    [p.hash, p.sessionId, p.kind, p.t, p.expiresAt],
  )
}

export interface RefreshRow {
  state: string
  kind: string
  expires_at: number
  used_at: number | null
  successor_hash: string | null
  successor_sealed: string | null
  session_id: string
  user_id: string
  family_id: string
  app_id: string
  revoked_at: number | null
}

/** A refresh token and its session, the token row locked. */
export async function lockRefreshToken(q: Queryable, hash: string): Promise<RefreshRow | undefined> {
  const rows = await q.query<RefreshRow>(
    `SELECT rt.state, rt.kind, rt.expires_at, rt.used_at, rt.successor_hash, rt.successor_sealed, rt.session_id,
            s.user_id, s.family_id, s.app_id, s.revoked_at
     FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id
     WHERE rt.token_hash = $1 FOR UPDATE OF rt`,
    [hash],
  )
  return rows[0]
}

export async function refreshTokenState(q: Queryable, hash: string | null): Promise<string | undefined> {
  return (await q.query<{ state: string }>('SELECT state FROM refresh_tokens WHERE token_hash = $1', [hash]))[0]?.state
}

/** Revokes every session of a family and their active refresh tokens. */
export async function revokeFamily(q: Queryable, familyId: string, t: number) {
  await q.query('UPDATE sessions SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [familyId, t])
  await q.query(`UPDATE refresh_tokens SET state = 'revoked' WHERE state = 'active' AND session_id IN (SELECT id FROM sessions WHERE family_id = $1)`, [
    familyId,
  ])
}

/** Marks a token rotated (its successor and, for a plain refresh, the sealed new pair); its predecessor's sealed pair goes. */
export async function markRotated(q: Queryable, hash: string, t: number, successorHash: string, sealed: string | null) {
  await q.query(`UPDATE refresh_tokens SET state = 'rotated', used_at = $2, successor_hash = $3, successor_sealed = $4 WHERE token_hash = $1`, [
    hash,
    t,
    successorHash,
    sealed,
  ])
  await q.query('UPDATE refresh_tokens SET successor_sealed = NULL WHERE successor_hash = $1', [hash])
}

export async function sessionOfRefreshToken(q: Queryable, hash: string, appId: string): Promise<string | undefined> {
  const rows = await q.query<{ session_id: string }>(
    `SELECT rt.session_id FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id WHERE rt.token_hash = $1 AND s.app_id = $2`,
    [hash, appId],
  )
  return rows[0]?.session_id
}

export async function revokeSession(q: Queryable, sessionId: string, t: number) {
  await q.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, t])
  await q.query(`UPDATE refresh_tokens SET state = 'revoked' WHERE session_id = $1 AND state = 'active'`, [sessionId])
}

export async function sessionAlive(q: Queryable, sessionId: string, userId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [sessionId, userId])).length === 1
}

export async function isGuestSession(q: Queryable, sessionId: string, userId: string): Promise<boolean> {
  const rows = await q.query(
    'SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND u.is_guest',
    [sessionId, userId],
  )
  return rows.length > 0
}

// ---------------------------------------------------------------- the signing key

export type SigningKeyRow = { kid: string; private_jwk: Record<string, unknown> | null; private_jwe: string | null; public_jwk: Record<string, unknown> }

export async function signingKey(q: Queryable): Promise<SigningKeyRow | undefined> {
  return (await q.query<SigningKeyRow>("SELECT kid, private_jwk, private_jwe, public_jwk FROM signing_keys WHERE name = 'default'"))[0]
}

/** Stores the default signing key unless another process stored one first. */
export async function insertSigningKey(q: Queryable, kid: string, privateJwe: string, publicJwk: Record<string, unknown>, t: number) {
  await q.query(
    "INSERT INTO signing_keys (name, kid, private_jwe, public_jwk, created_at) VALUES ('default', $1, $2, $3, $4) ON CONFLICT (name) DO NOTHING",
    [kid, privateJwe, JSON.stringify(publicJwk), t],
  )
}

/** Seals a plain-text private key left by an older version. */
export async function sealSigningKey(q: Queryable, privateJwe: string) {
  await q.query("UPDATE signing_keys SET private_jwe = $1, private_jwk = NULL WHERE name = 'default'", [privateJwe])
}

/** Locks the user's row for the transaction (serialises a user's writes); false when the user is gone. */
export async function lockUser(q: Queryable, userId: string): Promise<boolean> {
  return (await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId])).length > 0
}

/** The user's e-mail and phone accounts, oldest first (where notices go). */
export async function contactAccounts(q: Queryable, userId: string, appId: string): Promise<{ type: string; identifier: string }[]> {
  return q.query<{ type: string; identifier: string }>(
    `SELECT type, identifier FROM accounts WHERE user_id = $1 AND app_id = $2 AND type IN ('email', 'phone') ORDER BY created_at`,
    [userId, appId],
  )
}

/** The identifiers of the user's accounts of one type. */
export async function identifiersOfType(q: Queryable, userId: string, type: string): Promise<string[]> {
  return (await q.query<{ identifier: string }>(`SELECT identifier FROM accounts WHERE user_id = $1 AND type = $2`, [userId, type])).map((m) => m.identifier)
}

/** The user is no guest any more: the guest flag and credential go. */
export async function endGuest(q: Queryable, userId: string) {
  await q.query('UPDATE users SET is_guest = false, guest_credential_hash = NULL WHERE id = $1', [userId])
}
