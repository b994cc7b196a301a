import { randomInt } from 'node:crypto'
import type { Queryable, Store } from './core/store'
import { MSG, errors } from './core/errors'
import type { Keys } from './keys'
import { now } from './core/identity/tokens'

/** One-time code, rate-limit and session settings (environment-configurable). */
export interface Limits {
  codeTtlS: number
  /** Wrong guesses one requester may make at an identifier's codes (per code life). */
  maxAttempts: number
  resendCooldownS: number
  windowS: number
  /** Code inits per identifier per requester per window; all requesters together get 4×. */
  perIdentifier: number
  perIp: number
  /** A rotated refresh token presented again within this many seconds returns the same new pair. */
  refreshReuseIntervalS: number
  /** Analytics events per IP per `analyticsWindowS` (a minute). */
  analyticsPerIp: number
  analyticsWindowS: number
}

/** Wrong guesses all requesters together may make at one code before it is dead. */
export const CODE_GUESS_CEILING = 4

export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): Limits {
  const n = (k: string, d: number) => (env[k] !== undefined && env[k] !== '' ? Number(env[k]) : d)
  return {
    codeTtlS: n('PORTICO_CODE_TTL_S', 600),
    maxAttempts: n('PORTICO_CODE_MAX_ATTEMPTS', 5),
    resendCooldownS: n('PORTICO_RESEND_COOLDOWN_S', 30),
    windowS: n('PORTICO_RATE_WINDOW_S', 600),
    perIdentifier: n('PORTICO_RATE_PER_IDENTIFIER', 5),
    perIp: n('PORTICO_RATE_PER_IP', 60),
    refreshReuseIntervalS: n('PORTICO_REFRESH_REUSE_INTERVAL_S', 10),
    analyticsPerIp: n('PORTICO_ANALYTICS_PER_IP', 120),
    analyticsWindowS: 60,
  }
}

/** Fixed-window counter in the DB; true while under `limit` (the hit is counted either way). */
export async function hitLimit(q: Queryable, key: string, limit: number, windowS: number, by = 1): Promise<boolean> {
  const t = now()
  const w = Math.max(1, windowS)
  const ws = t - (t % w)
  const rows = await q.query<{ count: number }>(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, $3)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + $3 RETURNING count`,
    [key, ws, by],
  )
  if (Math.random() < 0.002) {
    await q.query('DELETE FROM rate_limits WHERE window_start < $1', [t - 2 * w - 86400])
  }
  return rows[0].count <= limit
}

/** Start of the fixed window of `windowS` seconds holding time `t`. */
const windowStart = (t: number, windowS: number) => t - (t % Math.max(1, windowS))

/** Several counters in one round trip; true while every one is under its limit. */
export async function hitLimits(q: Queryable, hits: { key: string; limit: number; windowS: number }[], t = now()): Promise<boolean> {
  const starts = hits.map((h) => windowStart(t, h.windowS))
  const rows = await q.query<{ key: string; count: number }>(
    `INSERT INTO rate_limits (key, window_start, count) SELECT k, w, 1 FROM unnest($1::text[], $2::bigint[]) AS x(k, w)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING key, count`,
    [hits.map((h) => h.key), starts],
  )
  // Now and then, counters whose windows ended long ago (twice the longest window here, and a
  // day: a fixed "two days" deleted live counters of windows longer than a day).
  const longest = Math.max(...hits.map((h) => h.windowS))
  if (Math.random() < 0.002) await q.query('DELETE FROM rate_limits WHERE window_start < $1', [t - 2 * longest - 86400])
  const count = new Map(rows.map((r) => [r.key, Number(r.count)]))
  return hits.every((h) => (count.get(h.key) ?? 0) <= h.limit)
}

interface CodeKey {
  appId: string
  channel: 'email' | 'sms'
  identifier: string
  /** Who asks: the client IP (right-most trusted hop). */
  requester: string
}

/** Guess window: a code's life (at least a minute). */
const guessWindow = (l: Limits) => Math.max(60, l.codeTtlS)

/** Where a new code goes: the dev outbox row (written with the code) and the provider's send. */
export interface CodeDelivery {
  /** Development mode: the outbox row's address, written in the code's own statement. */
  outboxTo?: string
  /** Sends the code; throws (DeliveryError) when the provider fails. */
  send(code: string): Promise<void>
}

/**
 * Issues a 6-digit code for (app, channel, identifier) and delivers it. Limits: resend
 * cooldown and per-identifier quota per requester (another requester cannot spend the
 * victim's quota), 4× that for everyone, per IP. A requester's new code replaces that
 * requester's earlier one.
 *
 * The counts and the code commit in one transaction (BEGIN travels with the counters, then
 * the code statement, which also writes the dev outbox row, then COMMIT); the provider is
 * called after the commit, so a slow mail relay or SMS API holds no lock (on PGlite: not the
 * whole database; on PostgreSQL: not the requester's counter row, which every init from
 * that address needs). An undelivered code is then withdrawn in one statement: the code and
 * its outbox row deleted, its three counts given back, so the retry is neither refused by
 * the cooldown nor charged. The earlier code it replaced stays retired.
 */
export async function issueCode(store: Store, limits: Limits, keys: Keys, p: CodeKey, delivery: CodeDelivery): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const id = `${p.appId}:${p.channel}:${p.identifier}`
  const hits = [
    { key: `code-ip:${p.requester}`, limit: limits.perIp, windowS: limits.windowS },
    { key: `code-id:${id}:${p.requester}`, limit: limits.perIdentifier, windowS: limits.windowS },
    { key: `code-id-all:${id}`, limit: limits.perIdentifier * 4, windowS: limits.windowS },
  ]
  const issued = await store.transaction(async (q) => {
    const t = now()
    if (Math.random() < 0.002) await q.query('DELETE FROM otp_codes WHERE expires_at < $1', [t - 86400])
    // Two statements in one round trip (pipelined, with BEGIN): the counters, whose row locks
    // serialise concurrent inits for this identifier and requester; then the requester's
    // cooldown, its earlier code replaced, the new one stored (and in development mode its
    // outbox row). The second runs after the first, with a snapshot taken once the locks are
    // held, so it sees a concurrent init's code. Over a limit, the transaction rolls back
    // whatever both wrote (a refused request costs nothing).
    const [ok, rows] = await Promise.all([
      hitLimits(q, hits, t),
      q.query<{ code_id: string | null; outbox_id: string | null }>(
        `WITH last AS (
           SELECT max(created_at) AS at FROM otp_codes
           WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND requester = $5),
         fresh AS (SELECT NOT EXISTS (SELECT 1 FROM last WHERE at > $6::bigint - $8::bigint) AS ok),
         old AS (
           UPDATE otp_codes SET consumed_at = $6
           WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND requester = $5 AND consumed_at IS NULL
             AND (SELECT ok FROM fresh)),
         ins AS (
           INSERT INTO otp_codes (app_id, channel, identifier, code_hash, requester, created_at, expires_at)
           SELECT $1, $2, $3, $4, $5, $6, $7 WHERE (SELECT ok FROM fresh) RETURNING id),
         box AS (
           INSERT INTO outbox (app_id, channel, to_addr, code, sent_at)
           SELECT $1, $2, $9, $10, $6 FROM ins WHERE $9::text IS NOT NULL RETURNING id)
         SELECT (SELECT id FROM ins)::text AS code_id, (SELECT id FROM box)::text AS outbox_id`,
        [
          p.appId,
          p.channel,
          p.identifier,
          keys.codeHash([p.appId, p.channel, p.identifier, code]),
          p.requester,
          t,
          t + limits.codeTtlS,
          limits.resendCooldownS,
          delivery.outboxTo ?? null,
          delivery.outboxTo === undefined ? null : code,
        ],
      ),
    ])
    if (!ok) throw errors.tooMany()
    if (!rows[0]?.code_id) throw errors.tooMany('A code was sent recently. Please wait before requesting another one.')
    return { codeId: rows[0].code_id, outboxId: rows[0].outbox_id, t }
  })
  try {
    await delivery.send(code)
  } catch (err) {
    // Withdrawn: the code, its outbox row and its counts (one statement, atomic on its own).
    await store.query(
      `WITH c AS (DELETE FROM otp_codes WHERE id = $1::bigint),
       o AS (DELETE FROM outbox WHERE id = $2::bigint)
       UPDATE rate_limits SET count = count - 1
       FROM unnest($3::text[], $4::bigint[]) AS x(k, w) WHERE key = x.k AND window_start = x.w`,
      [issued.codeId, issued.outboxId, hits.map((h) => h.key), hits.map((h) => windowStart(issued.t, h.windowS))],
    )
    throw err
  }
}

/**
 * Checks a code against the identifier's live codes and consumes them all when it matches,
 * inside the caller's transaction `q` (a login runs it in its own transaction). Wrong
 * guesses are counted per requester (after `maxAttempts` that requester is refused, even
 * with the right code) and per code (after CODE_GUESS_CEILING × maxAttempts from everyone the
 * code is dead): an attacker's guesses do not lock the victim out. Returns false when wrong;
 * the caller commits (so the wrong guess counts) and answers 401.
 */
export async function checkCode(q: Queryable, limits: Limits, keys: Keys, p: CodeKey & { code: string }): Promise<boolean> {
  const code = p.code.replace(/\s+/g, '')
  const t = now()
  const gw = guessWindow(limits)
  const guessKey = `guess:${p.appId}:${p.channel}:${p.identifier}:${p.requester}`
  const base = [p.appId, p.channel, p.identifier, t, limits.maxAttempts * CODE_GUESS_CEILING, guessKey, t - (t % gw), limits.maxAttempts]
  if (/^\d{6}$/.test(code)) {
    // One round trip: consume the matching live code (row locks make it single use) and,
    // when it matched, the identifier's other live codes; refused once this requester has
    // used up its guesses.
    const r = await q.query<{ hits: number }>(
      `WITH hit AS (
         UPDATE otp_codes SET consumed_at = $4
         WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL AND expires_at > $4
           AND attempts < $5 AND code_hash = $9
           AND (SELECT coalesce(max(count), 0) FROM rate_limits WHERE key = $6 AND window_start = $7) < $8
         RETURNING id),
       rest AS (
         UPDATE otp_codes SET consumed_at = $4
         WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL
           AND EXISTS (SELECT 1 FROM hit) AND id NOT IN (SELECT id FROM hit))
       SELECT count(*)::int AS hits FROM hit`,
      [...base, keys.codeHash([p.appId, p.channel, p.identifier, code])],
    )
    if (Number(r[0]?.hits) > 0) return true
  }
  // A wrong guess: counted against this requester, and against the live codes while the
  // requester still had guesses left.
  await q.query(
    `WITH a AS (
       UPDATE otp_codes SET attempts = attempts + 1
       WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL AND expires_at > $4 AND attempts < $5
         AND (SELECT coalesce(max(count), 0) FROM rate_limits WHERE key = $6 AND window_start = $7) < $8)
     INSERT INTO rate_limits (key, window_start, count) VALUES ($6, $7, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1`,
    base,
  )
  return false
}

/** checkCode in its own transaction (link, update); throws 401 invalid_credentials when wrong. */
export async function consumeCode(store: Store, limits: Limits, keys: Keys, p: CodeKey & { code: string }): Promise<void> {
  const ok = await store.transaction((q) => checkCode(q, limits, keys, p))
  if (!ok) throw errors.invalidCredentials(MSG.invalidCode)
}
