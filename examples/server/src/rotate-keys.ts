/**
 * Key rotation (issue 26, 'Keys at rest'): re-wraps every record sealed at rest to the current
 * keys. Run it after setting the new PORTICO_SECRET / PORTICO_RECOVERY_KEY with the old ones in
 * PORTICO_SECRET_PREVIOUS / PORTICO_RECOVERY_KEY_PREVIOUS:
 *
 *   npm run rotate-keys --prefix examples/server      (= tsx src/main.ts rotate-keys)
 *
 * Each record is opened with whichever key its header names and sealed again under the current
 * key, one transaction per table (rows locked), so a crash leaves every record readable by the
 * current or a previous key. Records already under the current key are left alone: a second run
 * changes nothing (idempotent). Once it reports no `remaining`, the previous keys can go.
 */
import { AUTH_SHARE_PURPOSE, RECOVERY_SHARE_PURPOSE } from './features/wallets/keys'
import { OPRF_KEY_PURPOSE } from './features/wallet-password/service'
import type { Keys } from './keys'
import type { Queryable, Store } from './core/store'

export interface RotationKeys {
  /** The server secret's keys (current + previous). */
  secret: Keys
  /** The recovery key's keys (current + previous). */
  recovery: Keys
}

interface Target {
  /** A name for the report. */
  name: string
  keys: 'secret' | 'recovery'
  purpose: string
  /** Rows: a row key (opaque to the loop) and the sealed value; locked FOR UPDATE. */
  select: (q: Queryable) => Promise<{ k: unknown[]; v: string }[]>
  update: (q: Queryable, k: unknown[], v: string) => Promise<unknown>
}

const TARGETS: Target[] = [
  {
    name: 'signing_keys.private_jwe',
    keys: 'secret',
    purpose: 'signing-key',
    select: async (q) =>
      (await q.query<{ name: string; private_jwe: string }>('SELECT name, private_jwe FROM signing_keys WHERE private_jwe IS NOT NULL FOR UPDATE')).map((r) => ({ k: [r.name], v: r.private_jwe })),
    update: (q, k, v) => q.query('UPDATE signing_keys SET private_jwe = $2 WHERE name = $1', [...k, v]),
  },
  {
    name: 'embedded_wallet_roots.auth_share',
    keys: 'secret',
    purpose: AUTH_SHARE_PURPOSE,
    select: async (q) =>
      (await q.query<{ app_id: string; entropy_id: string; auth_share: string }>('SELECT app_id, entropy_id, auth_share FROM embedded_wallet_roots FOR UPDATE')).map((r) => ({
        k: [r.app_id, r.entropy_id],
        v: r.auth_share,
      })),
    update: (q, k, v) => q.query('UPDATE embedded_wallet_roots SET auth_share = $3 WHERE app_id = $1 AND entropy_id = $2', [...k, v]),
  },
  {
    name: 'embedded_wallet_roots.recovery_share (privy)',
    keys: 'recovery',
    purpose: RECOVERY_SHARE_PURPOSE,
    select: async (q) =>
      (
        await q.query<{ app_id: string; entropy_id: string; recovery_share: string }>(
          "SELECT app_id, entropy_id, recovery_share FROM embedded_wallet_roots WHERE recovery_method = 'privy' FOR UPDATE",
        )
      ).map((r) => ({ k: [r.app_id, r.entropy_id], v: r.recovery_share })),
    update: (q, k, v) => q.query('UPDATE embedded_wallet_roots SET recovery_share = $3 WHERE app_id = $1 AND entropy_id = $2', [...k, v]),
  },
  {
    name: 'embedded_wallet_share_history.auth_share',
    keys: 'secret',
    purpose: AUTH_SHARE_PURPOSE,
    select: async (q) =>
      (await q.query<{ id: string; auth_share: string }>('SELECT id, auth_share FROM embedded_wallet_share_history FOR UPDATE')).map((r) => ({ k: [r.id], v: r.auth_share })),
    update: (q, k, v) => q.query('UPDATE embedded_wallet_share_history SET auth_share = $2 WHERE id = $1', [...k, v]),
  },
  {
    name: 'embedded_wallet_share_history.recovery_share (privy)',
    keys: 'recovery',
    purpose: RECOVERY_SHARE_PURPOSE,
    select: async (q) =>
      (await q.query<{ id: string; recovery_share: string }>("SELECT id, recovery_share FROM embedded_wallet_share_history WHERE recovery_method = 'privy' FOR UPDATE")).map((r) => ({
        k: [r.id],
        v: r.recovery_share,
      })),
    update: (q, k, v) => q.query('UPDATE embedded_wallet_share_history SET recovery_share = $2 WHERE id = $1', [...k, v]),
  },
  {
    name: 'wallet_password_oprf.oprf_key',
    keys: 'recovery',
    purpose: OPRF_KEY_PURPOSE,
    select: async (q) =>
      (await q.query<{ app_id: string; entropy_id: string; oprf_key: string }>('SELECT app_id, entropy_id, oprf_key FROM wallet_password_oprf FOR UPDATE')).map((r) => ({
        k: [r.app_id, r.entropy_id],
        v: r.oprf_key,
      })),
    update: (q, k, v) => q.query('UPDATE wallet_password_oprf SET oprf_key = $3 WHERE app_id = $1 AND entropy_id = $2', [...k, v]),
  },
  ...(['mfa_methods', 'mfa_pending'] as const).map(
    (table): Target => ({
      name: `${table}.data.secret (totp)`,
      keys: 'secret',
      purpose: 'mfa-totp-secret',
      select: async (q) =>
        (await q.query<{ user_id: string; secret: string }>(`SELECT user_id, data->>'secret' AS secret FROM ${table} WHERE type = 'totp' AND data->>'secret' IS NOT NULL FOR UPDATE`)).map((r) => ({
          k: [r.user_id],
          v: r.secret,
        })),
      update: (q, k, v) => q.query(`UPDATE ${table} SET data = jsonb_set(data, '{secret}', to_jsonb($2::text)) WHERE user_id = $1 AND type = 'totp'`, [...k, v]),
    }),
  ),
  {
    name: 'refresh_tokens.successor_sealed',
    keys: 'secret',
    purpose: 'refresh-pair',
    select: async (q) =>
      (await q.query<{ token_hash: string; successor_sealed: string }>('SELECT token_hash, successor_sealed FROM refresh_tokens WHERE successor_sealed IS NOT NULL FOR UPDATE')).map((r) => ({
        k: [r.token_hash],
        v: r.successor_sealed,
      })),
    update: (q, k, v) => q.query('UPDATE refresh_tokens SET successor_sealed = $2 WHERE token_hash = $1', [...k, v]),
  },
]

export interface RotationReport {
  /** Per record kind: re-wrapped now, already current, unreadable (sealed under a key not given). */
  tables: Record<string, { rewrapped: number; current: number; unreadable: number }>
  rewrapped: number
  /** Records no given key opens: keep their previous key and run again. */
  unreadable: number
}

/** Re-wraps every sealed record to the current keys (one transaction per record kind). */
export async function rotateKeys(store: Store, keys: RotationKeys): Promise<RotationReport> {
  const report: RotationReport = { tables: {}, rewrapped: 0, unreadable: 0 }
  for (const t of TARGETS) {
    const k = keys[t.keys]
    const line = { rewrapped: 0, current: 0, unreadable: 0 }
    await store.transaction(async (q) => {
      for (const row of await t.select(q)) {
        let next: string | null
        try {
          next = await k.rewrap(row.v, t.purpose)
        } catch {
          line.unreadable++
          continue
        }
        if (next === null) line.current++
        else {
          await t.update(q, row.k, next)
          line.rewrapped++
        }
      }
    })
    report.tables[t.name] = line
    report.rewrapped += line.rewrapped
    report.unreadable += line.unreadable
  }
  return report
}
