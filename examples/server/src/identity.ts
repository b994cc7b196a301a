/**
 * The account rules shared by every login kind: find-or-create on login, link with the
 * one-per-type and transfer rules, update, unlink, transfer, sessions. Routes verify their
 * credential (code, signature, JWT) and then call these with an AccountInput.
 */
import type {
  WireAccountTransferData,
  WireAuthResponse,
  WireLinkedAccount,
  WireUser,
} from '../../../kernel/wire'
import type { AppSettings } from './config'
import { ApiError, MSG, errors } from './errors'
import type { Keys } from './keys'
import { isUniqueViolation, type Queryable, type Store } from './store'
import {
  REFRESH_TTL_S,
  now,
  randomToken,
  sha256,
  signAccessToken,
  signIdentityToken,
  type Signer,
} from './tokens'

export interface Deps {
  store: Store
  signer: Signer
  keys: Keys
}

/** A verified identifier about to be logged in with or linked. */
export interface AccountInput {
  /** Wire type: 'email' | 'phone' | 'wallet' | 'custom_auth' | ... */
  type: string
  /** Normalised unique key within (app, type), e.g. lower-case e-mail, E.164, 'ethereum:0xabc'. */
  identifier: string
  /** Wire fields of the account besides type and timestamps. */
  data: Record<string, unknown>
  /** Whether a conflict offers an account transfer (e-mail, SMS, Solana wallet ...). */
  transferable: boolean
  /** link_method of the transfer data: 'email' | 'sms' | 'siws' ... */
  linkMethod: string
  displayName: string
  /** Extra fields of the transfer data on a link conflict (OAuth: `oauth_user_info`). */
  transferInfo?: Record<string, unknown>
}

interface UserRow {
  id: string
  app_id: string
  created_at: number
  has_accepted_terms: boolean
  is_guest: boolean
  custom_metadata: Record<string, unknown> | null
}
interface AccountRow {
  id: number
  user_id: string
  type: string
  identifier: string
  data: Record<string, unknown>
  first_verified_at: number
  latest_verified_at: number
}

export const newUserId = () => `did:portico:${randomToken(15).replace(/[-_]/g, 'x').toLowerCase()}`

// ---------------------------------------------------------------- users

/** The user and its accounts and MFA methods in one row (json_agg keeps jsonb data and bigints as numbers); `$1` is the user id. */
const USER_ROW = `SELECT u.*, (SELECT json_agg(a ORDER BY a.id) FROM accounts a WHERE a.user_id = u.id) AS accounts,
       (SELECT json_agg(json_build_object('type', m.type, 'verified_at', m.verified_at) ORDER BY m.verified_at, m.type)
        FROM mfa_methods m WHERE m.user_id = u.id) AS mfa
     FROM users u WHERE u.id = $1`
type UserRowWithAccounts = UserRow & { accounts: AccountRow[] | string | null; mfa: { type: string; verified_at: number }[] | string | null }

export async function loadUser(q: Queryable, userId: string): Promise<WireUser | null> {
  return userFromRow((await q.query<UserRowWithAccounts>(USER_ROW, [userId]))[0])
}

function userFromRow(u: UserRowWithAccounts | undefined): WireUser | null {
  if (!u) return null
  const accounts = (typeof u.accounts === 'string' ? JSON.parse(u.accounts) : u.accounts ?? []) as AccountRow[]
  const user: WireUser = {
    id: u.id,
    created_at: Number(u.created_at),
    linked_accounts: accounts.map(accountToWire),
    // MFA methods (migration 023): type and verified_at in seconds.
    mfa_methods: ((typeof u.mfa === 'string' ? JSON.parse(u.mfa) : u.mfa ?? []) as { type: string; verified_at: number }[]).map((m) => ({
      type: m.type,
      verified_at: Number(m.verified_at),
    })) as WireUser['mfa_methods'],
    has_accepted_terms: u.has_accepted_terms,
    is_guest: u.is_guest,
  }
  if (u.custom_metadata) user.custom_metadata = u.custom_metadata
  return user
}

export function accountToWire(a: AccountRow): WireLinkedAccount {
  return {
    ...a.data,
    type: a.type,
    verified_at: Number(a.first_verified_at),
    first_verified_at: Number(a.first_verified_at),
    latest_verified_at: Number(a.latest_verified_at),
  } as WireLinkedAccount
}

async function createUser(q: Queryable, app: AppSettings, opts: { isGuest?: boolean; guestHash?: string } = {}) {
  const id = newUserId()
  await q.query(
    'INSERT INTO users (id, app_id, created_at, is_guest, guest_credential_hash) VALUES ($1, $2, $3, $4, $5)',
    [id, app.id, now(), !!opts.isGuest, opts.guestHash ?? null],
  )
  return id
}

/** User limit and development-mode cap, checked under a per-app lock (new users only). */
export async function enforceNewUserLimits(q: Queryable, app: AppSettings): Promise<void> {
  if (app.userLimit == null && !app.developmentMode) return
  await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`users:${app.id}`])
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE app_id = $1', [app.id])
  if (app.developmentMode && n >= (app.developmentUserCap ?? 150)) throw errors.devMode()
  if (app.userLimit != null && n >= app.userLimit) throw errors.maxAccounts()
}

export async function insertAccount(q: Queryable, app: AppSettings, userId: string, a: AccountInput) {
  const t = now()
  await q.query(
    `INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $6)`,
    [userId, app.id, a.type, a.identifier, JSON.stringify(a.data), t],
  )
}

async function findAccount(q: Queryable, app: AppSettings, type: string, identifier: string, lock = true) {
  const rows = await q.query<AccountRow>(
    `SELECT * FROM accounts WHERE app_id = $1 AND type = $2 AND identifier = $3${lock ? ' FOR UPDATE' : ''}`,
    [app.id, type, identifier],
  )
  return rows[0]
}

// ---------------------------------------------------------------- sessions

/** Creates a session (a new family unless given) and its first refresh token. */
export async function createSession(
  q: Queryable,
  appId: string,
  userId: string,
  opts: { familyId?: string; kind?: 'session' | 'fork' } = {},
): Promise<{ sessionId: string; refreshToken: string }> {
  const sessionId = randomToken(16)
  const refreshToken = randomToken(32)
  const t = now()
  // One round trip: the session and its first refresh token.
  await q.query(
    `WITH s AS (INSERT INTO sessions (id, user_id, app_id, family_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id)
     INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at)
     SELECT $6, s.id, 'active', $7, $5, $8 FROM s`,
    [sessionId, userId, appId, opts.familyId ?? randomToken(16), t, sha256(refreshToken), opts.kind ?? 'session', t + REFRESH_TTL_S],
  )
  return { sessionId, refreshToken }
}

/**
 * A login's session (a new family) with its first refresh token, and the user read back,
 * in one round trip (the session rows do not change what the user query reads).
 */
async function createSessionLoadUser(q: Queryable, appId: string, userId: string): Promise<{ user: WireUser; session: { sessionId: string; refreshToken: string } }> {
  const sessionId = randomToken(16)
  const refreshToken = randomToken(32)
  const t = now()
  const rows = await q.query<UserRowWithAccounts>(
    `WITH s AS (INSERT INTO sessions (id, user_id, app_id, family_id, created_at) VALUES ($2, $1, $3, $4, $5) RETURNING id),
     r AS (INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at)
           SELECT $6, s.id, 'active', 'session', $5, $7 FROM s)
     ${USER_ROW}`,
    [userId, sessionId, appId, randomToken(16), t, sha256(refreshToken), t + REFRESH_TTL_S],
  )
  return { user: userFromRow(rows[0])!, session: { sessionId, refreshToken } }
}

async function addRefreshToken(q: Queryable, sessionId: string, kind: 'session' | 'fork') {
  const token = randomToken(32)
  const t = now()
  await q.query(
    `INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at) VALUES ($1, $2, 'active', $3, $4, $5)`,
    [sha256(token), sessionId, kind, t, t + REFRESH_TTL_S],
  )
  return token
}

export interface Rotated<X = unknown> {
  userId: string
  sessionId: string
  familyId: string
  refreshToken: string
  /** The access token of the new pair (plain refreshes only). */
  accessToken?: string
  /** Result of `then`, run in the same transaction. */
  extra?: X
}

/**
 * Rotates a refresh token. A plain refresh (no `then`) stores its new pair sealed on the
 * rotated row: the same token presented again within `reuseIntervalS` (two tabs, a retry
 * after a lost answer) returns that same pair while the new token is still unused. Any
 * other reuse of a rotated token revokes its whole family (committed) and answers 401
 * missing_or_invalid_token, like any unknown or revoked token.
 */
export async function rotateRefreshToken<X = unknown>(
  d: Deps,
  appId: string,
  token: string,
  opts: {
    kind?: 'session' | 'fork'
    sessionId?: string
    reuseIntervalS?: number
    then?: (q: Queryable, r: Rotated) => Promise<X>
  } = {},
): Promise<Rotated<X>> {
  const hash = sha256(token)
  const out = await d.store.transaction(async (q): Promise<Rotated<X> | 'reuse' | null> => {
    const rows = await q.query<{
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
    }>(
      `SELECT rt.state, rt.kind, rt.expires_at, rt.used_at, rt.successor_hash, rt.successor_sealed, rt.session_id,
              s.user_id, s.family_id, s.app_id, s.revoked_at
       FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id
       WHERE rt.token_hash = $1 FOR UPDATE OF rt`,
      [hash],
    )
    const r = rows[0]
    if (!r || r.app_id !== appId) return null
    const t = now()
    if (r.state === 'rotated') {
      const interval = opts.reuseIntervalS ?? 0
      if (!opts.then && interval > 0 && r.successor_sealed && r.revoked_at == null && t - Number(r.used_at) <= interval) {
        const next = await q.query<{ state: string }>('SELECT state FROM refresh_tokens WHERE token_hash = $1', [r.successor_hash])
        if (next[0]?.state === 'active') {
          const pair = JSON.parse(await d.keys.open(r.successor_sealed, 'refresh-pair')) as { refresh_token: string; token: string }
          return { userId: r.user_id, sessionId: r.session_id, familyId: r.family_id, refreshToken: pair.refresh_token, accessToken: pair.token }
        }
      }
      await q.query('UPDATE sessions SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [r.family_id, t])
      await q.query(
        `UPDATE refresh_tokens SET state = 'revoked' WHERE state = 'active' AND session_id IN (SELECT id FROM sessions WHERE family_id = $1)`,
        [r.family_id],
      )
      return 'reuse'
    }
    if (r.state !== 'active' || r.revoked_at != null || Number(r.expires_at) <= t) return null
    if (opts.kind && r.kind !== opts.kind) return null
    if (opts.sessionId && r.session_id !== opts.sessionId) return null
    const refreshToken = await addRefreshToken(q, r.session_id, 'session')
    const rotated: Rotated<X> = { userId: r.user_id, sessionId: r.session_id, familyId: r.family_id, refreshToken }
    let sealed: string | null = null
    if (opts.then) rotated.extra = await opts.then(q, rotated)
    else {
      rotated.accessToken = await signAccessToken(d.signer, { userId: r.user_id, appId, sessionId: r.session_id })
      sealed = await d.keys.seal(JSON.stringify({ refresh_token: refreshToken, token: rotated.accessToken }), 'refresh-pair')
    }
    await q.query(
      `UPDATE refresh_tokens SET state = 'rotated', used_at = $2, successor_hash = $3, successor_sealed = $4 WHERE token_hash = $1`,
      [hash, t, sha256(refreshToken), sealed],
    )
    // The predecessor's sealed pair is no longer needed once its successor (this token) is used.
    await q.query('UPDATE refresh_tokens SET successor_sealed = NULL WHERE successor_hash = $1', [hash])
    return rotated
  })
  if (out === 'reuse') throw errors.invalidToken('Refresh token reuse detected; the session family was revoked')
  if (!out) throw errors.invalidToken()
  return out
}

/** Revokes the session of a refresh token (logout). Unknown tokens are ignored. */
export async function revokeByRefreshToken(store: Store, appId: string, token: string): Promise<void> {
  await store.transaction(async (q) => {
    const rows = await q.query<{ session_id: string }>(
      `SELECT rt.session_id FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id WHERE rt.token_hash = $1 AND s.app_id = $2`,
      [sha256(token), appId],
    )
    if (rows.length) await revokeSession(q, rows[0].session_id)
  })
}

export async function revokeSession(q: Queryable, sessionId: string) {
  await q.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, now()])
  await q.query(`UPDATE refresh_tokens SET state = 'revoked' WHERE session_id = $1 AND state = 'active'`, [sessionId])
}

/** Is the session alive (not revoked, user not deleted)? */
export async function sessionAlive(q: Queryable, sessionId: string, userId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
    sessionId,
    userId,
  ])
  return rows.length === 1
}

// ---------------------------------------------------------------- responses

export async function authResponse(
  d: Deps,
  appId: string,
  user: WireUser,
  session: { sessionId: string; refreshToken: string; accessToken?: string },
  isNewUser: boolean,
): Promise<WireAuthResponse> {
  const token = session.accessToken ?? (await signAccessToken(d.signer, { userId: user.id, appId, sessionId: session.sessionId }))
  return {
    user,
    token,
    privy_access_token: token,
    refresh_token: session.refreshToken,
    identity_token: await identityToken(d, appId, user),
    session_update_action: 'set',
    is_new_user: isNewUser,
  }
}

/** Link, update, unlink and transfer answers: the user, a fresh identity token, tokens untouched. */
export async function userResponse(d: Deps, appId: string, user: WireUser): Promise<WireAuthResponse> {
  return {
    user,
    token: null,
    privy_access_token: null,
    refresh_token: null,
    identity_token: await identityToken(d, appId, user),
    session_update_action: 'ignore',
    is_new_user: false,
  }
}

export function identityToken(d: Deps, appId: string, user: WireUser) {
  return signIdentityToken(d.signer, {
    userId: user.id,
    appId,
    isGuest: user.is_guest,
    createdAt: user.created_at,
    linkedAccounts: user.linked_accounts.map(({ verified_at, first_verified_at, ...rest }) => rest),
  })
}

// ---------------------------------------------------------------- flows

/** Retries once on a unique violation (two first logins racing for one identifier). */
async function retryUnique<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn()
    } catch (err) {
      if (i < 2 && isUniqueViolation(err)) continue
      throw err
    }
  }
}

/**
 * Log in with a verified identifier: existing account → its user; otherwise sign up
 * (unless mode is 'no-signup'), onto the current guest user when `guestUserId` is given.
 */
export async function loginWithAccount(
  d: Deps,
  app: AppSettings,
  acct: AccountInput,
  opts: {
    mode?: string
    guestUserId?: string | null
    /** Runs first in the same transaction (the code check); false commits its writes and answers 401. */
    verify?: (q: Queryable) => Promise<boolean>
  } = {},
): Promise<WireAuthResponse> {
  const r = await retryUnique(() =>
    d.store.transaction(async (q) => {
      if (opts.verify && !(await opts.verify(q))) return null
      // A returning account is found, locked and refreshed in one statement.
      const existing = (
        await q.query<{ user_id: string }>(
          `UPDATE accounts SET latest_verified_at = $4, data = data || $5::jsonb
           WHERE app_id = $1 AND type = $2 AND identifier = $3 RETURNING user_id`,
          [app.id, acct.type, acct.identifier, now(), JSON.stringify(acct.data)],
        )
      )[0]
      let userId: string
      let isNew = false
      if (existing) {
        userId = existing.user_id
      } else {
        if (opts.mode === 'no-signup') throw errors.userDoesNotExist()
        const guest = opts.guestUserId
          ? (await q.query<UserRow>('SELECT * FROM users WHERE id = $1 AND is_guest FOR UPDATE', [opts.guestUserId]))[0]
          : undefined
        if (guest) {
          userId = guest.id
          const mine = await q.query(`SELECT 1 FROM accounts WHERE user_id = $1 AND type = $2 AND ${NOT_EMBEDDED}`, [userId, acct.type])
          if (mine.length) throw errors.cannotLinkMore(acct.type)
          await q.query('UPDATE users SET is_guest = false WHERE id = $1', [userId])
          await insertAccount(q, app, userId, acct)
        } else {
          await enforceNewUserLimits(q, app)
          userId = newUserId()
          isNew = true
          const t = now()
          const session = { sessionId: randomToken(16), refreshToken: randomToken(32) }
          // One round trip: the user, its first account, its session and refresh token.
          await q.query(
            `WITH u AS (INSERT INTO users (id, app_id, created_at, is_guest) VALUES ($1, $2, $3, false) RETURNING id),
             a AS (INSERT INTO accounts (user_id, app_id, type, identifier, data, first_verified_at, latest_verified_at, created_at)
                   SELECT u.id, $2, $4, $5, $6, $3, $3, $3 FROM u),
             s AS (INSERT INTO sessions (id, user_id, app_id, family_id, created_at) SELECT $7, u.id, $2, $8, $3 FROM u RETURNING id)
             INSERT INTO refresh_tokens (token_hash, session_id, state, kind, created_at, expires_at)
             SELECT $9, s.id, 'active', 'session', $3, $10 FROM s`,
            [userId, app.id, t, acct.type, acct.identifier, JSON.stringify(acct.data), session.sessionId, randomToken(16), sha256(session.refreshToken), t + REFRESH_TTL_S],
          )
          // Known without reading it back.
          const user: WireUser = {
            id: userId,
            created_at: t,
            linked_accounts: [accountToWire({ type: acct.type, data: acct.data, first_verified_at: t, latest_verified_at: t } as AccountRow)],
            mfa_methods: [],
            has_accepted_terms: false,
            is_guest: false,
          }
          return { user, session, isNew }
        }
      }
      const { user, session } = await createSessionLoadUser(q, app.id, userId)
      return { user, session, isNew }
    }),
  )
  if (!r) throw errors.invalidCredentials(MSG.invalidCode)
  return authResponse(d, app.id, r.user, r.session, r.isNew)
}

/**
 * The one-account-per-type rule (spec part 1 section 5) counts what the user linked: the
 * embedded wallets the provider created (type 'wallet', connector type 'embedded') are not
 * linked accounts in that sense and never block linking an external wallet.
 */
const NOT_EMBEDDED = "NOT (type = 'wallet' AND coalesce(data->>'connector_type', '') = 'embedded')"

/** Link a verified identifier to the current user. */
export async function linkAccount(d: Deps, app: AppSettings, userId: string, acct: AccountInput): Promise<WireAuthResponse> {
  const r = await retryUnique(() =>
    d.store.transaction(async (q) => {
      const existing = await findAccount(q, app, acct.type, acct.identifier)
      if (existing && existing.user_id === userId) {
        await q.query('UPDATE accounts SET latest_verified_at = $2, data = data || $3::jsonb WHERE id = $1', [
          existing.id,
          now(),
          JSON.stringify(acct.data),
        ])
        return { user: (await loadUser(q, userId))! }
      }
      const mine = await q.query(`SELECT 1 FROM accounts WHERE user_id = $1 AND type = $2 AND ${NOT_EMBEDDED}`, [userId, acct.type])
      if (mine.length) throw errors.cannotLinkMore(acct.type)
      if (existing) {
        if (!acct.transferable) throw errors.linkedToAnother()
        // Committed before answering: the nonce authorises /transfer for 10 minutes.
        const nonce = randomToken(24)
        const t = now()
        await q.query(
          `INSERT INTO nonces (nonce, app_id, kind, subject, data, created_at, expires_at) VALUES ($1, $2, 'transfer', $3, $4, $5, $6)`,
          [
            nonce,
            app.id,
            `${acct.type}:${acct.identifier}`,
            JSON.stringify({ target_user_id: userId, from_user_id: existing.user_id, data: acct.data }),
            t,
            t + 600,
          ],
        )
        const transfer: WireAccountTransferData = {
          nonce,
          account: acct.displayName,
          account_type: acct.type,
          display_name: acct.displayName,
          link_method: acct.linkMethod,
          embedded_wallet_address: null,
          ...acct.transferInfo,
        }
        return { transfer }
      }
      await insertAccount(q, app, userId, acct)
      await q.query('UPDATE users SET is_guest = false WHERE id = $1', [userId])
      return { user: (await loadUser(q, userId))! }
    }),
  )
  if ('transfer' in r) {
    throw new ApiError(400, 'account_transfer_required', MSG.linkedToAnother, r.transfer as unknown as Record<string, unknown>)
  }
  return userResponse(d, app.id, r.user)
}

/**
 * Move an identifier from another user to the current one with a transfer nonce; the other
 * user is deleted with all its accounts and sessions. One transaction.
 */
export async function transferAccount(
  d: Deps,
  app: AppSettings,
  userId: string,
  nonce: string,
  type: string,
  identifier: string,
): Promise<WireAuthResponse> {
  const user = await d.store.transaction(async (q) => {
    const rows = await q.query<{ subject: string; data: { target_user_id: string } }>(
      `UPDATE nonces SET used_at = $3 WHERE nonce = $1 AND app_id = $2 AND kind = 'transfer' AND used_at IS NULL AND expires_at > $3
       RETURNING subject, data`,
      [nonce, app.id, now()],
    )
    const n = rows[0]
    if (!n || n.data.target_user_id !== userId || n.subject !== `${type}:${identifier}`) {
      throw errors.invalidCredentials('Invalid or expired transfer nonce')
    }
    const acc = await findAccount(q, app, type, identifier)
    if (!acc) throw errors.invalidData('The account to transfer no longer exists.')
    if (acc.user_id !== userId) {
      const mine = await q.query(`SELECT 1 FROM accounts WHERE user_id = $1 AND type = $2 AND ${NOT_EMBEDDED}`, [userId, type])
      if (mine.length) throw errors.cannotLinkMore(type)
      await q.query('UPDATE accounts SET user_id = $2, latest_verified_at = $3 WHERE id = $1', [acc.id, userId, now()])
      await q.query('DELETE FROM users WHERE id = $1', [acc.user_id])
      await q.query('UPDATE users SET is_guest = false WHERE id = $1', [userId])
    }
    return (await loadUser(q, userId))!
  })
  return userResponse(d, app.id, user)
}

/** Replace the user's e-mail or phone (already verified new value). */
export async function updateAccount(
  d: Deps,
  app: AppSettings,
  userId: string,
  type: 'email' | 'phone',
  oldIdentifier: string,
  acct: AccountInput,
): Promise<WireAuthResponse> {
  const user = await d.store.transaction(async (q) => {
    const mine = (
      await q.query<AccountRow>('SELECT * FROM accounts WHERE user_id = $1 AND type = $2 FOR UPDATE', [userId, type])
    )[0]
    if (!mine) throw errors.invalidData(type === 'email' ? MSG.needEmail : MSG.needPhone)
    if (mine.identifier !== oldIdentifier) {
      throw errors.invalidData(type === 'email' ? 'oldAddress does not match the linked email address.' : 'old_phone_number does not match the linked phone number.')
    }
    if (acct.identifier !== oldIdentifier) {
      const taken = await findAccount(q, app, type, acct.identifier)
      if (taken) throw errors.linkedToAnother()
      const t = now()
      await q.query(
        'UPDATE accounts SET identifier = $2, data = $3, first_verified_at = $4, latest_verified_at = $4 WHERE id = $1',
        [mine.id, acct.identifier, JSON.stringify(acct.data), t],
      )
    }
    return (await loadUser(q, userId))!
  })
  return userResponse(d, app.id, user)
}

/** Pre-check for update: the user must already have an account of this type. */
export async function requireAccountOfType(d: Deps, userId: string, type: 'email' | 'phone'): Promise<void> {
  const rows = await d.store.query('SELECT 1 FROM accounts WHERE user_id = $1 AND type = $2', [userId, type])
  if (!rows.length) throw errors.invalidData(type === 'email' ? MSG.needEmail : MSG.needPhone)
}

/** Unlink one of the user's accounts; the last one stays unless the user began as a guest. */
export async function unlinkAccount(
  d: Deps,
  app: AppSettings,
  userId: string,
  type: string,
  identifier: string,
  /** An error when this account may not be unlinked (e.g. a passkey enrolled in MFA). */
  refuse?: (data: Record<string, unknown>) => ApiError | undefined,
): Promise<WireAuthResponse> {
  const user = await d.store.transaction(async (q) => {
    const acc = await findAccount(q, app, type, identifier)
    if (!acc || acc.user_id !== userId) throw errors.invalidData(`No linked ${type} account ${identifier} on this user.`)
    const refused = refuse?.(acc.data)
    if (refused) throw refused
    const [{ n, guest }] = await q.query<{ n: number; guest: boolean }>(
      `SELECT (SELECT count(*)::int FROM accounts WHERE user_id = $1) AS n,
              EXISTS (SELECT 1 FROM users WHERE id = $1 AND guest_credential_hash IS NOT NULL) AS guest`,
      [userId],
    )
    // A user keeps a way to log in: the last account stays, except on a user that began as a
    // guest, which becomes a guest again (its guest credential logs in again).
    if (n <= 1 && !guest) throw errors.invalidData(MSG.lastAccount)
    await q.query('DELETE FROM accounts WHERE id = $1', [acc.id])
    if (n <= 1) await q.query('UPDATE users SET is_guest = true WHERE id = $1', [userId])
    return (await loadUser(q, userId))!
  })
  return userResponse(d, app.id, user)
}

/** Guest login: the same credential always gives the same user. */
export async function guestLogin(d: Deps, app: AppSettings, credential: string): Promise<WireAuthResponse> {
  const hash = sha256(`guest:${app.id}:${credential}`)
  const r = await retryUnique(() =>
    d.store.transaction(async (q) => {
      const rows = await q.query<{ id: string; is_guest: boolean }>('SELECT id, is_guest FROM users WHERE guest_credential_hash = $1', [hash])
      // Once the guest has linked an account, its credential no longer logs in (until that
      // account is unlinked again): the linked account does.
      if (rows[0] && !rows[0].is_guest) throw errors.invalidCredentials(MSG.upgradedGuest)
      let userId = rows[0]?.id
      let isNew = false
      if (!userId) {
        await enforceNewUserLimits(q, app)
        userId = await createUser(q, app, { isGuest: true, guestHash: hash })
        isNew = true
      }
      const { user, session } = await createSessionLoadUser(q, app.id, userId)
      return { user, session, isNew }
    }),
  )
  return authResponse(d, app.id, r.user, r.session, r.isNew)
}
