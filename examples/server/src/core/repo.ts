/** core's own queries: rate-limit counters, one-time codes, the dev outbox's notices. */
import type { Queryable } from './store'

export async function secretFailures(q: Queryable, key: string, window: number): Promise<number> {
  const [row] = await q.query<{ count: number }>('SELECT count FROM rate_limits WHERE key = $1 AND window_start = $2', [key, window])
  return row ? Number(row.count) : 0
}

export async function countSecretFailure(q: Queryable, key: string, window: number): Promise<void> {
  await q.query(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1`,
    [key, window],
  )
}

/** Counts a hit on a fixed-window counter and returns its count; now and then drops counters older than `staleBefore`. */
export async function countHit(q: Queryable, key: string, windowStart: number, by: number, staleBefore: number): Promise<number> {
  const rows = await q.query<{ count: number }>(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, $3)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + $3 RETURNING count`,
    [key, windowStart, by],
  )
  if (Math.random() < 0.002) {
    await q.query('DELETE FROM rate_limits WHERE window_start < $1', [staleBefore])
  }
  return rows[0].count
}

/** Counts one hit on each counter in one round trip; the counts by key. Now and then drops counters older than `staleBefore`. */
export async function countHits(q: Queryable, keys: string[], windowStarts: number[], staleBefore: number): Promise<Map<string, number>> {
  const rows = await q.query<{ key: string; count: number }>(
    `INSERT INTO rate_limits (key, window_start, count) SELECT k, w, 1 FROM unnest($1::text[], $2::bigint[]) AS x(k, w)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING key, count`,
    [keys, windowStarts],
  )
  if (Math.random() < 0.002) await q.query('DELETE FROM rate_limits WHERE window_start < $1', [staleBefore])
  return new Map(rows.map((r) => [r.key, Number(r.count)]))
}

/** Removes one-time codes that expired before `before`. */
export async function deleteExpiredCodes(q: Queryable, before: number): Promise<void> {
  await q.query('DELETE FROM otp_codes WHERE expires_at < $1', [before])
}

export interface NewCode {
  appId: string
  channel: string
  identifier: string
  codeHash: string
  requester: string
  t: number
  expiresAt: number
  cooldownS: number
  /** Development mode: the outbox row's address and the code written in the same statement. */
  outboxTo: string | null
  outboxCode: string | null
}

/**
 * In one statement: unless the requester's last code is younger than the cooldown, retires the
 * requester's earlier live codes, stores the new one and (development mode) its outbox row.
 * `codeId` null: refused by the cooldown.
 */
export async function insertCode(q: Queryable, c: NewCode): Promise<{ codeId: string | null; outboxId: string | null }> {
  const rows = await q.query<{ code_id: string | null; outbox_id: string | null }>(
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
    [c.appId, c.channel, c.identifier, c.codeHash, c.requester, c.t, c.expiresAt, c.cooldownS, c.outboxTo, c.outboxCode],
  )
  return { codeId: rows[0]?.code_id ?? null, outboxId: rows[0]?.outbox_id ?? null }
}

/** Withdraws an undelivered code in one statement (atomic on its own): the code, its outbox row and its counts. */
export async function withdrawCode(q: Queryable, codeId: string, outboxId: string | null, counterKeys: string[], windowStarts: number[]): Promise<void> {
  await q.query(
    `WITH c AS (DELETE FROM otp_codes WHERE id = $1::bigint),
     o AS (DELETE FROM outbox WHERE id = $2::bigint)
     UPDATE rate_limits SET count = count - 1
     FROM unnest($3::text[], $4::bigint[]) AS x(k, w) WHERE key = x.k AND window_start = x.w`,
    [codeId, outboxId, counterKeys, windowStarts],
  )
}

export interface CodeGuess {
  appId: string
  channel: string
  identifier: string
  t: number
  /** Wrong guesses from everyone after which a code is dead. */
  codeCeiling: number
  /** The requester's guess counter and its window, and how many guesses it may make. */
  guessKey: string
  guessWindowStart: number
  maxAttempts: number
}

/**
 * In one round trip: consumes the matching live code (row locks make it single use) and, when
 * it matched, the identifier's other live codes; nothing once the requester has used up its
 * guesses. True when a code matched.
 */
export async function consumeMatchingCode(q: Queryable, g: CodeGuess, codeHash: string): Promise<boolean> {
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
    [...guessParams(g), codeHash],
  )
  return Number(r[0]?.hits) > 0
}

/** A wrong guess: counted against the requester, and against the live codes while the requester still had guesses left. */
export async function countWrongGuess(q: Queryable, g: CodeGuess): Promise<void> {
  await q.query(
    `WITH a AS (
       UPDATE otp_codes SET attempts = attempts + 1
       WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL AND expires_at > $4 AND attempts < $5
         AND (SELECT coalesce(max(count), 0) FROM rate_limits WHERE key = $6 AND window_start = $7) < $8)
     INSERT INTO rate_limits (key, window_start, count) VALUES ($6, $7, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1`,
    guessParams(g),
  )
}

const guessParams = (g: CodeGuess) => [g.appId, g.channel, g.identifier, g.t, g.codeCeiling, g.guessKey, g.guessWindowStart, g.maxAttempts]

/** Development mode: a notice (not a code) in the dev outbox. */
export async function insertOutboxNotice(q: Queryable, m: { appId: string; channel: string; to: string; text: string; t: number }): Promise<void> {
  await q.query(`INSERT INTO outbox (app_id, channel, to_addr, code, sent_at, kind) VALUES ($1, $2, $3, $4, $5, 'notice')`, [m.appId, m.channel, m.to, m.text, m.t])
}

/** Stores a sign-in nonce (SIWE / SIWS / Farcaster); now and then removes nonces a day past their expiry. */
export async function insertSignInNonce(q: Queryable, n: { nonce: string; appId: string; kind: string; subject: string; t: number; expiresAt: number }): Promise<void> {
  await q.query('INSERT INTO nonces (nonce, app_id, kind, subject, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [n.nonce, n.appId, n.kind, n.subject, n.t, n.expiresAt])
  if (Math.random() < 0.01) await q.query('DELETE FROM nonces WHERE expires_at < $1', [n.t - 86400])
}

/** Marks the nonce used; false when unknown, for another subject, used or expired. */
export async function useSignInNonce(q: Queryable, n: { nonce: string; appId: string; kind: string; subject: string }, t: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE nonces SET used_at = $5 WHERE nonce = $1 AND app_id = $2 AND kind = $3 AND subject = $4
     AND used_at IS NULL AND expires_at > $5 RETURNING nonce`,
    [n.nonce, n.appId, n.kind, n.subject, t],
  )
  return rows.length === 1
}

/** The readiness probe's round trip. */
export async function ping(q: Queryable): Promise<void> {
  await q.query('SELECT 1')
}

/**
 * A column sealed at rest (key rotation): its table, the columns that name a row, the sealed
 * value (a column, or a text field of a jsonb column) and the rows it applies to.
 */
export interface SealedColumn {
  table: string
  key: string[]
  column: string
  /** The value is this text field of the jsonb `column`. */
  jsonField?: string
  /** Only rows whose column equals the value (e.g. recovery_method 'privy'). */
  only?: { column: string; equals: string }
}

const sealedValue = (s: SealedColumn) => (s.jsonField ? `${s.column}->>'${s.jsonField}'` : s.column)

/** Every row's key and sealed value (rows holding one), locked FOR UPDATE. */
export async function lockSealed(q: Queryable, s: SealedColumn): Promise<{ k: unknown[]; v: string }[]> {
  const where = [`${sealedValue(s)} IS NOT NULL`, ...(s.only ? [`${s.only.column} = '${s.only.equals}'`] : [])].join(' AND ')
  const rows = await q.query<Record<string, unknown>>(`SELECT ${s.key.join(', ')}, ${sealedValue(s)} AS sealed FROM ${s.table} WHERE ${where} FOR UPDATE`)
  return rows.map((r) => ({ k: s.key.map((c) => r[c]), v: String(r.sealed) }))
}

/** Writes a row's re-sealed value. */
export async function updateSealed(q: Queryable, s: SealedColumn, k: unknown[], v: string): Promise<void> {
  const where = [...s.key.map((c, i) => `${c} = $${i + 1}`), ...(s.only ? [`${s.only.column} = '${s.only.equals}'`] : [])].join(' AND ')
  const value = `$${s.key.length + 1}`
  const set = s.jsonField ? `${s.column} = jsonb_set(${s.column}, '{${s.jsonField}}', to_jsonb(${value}::text))` : `${s.column} = ${value}`
  await q.query(`UPDATE ${s.table} SET ${set} WHERE ${where}`, [...k, v])
}
