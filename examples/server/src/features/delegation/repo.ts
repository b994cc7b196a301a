/** Delegation's queries: the user's embedded wallets and the signature audit. */
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { type ChainType, type RequestFacts } from './service'
import type { DelegationPolicy } from '../../wire/frame'

export interface WalletRow {
  id: number
  address: string
  chain_type: ChainType
  wallet_index: number | null
  delegated: boolean
}

/** The user's embedded wallets (linked accounts of type wallet with wallet_client_type 'privy'). */
export async function embeddedWallets(q: Queryable, userId: string, lock = false): Promise<WalletRow[]> {
  const rows = await q.query<{ id: number; data: Record<string, unknown> }>(
    `SELECT id, data FROM accounts WHERE user_id = $1 AND type = 'wallet' AND data->>'wallet_client_type' = 'privy' ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  )
  return rows.map((r) => ({
    id: Number(r.id),
    address: String(r.data.address ?? ''),
    chain_type: r.data.chain_type as ChainType,
    wallet_index: typeof r.data.wallet_index === 'number' ? r.data.wallet_index : null,
    delegated: r.data.delegated === true,
  }))
}

export interface AuditRow {
  appId: string
  userId: string
  chain: ChainType
  address: string
  method: string
  payloadSha256: string
  facts: RequestFacts | null
  ip: string
  allowed: boolean
  reason: string | null
}

export async function audit(q: Queryable, a: AuditRow): Promise<void> {
  await q.query(
    `INSERT INTO wallet_delegation_audit (app_id, user_id, chain_type, address, method, payload_sha256, chain_id, to_address, value, requester_ip, allowed, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12, $13)`,
    [
      a.appId,
      a.userId,
      a.chain,
      a.address,
      a.method,
      a.payloadSha256,
      a.facts?.chainId?.toString() ?? null,
      a.facts?.to ?? null,
      a.facts ? a.facts.value.toString() : null,
      a.ip,
      a.allowed,
      a.reason,
      now(),
    ],
  )
}

export interface AuditWire {
  id: number
  user_id: string
  chain_type: string
  address: string
  method: string
  payload_sha256: string
  chain_id: number | null
  to: string | null
  value: string | null
  requester_ip: string | null
  allowed: boolean
  reason: string | null
  created_at: number
}

export async function readAudit(q: Queryable, appId: string, where: { userId?: string; address?: string }, limit: number): Promise<AuditWire[]> {
  const args: unknown[] = [appId]
  let sql = `SELECT id, user_id, chain_type, address, method, payload_sha256, chain_id, to_address, value::text AS value, requester_ip, allowed, reason, created_at
             FROM wallet_delegation_audit WHERE app_id = $1`
  if (where.userId) sql += ` AND user_id = $${args.push(where.userId)}`
  if (where.address) sql += ` AND lower(address) = lower($${args.push(where.address)})`
  sql += ` ORDER BY created_at DESC, id DESC LIMIT $${args.push(limit)}`
  const rows = await q.query<Record<string, unknown>>(sql, args)
  return rows.map((r) => ({
    id: Number(r.id),
    user_id: String(r.user_id),
    chain_type: String(r.chain_type),
    address: String(r.address),
    method: String(r.method),
    payload_sha256: String(r.payload_sha256),
    chain_id: r.chain_id === null ? null : Number(r.chain_id),
    to: (r.to_address as string | null) ?? null,
    value: (r.value as string | null) ?? null,
    requester_ip: (r.requester_ip as string | null) ?? null,
    allowed: r.allowed === true,
    reason: (r.reason as string | null) ?? null,
    created_at: Number(r.created_at),
  }))
}

/** Stores (or replaces) the delegation of one wallet and flags its account delegated. */
export async function putDelegation(
  q: Queryable,
  d: { appId: string; chain: ChainType; addressKey: string; userId: string; address: string; walletIndex: number | null; sealedKey: string; sessionId: string; t: number; policy: unknown; expiresAt: number; accountId: number },
): Promise<void> {
  await q.query(
    `INSERT INTO wallet_delegations (app_id, chain_type, address_key, user_id, address, wallet_index, sealed_key, consent_session_id, created_at, policy, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (app_id, chain_type, address_key) DO UPDATE SET user_id = EXCLUDED.user_id, address = EXCLUDED.address,
       wallet_index = EXCLUDED.wallet_index, sealed_key = EXCLUDED.sealed_key, consent_session_id = EXCLUDED.consent_session_id,
       created_at = EXCLUDED.created_at, last_used_at = NULL, policy = EXCLUDED.policy, expires_at = EXCLUDED.expires_at`,
    [d.appId, d.chain, d.addressKey, d.userId, d.address, d.walletIndex, d.sealedKey, d.sessionId, d.t, JSON.stringify(d.policy), d.expiresAt],
  )
  await q.query(`UPDATE accounts SET data = jsonb_set(data, '{delegated}', 'true'::jsonb) WHERE id = $1`, [d.accountId])
}

/** Ends every delegation of the user with the app and clears the accounts' flags. */
export async function deleteUserDelegations(q: Queryable, appId: string, userId: string, accountIds: number[]): Promise<void> {
  await q.query('DELETE FROM wallet_delegations WHERE app_id = $1 AND user_id = $2', [appId, userId])
  await q.query(`UPDATE accounts SET data = jsonb_set(data, '{delegated}', 'false'::jsonb) WHERE id = ANY($1::bigint[])`, [accountIds])
}

/** Ends one delegation (the sealed key is deleted and the account's flag cleared). */
export async function deleteDelegation(q: Queryable, d: { appId: string; chain: ChainType; addressKey: string; address: string; userId: string }): Promise<void> {
  await q.query('DELETE FROM wallet_delegations WHERE app_id = $1 AND chain_type = $2 AND address_key = $3', [d.appId, d.chain, d.addressKey])
  await q.query(
    `UPDATE accounts SET data = jsonb_set(data, '{delegated}', 'false'::jsonb)
     WHERE user_id = $1 AND type = 'wallet' AND data->>'chain_type' = $2 AND data->>'address' = $3`,
    [d.userId, d.chain, d.address],
  )
}

/** The app's delegations at any of these address keys (of one chain when given). */
export async function delegationsAt(q: Queryable, appId: string, keys: string[], chain?: ChainType): Promise<{ chain_type: ChainType; address: string; user_id: string }[]> {
  return q.query<{ chain_type: ChainType; address: string; user_id: string }>(
    `SELECT chain_type, address, user_id FROM wallet_delegations WHERE app_id = $1 AND address_key = ANY($2::text[])${chain ? ' AND chain_type = $3' : ''}`,
    chain ? [appId, keys, chain] : [appId, keys],
  )
}

export interface LiveDelegation {
  chain_type: string
  address: string
  policy: DelegationPolicy | null
  created_at: number
  expires_at: number | null
  last_used_at: number | null
}

/** The user's delegations with the app, oldest first. */
export async function userDelegations(q: Queryable, appId: string, userId: string): Promise<LiveDelegation[]> {
  return q.query<LiveDelegation>('SELECT chain_type, address, policy, created_at, expires_at, last_used_at FROM wallet_delegations WHERE app_id = $1 AND user_id = $2 ORDER BY created_at', [appId, userId])
}

/** The delegation of a still-delegated wallet account; `lock`: FOR UPDATE (serialises the wallet's signatures). */
export async function signableDelegation(
  q: Queryable,
  appId: string,
  chain: ChainType,
  key: string,
  lock: boolean,
): Promise<{ sealed_key: string; address: string; user_id: string; expires_at: number | null } | undefined> {
  const rows = await q.query<{ sealed_key: string; address: string; user_id: string; expires_at: number | null }>(
    `SELECT d.sealed_key, d.address, d.user_id, d.expires_at FROM wallet_delegations d
     JOIN accounts a ON a.user_id = d.user_id AND a.type = 'wallet' AND (a.data->>'delegated')::boolean
       AND a.data->>'chain_type' = d.chain_type AND a.data->>'address' = d.address
     WHERE d.app_id = $1 AND d.chain_type = $2 AND d.address_key = $3${lock ? ' FOR UPDATE OF d' : ''}`,
    [appId, chain, key],
  )
  return rows[0]
}

/** Whether the app has a delegation at this address key (any chain). */
export async function delegatedAt(q: Queryable, appId: string, key: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM wallet_delegations WHERE app_id = $1 AND address_key = $2', [appId, key])).length > 0
}

/** The owner of an embedded wallet account of the app (by its account identifier). */
export async function embeddedWalletOwner(q: Queryable, appId: string, identifier: string): Promise<{ user_id: string; address: string } | undefined> {
  const [owner] = await q.query<{ user_id: string; address: string }>(
    `SELECT user_id, data->>'address' AS address FROM accounts WHERE app_id = $1 AND type = 'wallet' AND identifier = $2 AND data->>'wallet_client_type' = 'privy' LIMIT 1`,
    [appId, identifier],
  )
  return owner
}

/** The value the wallet's allowed signatures moved since `since` (a decimal string). */
export async function valueSince(q: Queryable, appId: string, chain: ChainType, address: string, since: number): Promise<string> {
  const [day] = await q.query<{ total: string }>(
    `SELECT coalesce(sum(value), 0)::text AS total FROM wallet_delegation_audit
     WHERE app_id = $1 AND chain_type = $2 AND lower(address) = lower($3) AND allowed AND created_at > $4`,
    [appId, chain, address, since],
  )
  return day.total
}

export async function touchDelegation(q: Queryable, appId: string, chain: ChainType, key: string, t: number): Promise<void> {
  await q.query('UPDATE wallet_delegations SET last_used_at = $1 WHERE app_id = $2 AND chain_type = $3 AND address_key = $4', [t, appId, chain, key])
}
