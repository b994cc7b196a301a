/** Sessions: creation, refresh-token rotation with reuse detection, revocation, liveness. */
import type { WireUser } from '../../wire'
import { errors } from '../errors'
import { isUniqueViolation, type Queryable } from '../store'
import * as repo from './repo'
import { REFRESH_TTL_S, now, randomToken, sha256, signAccessToken, type Deps } from './tokens'
import { userFromRow } from './users'

export { sessionAlive, isGuestSession } from './repo'

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
  await repo.insertSession(q, {
    sessionId,
    userId,
    appId,
    familyId: opts.familyId ?? randomToken(16),
    t,
    refreshHash: sha256(refreshToken),
    kind: opts.kind ?? 'session',
    expiresAt: t + REFRESH_TTL_S,
  })
  return { sessionId, refreshToken }
}

/**
 * A login's session (a new family) with its first refresh token, and the user read back,
 * in one round trip (the session rows do not change what the user query reads).
 */
export async function createSessionLoadUser(q: Queryable, appId: string, userId: string, method: string | null = null): Promise<{ user: WireUser; session: { sessionId: string; refreshToken: string } }> {
  const sessionId = randomToken(16)
  const refreshToken = randomToken(32)
  const t = now()
  const row = await repo.insertSessionSelectUser(q, { userId, sessionId, appId, familyId: randomToken(16), t, refreshHash: sha256(refreshToken), expiresAt: t + REFRESH_TTL_S, method })
  return { user: userFromRow(row)!, session: { sessionId, refreshToken } }
}

/** A new session family's ids and first refresh token, for a first login's one-statement insert. */
export function newSessionTokens() {
  return { sessionId: randomToken(16), refreshToken: randomToken(32), familyId: randomToken(16) }
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
    const r = await repo.lockRefreshToken(q, hash)
    if (!r || r.app_id !== appId) return null
    const t = now()
    if (r.state === 'rotated') {
      const interval = opts.reuseIntervalS ?? 0
      if (!opts.then && interval > 0 && r.successor_sealed && r.revoked_at == null && t - Number(r.used_at) <= interval) {
        if ((await repo.refreshTokenState(q, r.successor_hash)) === 'active') {
          const pair = JSON.parse(await d.keys.open(r.successor_sealed, 'refresh-pair')) as { refresh_token: string; token: string }
          return { userId: r.user_id, sessionId: r.session_id, familyId: r.family_id, refreshToken: pair.refresh_token, accessToken: pair.token }
        }
      }
      await repo.revokeFamily(q, r.family_id, t)
      return 'reuse'
    }
    if (r.state !== 'active' || r.revoked_at != null || Number(r.expires_at) <= t) return null
    if (opts.kind && r.kind !== opts.kind) return null
    if (opts.sessionId && r.session_id !== opts.sessionId) return null
    const refreshToken = randomToken(32)
    await repo.insertRefreshToken(q, { hash: sha256(refreshToken), sessionId: r.session_id, kind: 'session', t, expiresAt: t + REFRESH_TTL_S })
    const rotated: Rotated<X> = { userId: r.user_id, sessionId: r.session_id, familyId: r.family_id, refreshToken }
    let sealed: string | null = null
    if (opts.then) rotated.extra = await opts.then(q, rotated)
    else {
      rotated.accessToken = await signAccessToken(d.signer, { userId: r.user_id, appId, sessionId: r.session_id })
      sealed = await d.keys.seal(JSON.stringify({ refresh_token: refreshToken, token: rotated.accessToken }), 'refresh-pair')
    }
    // The predecessor's sealed pair is no longer needed once its successor (this token) is used.
    await repo.markRotated(q, hash, t, sha256(refreshToken), sealed)
    return rotated
  })
  if (out === 'reuse') throw errors.invalidToken('Refresh token reuse detected; the session family was revoked')
  if (!out) throw errors.invalidToken()
  return out
}

/** Revokes the session of a refresh token (logout). Unknown tokens are ignored. */
export async function revokeByRefreshToken(store: Deps['store'], appId: string, token: string): Promise<void> {
  await store.transaction(async (q) => {
    const sessionId = await repo.sessionOfRefreshToken(q, sha256(token), appId)
    if (sessionId) await revokeSession(q, sessionId)
  })
}

export async function revokeSession(q: Queryable, sessionId: string) {
  await repo.revokeSession(q, sessionId, now())
}

/** Retries once on a unique violation (two first logins racing for one identifier). */
export async function retryUnique<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn()
    } catch (err) {
      if (i < 2 && isUniqueViolation(err)) continue
      throw err
    }
  }
}
