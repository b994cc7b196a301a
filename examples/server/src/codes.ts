import { randomInt } from 'node:crypto'
import type { Queryable, Store } from './core/store'
import { MSG, errors } from './core/errors'
import type { Keys } from './keys'
import { now } from './core/identity/tokens'
import { consumeMatchingCode, countHit, countHits, countWrongGuess, deleteExpiredCodes, insertCode, withdrawCode, type CodeGuess } from './core/repo'

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
  return (await countHit(q, key, ws, by, t - 2 * w - 86400)) <= limit
}

/** Start of the fixed window of `windowS` seconds holding time `t`. */
const windowStart = (t: number, windowS: number) => t - (t % Math.max(1, windowS))

/** Several counters in one round trip; true while every one is under its limit. */
export async function hitLimits(q: Queryable, hits: { key: string; limit: number; windowS: number }[], t = now()): Promise<boolean> {
  const starts = hits.map((h) => windowStart(t, h.windowS))
  // Now and then, counters whose windows ended long ago (twice the longest window here, and a
  // day: a fixed "two days" deleted live counters of windows longer than a day).
  const longest = Math.max(...hits.map((h) => h.windowS))
  const count = await countHits(
    q,
    hits.map((h) => h.key),
    starts,
    t - 2 * longest - 86400,
  )
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
    if (Math.random() < 0.002) await deleteExpiredCodes(q, t - 86400)
    // Two statements in one round trip (pipelined, with BEGIN): the counters, whose row locks
    // serialise concurrent inits for this identifier and requester; then the requester's
    // cooldown, its earlier code replaced, the new one stored (and in development mode its
    // outbox row). The second runs after the first, with a snapshot taken once the locks are
    // held, so it sees a concurrent init's code. Over a limit, the transaction rolls back
    // whatever both wrote (a refused request costs nothing).
    const [ok, row] = await Promise.all([
      hitLimits(q, hits, t),
      insertCode(q, {
        appId: p.appId,
        channel: p.channel,
        identifier: p.identifier,
        codeHash: keys.codeHash([p.appId, p.channel, p.identifier, code]),
        requester: p.requester,
        t,
        expiresAt: t + limits.codeTtlS,
        cooldownS: limits.resendCooldownS,
        outboxTo: delivery.outboxTo ?? null,
        outboxCode: delivery.outboxTo === undefined ? null : code,
      }),
    ])
    if (!ok) throw errors.tooMany()
    if (!row.codeId) throw errors.tooMany('A code was sent recently. Please wait before requesting another one.')
    return { codeId: row.codeId, outboxId: row.outboxId, t }
  })
  try {
    await delivery.send(code)
  } catch (err) {
    // Withdrawn: the code, its outbox row and its counts (one statement, atomic on its own).
    await withdrawCode(
      store,
      issued.codeId,
      issued.outboxId,
      hits.map((h) => h.key),
      hits.map((h) => windowStart(issued.t, h.windowS)),
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
  const g: CodeGuess = {
    appId: p.appId,
    channel: p.channel,
    identifier: p.identifier,
    t,
    codeCeiling: limits.maxAttempts * CODE_GUESS_CEILING,
    guessKey,
    guessWindowStart: t - (t % gw),
    maxAttempts: limits.maxAttempts,
  }
  // A matching live code is consumed (with the identifier's other live codes), unless this
  // requester has used up its guesses.
  if (/^\d{6}$/.test(code) && (await consumeMatchingCode(q, g, keys.codeHash([p.appId, p.channel, p.identifier, code])))) return true
  // A wrong guess: counted against this requester, and against the live codes while the
  // requester still had guesses left.
  await countWrongGuess(q, g)
  return false
}

/** checkCode in its own transaction (link, update); throws 401 invalid_credentials when wrong. */
export async function consumeCode(store: Store, limits: Limits, keys: Keys, p: CodeKey & { code: string }): Promise<void> {
  const ok = await store.transaction((q) => checkCode(q, limits, keys, p))
  if (!ok) throw errors.invalidCredentials(MSG.invalidCode)
}
