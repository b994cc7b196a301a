/** Delegation's queries: the user's embedded wallets and the signature audit. */
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { type ChainType, type RequestFacts } from './service'

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
