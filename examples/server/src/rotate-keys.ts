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
import { WEBHOOK_SECRET_PURPOSE } from './features/webhooks/service'
import type { Keys } from './keys'
import type { Store } from './core/store'
import { lockSealed, updateSealed, type SealedColumn } from './core/repo'

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
  sealed: SealedColumn
}

const TARGETS: Target[] = [
  { name: 'signing_keys.private_jwe', keys: 'secret', purpose: 'signing-key', sealed: { table: 'signing_keys', key: ['name'], column: 'private_jwe' } },
  {
    name: 'embedded_wallet_roots.auth_share',
    keys: 'secret',
    purpose: AUTH_SHARE_PURPOSE,
    sealed: { table: 'embedded_wallet_roots', key: ['app_id', 'entropy_id'], column: 'auth_share' },
  },
  {
    name: 'embedded_wallet_roots.recovery_share (privy)',
    keys: 'recovery',
    purpose: RECOVERY_SHARE_PURPOSE,
    sealed: { table: 'embedded_wallet_roots', key: ['app_id', 'entropy_id'], column: 'recovery_share', only: { column: 'recovery_method', equals: 'privy' } },
  },
  {
    name: 'embedded_wallet_share_history.auth_share',
    keys: 'secret',
    purpose: AUTH_SHARE_PURPOSE,
    sealed: { table: 'embedded_wallet_share_history', key: ['id'], column: 'auth_share' },
  },
  {
    name: 'embedded_wallet_share_history.recovery_share (privy)',
    keys: 'recovery',
    purpose: RECOVERY_SHARE_PURPOSE,
    sealed: { table: 'embedded_wallet_share_history', key: ['id'], column: 'recovery_share', only: { column: 'recovery_method', equals: 'privy' } },
  },
  {
    name: 'wallet_password_oprf.oprf_key',
    keys: 'recovery',
    purpose: OPRF_KEY_PURPOSE,
    sealed: { table: 'wallet_password_oprf', key: ['app_id', 'entropy_id'], column: 'oprf_key' },
  },
  ...(['mfa_methods', 'mfa_pending'] as const).map(
    (table): Target => ({
      name: `${table}.data.secret (totp)`,
      keys: 'secret',
      purpose: 'mfa-totp-secret',
      sealed: { table, key: ['user_id'], column: 'data', jsonField: 'secret', only: { column: 'type', equals: 'totp' } },
    }),
  ),
  {
    name: 'refresh_tokens.successor_sealed',
    keys: 'secret',
    purpose: 'refresh-pair',
    sealed: { table: 'refresh_tokens', key: ['token_hash'], column: 'successor_sealed' },
  },
  // Webhook signing secrets (issue 32).
  { name: 'webhook_endpoints.secret', keys: 'secret', purpose: WEBHOOK_SECRET_PURPOSE, sealed: { table: 'webhook_endpoints', key: ['id'], column: 'secret' } },
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
      for (const row of await lockSealed(q, t.sealed)) {
        let next: string | null
        try {
          next = await k.rewrap(row.v, t.purpose)
        } catch {
          line.unreadable++
          continue
        }
        if (next === null) line.current++
        else {
          await updateSealed(q, t.sealed, row.k, next)
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
