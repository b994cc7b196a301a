import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import type { Queryable, Store } from './store'
import { MSG, errors } from './errors'
import { now, randomToken } from './tokens'

/** One-time code and rate-limit settings (env-configurable so the load test can raise limits). */
export interface Limits {
  codeTtlS: number
  maxAttempts: number
  resendCooldownS: number
  windowS: number
  perIdentifier: number
  perIp: number
}

export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): Limits {
  const n = (k: string, d: number) => (env[k] !== undefined && env[k] !== '' ? Number(env[k]) : d)
  return {
    codeTtlS: n('PORTICO_CODE_TTL_S', 600),
    maxAttempts: n('PORTICO_CODE_MAX_ATTEMPTS', 5),
    resendCooldownS: n('PORTICO_RESEND_COOLDOWN_S', 30),
    windowS: n('PORTICO_RATE_WINDOW_S', 600),
    perIdentifier: n('PORTICO_RATE_PER_IDENTIFIER', 5),
    perIp: n('PORTICO_RATE_PER_IP', 60),
  }
}

/** Fixed-window counter in the DB; true while under `limit`. */
export async function hitLimit(q: Queryable, key: string, limit: number, windowS: number): Promise<boolean> {
  const t = now()
  const ws = t - (t % windowS)
  const rows = await q.query<{ count: number }>(
    `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
    [key, ws],
  )
  if (Math.random() < 0.01) {
    await q.query('DELETE FROM rate_limits WHERE window_start < $1', [t - 2 * windowS - 86400])
  }
  return rows[0].count <= limit
}

const hashCode = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex')

/**
 * Issues a 6-digit code for (app, channel, identifier): resend cooldown, per-IP and
 * per-identifier limits, older codes for the same identifier invalidated. Returns the code.
 */
export async function issueCode(
  store: Store,
  limits: Limits,
  p: { appId: string; channel: 'email' | 'sms'; identifier: string; ip: string },
): Promise<string> {
  return store.transaction(async (q) => {
    const t = now()
    await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`code:${p.appId}:${p.channel}:${p.identifier}`])
    const last = await q.query<{ created_at: number }>(
      'SELECT created_at FROM otp_codes WHERE app_id = $1 AND channel = $2 AND identifier = $3 ORDER BY created_at DESC LIMIT 1',
      [p.appId, p.channel, p.identifier],
    )
    if (last.length && t - Number(last[0].created_at) < limits.resendCooldownS) {
      throw errors.tooMany('A code was sent recently. Please wait before requesting another one.')
    }
    if (!(await hitLimit(q, `code-ip:${p.ip}`, limits.perIp, limits.windowS))) throw errors.tooMany()
    if (!(await hitLimit(q, `code-id:${p.appId}:${p.channel}:${p.identifier}`, limits.perIdentifier, limits.windowS))) {
      throw errors.tooMany()
    }
    if (Math.random() < 0.01) await q.query('DELETE FROM otp_codes WHERE expires_at < $1', [t - 86400])
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
    const salt = randomToken(16)
    await q.query(
      'UPDATE otp_codes SET consumed_at = $4 WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL',
      [p.appId, p.channel, p.identifier, t],
    )
    await q.query(
      `INSERT INTO otp_codes (app_id, channel, identifier, code_hash, salt, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [p.appId, p.channel, p.identifier, hashCode(salt, code), salt, t, t + limits.codeTtlS],
    )
    return code
  })
}

/**
 * Checks and consumes a code in its own transaction (so a wrong try is counted even when
 * the caller fails later). Throws 401 invalid_credentials when wrong, expired, used or
 * after `maxAttempts` wrong tries.
 */
export async function consumeCode(
  store: Store,
  limits: Limits,
  p: { appId: string; channel: 'email' | 'sms'; identifier: string; code: string },
): Promise<void> {
  const code = p.code.replace(/\s+/g, '')
  const ok = await store.transaction(async (q) => {
    const rows = await q.query<{ id: number; code_hash: string; salt: string; expires_at: number; attempts: number }>(
      `SELECT id, code_hash, salt, expires_at, attempts FROM otp_codes
       WHERE app_id = $1 AND channel = $2 AND identifier = $3 AND consumed_at IS NULL
       ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [p.appId, p.channel, p.identifier],
    )
    const row = rows[0]
    if (!row || Number(row.expires_at) <= now() || row.attempts >= limits.maxAttempts) return false
    const a = Buffer.from(hashCode(row.salt, code), 'hex')
    const b = Buffer.from(row.code_hash, 'hex')
    if (!/^\d{6}$/.test(code) || !timingSafeEqual(a, b)) {
      await q.query('UPDATE otp_codes SET attempts = attempts + 1 WHERE id = $1', [row.id])
      return false
    }
    const upd = await q.query('UPDATE otp_codes SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL RETURNING id', [
      row.id,
      now(),
    ])
    return upd.length === 1
  })
  if (!ok) throw errors.invalidCredentials(MSG.invalidCode)
}
