/**
 * Delegated actions ('Enable offline access', spec part 2 sections 2, 4, 5, 6 and 7): while the
 * user allows it, the host app's own BACKEND can have this server sign with one of the user's
 * embedded wallets, without the user being there. It is the one mode in which the server can
 * act without the user, and it lasts exactly as long as the delegation:
 *
 * - GET  /wallets/delegation_key → { jwk }: the server's public key (P-256, ECDH-ES) the wallet
 *   frame seals a wallet key to. Its private half is derived from PORTICO_SECRET (never stored).
 * - POST /wallets/delegate (bearer, called by the consent page on the wallet frame's origin
 *   after the user clicked Allow there; through the wallet routes' frame guard)
 *   { address, chain_type, sealed_key }: `sealed_key` is a compact JWE (ECDH-ES + A256GCM) of
 *   `{ address, chain_type, private_key, policy }` for THAT wallet only (its HD child key, not
 *   the seed phrase) and the policy the user saw. The server opens it, checks that the key is
 *   the wallet's (the address it derives must equal the account's, so nobody can delegate a key
 *   they do not hold), and in one transaction stores the consent with the sealed key and the
 *   policy and sets `delegated` on the account. Gated by `requireFreshMfa(…, 'delegation')`.
 * - POST /wallets/revoke {} (bearer): needs at least one delegated wallet; deletes every sealed
 *   key of the user and clears `delegated` in one transaction.
 * - POST /wallets/{address}/rpc (the host app's backend: `Authorization: Basic
 *   base64(appId:appSecret)` and `privy-app-id`; never from a browser): personal_sign,
 *   eth_signTypedData_v4, eth_signTransaction (Ethereum), signMessage and signTransaction
 *   (Solana: the base64 wire transaction gets the wallet's signature) for a
 *   delegated wallet of one of the app's users. A revoked, expired or never delegated wallet is
 *   refused; every request is checked against the SEALED policy before signing (method, chain
 *   id — required on every transaction —, destination, value per transaction and per rolling
 *   day) and written to `wallet_delegation_audit`, allowed or refused with the reason.
 * - POST /wallets/delegations/revoke { address, chain_type? } (the app's backend, app secret):
 *   the app ends a delegation (the sealed key is deleted as by the user's revoke).
 * - GET /wallets/delegations/audit: the user's audit (bearer) with their live delegations and
 *   policies, or the app's (app secret; `?user_id=`, `?address=`); newest first, `?limit` ≤ 200.
 *
 * The app secret is the app's `appSecret` (inline, tests and demos) or `appSecretEnv` (the
 * environment variable holding it) in apps.json; at least 32 characters.
 */
import { createECDH, createHash, createPrivateKey, timingSafeEqual, type KeyObject } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { calculateJwkThumbprint, compactDecrypt, type JWK } from 'jose'
import { getAddress, isAddress, type Hex, type TransactionSerializable } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import type { AppSettings } from '../../config'
import { clientIp, type C, type ServerCtx } from '../../core/context'
import { normalizePolicy, PolicyError, type DelegationPolicy } from '../../wire/frame'
import { ApiError, errors } from '../../core/errors'
import { loadUser, userResponse } from '../../core/identity'
import { requireFreshMfa } from '../mfa/gate'
import type { Queryable } from '../../core/store'
import { now } from '../../core/identity/tokens'
import { id } from '../../core/validate'
import { router } from '../../core/router'
import { requireAppSecret, requireAuth } from '../../core/auth'
import type { Auth } from '../../core/auth'
import { DELEGATION_MSG } from './errors'

/** Audit reasons (wallet_delegation_audit.reason) of a refused request. */
export type RefusalReason =
  | 'not_delegated'
  | 'expired'
  | 'method_not_allowed'
  | 'chain_id_required'
  | 'chain_not_allowed'
  | 'contract_not_allowed'
  | 'value_over_tx_cap'
  | 'value_over_day_cap'
  | 'invalid_request'

/** A refusal by the policy: 403 `delegation_policy_violation` (reason in the body and the audit). */
class PolicyRefusal extends ApiError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    status: 403 | 422 = 403,
    data: Record<string, unknown> = {},
  ) {
    super(status, status === 403 ? 'delegation_policy_violation' : 'invalid_data', message, { reason, ...data })
  }
}

const SEAL_PURPOSE = 'portico delegated wallet key v1'

type ChainType = 'ethereum' | 'solana'

const addressKey = (chain: ChainType, address: string) => (chain === 'ethereum' ? address.toLowerCase() : address)

/** The address a private key (32 bytes) controls. */
function addressOf(chain: ChainType, key: Uint8Array): string {
  if (chain === 'ethereum') return privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`).address
  return base58.encode(ed25519.getPublicKey(key))
}

// ------------------------------------------------------------------ the sealing key

interface SealingKey {
  publicJwk: JWK
  privateKey: KeyObject
}

/**
 * The server's sealing key pair (P-256): the private scalar is a keyed hash of a fixed label
 * under PORTICO_SECRET, so it is the same on every process and never written anywhere.
 * node:crypto derives the public point; jose does the JWE.
 */
async function sealingKey(ctx: ServerCtx): Promise<SealingKey> {
  for (let i = 0; ; i++) {
    const d = Buffer.from(ctx.keys.codeHash([SEAL_PURPOSE, String(i)]), 'hex')
    const ecdh = createECDH('prime256v1')
    try {
      ecdh.setPrivateKey(d)
    } catch {
      continue // out of range (probability ~2^-32): the next label
    }
    const pub = ecdh.getPublicKey()
    const b64u = (b: Buffer) => b.toString('base64url')
    const jwk = { kty: 'EC', crv: 'P-256', x: b64u(pub.subarray(1, 33)), y: b64u(pub.subarray(33, 65)) }
    const privateKey = createPrivateKey({ key: { ...jwk, d: b64u(d) }, format: 'jwk' })
    const publicJwk: JWK = { ...jwk, alg: 'ECDH-ES', use: 'enc', kid: await calculateJwkThumbprint(jwk) }
    return { publicJwk, privateKey }
  }
}

const sealedPayload = z.object({
  address: z.string().max(128),
  chain_type: z.enum(['ethereum', 'solana']),
  private_key: z.string().regex(/^(0x)?[0-9a-fA-F]{64}([0-9a-fA-F]{64})?$/),
  /** The policy the user saw on the consent page (normalised by normalizePolicy). */
  policy: z.record(z.string(), z.unknown()).nullish(),
})

interface Opened {
  key: Uint8Array
  policy: DelegationPolicy
}

/**
 * Opens a sealed wallet key and checks it is `address`'s (else 400). Returns the 32-byte key
 * and the sealed policy (the defaults when the seal carries none).
 */
async function openSealed(sk: SealingKey, jwe: string, chain: ChainType, address: string): Promise<Opened> {
  let payload: unknown
  try {
    const { plaintext, protectedHeader } = await compactDecrypt(jwe, sk.privateKey, {
      keyManagementAlgorithms: ['ECDH-ES'],
      contentEncryptionAlgorithms: ['A256GCM'],
    })
    if (protectedHeader.kid !== undefined && protectedHeader.kid !== sk.publicJwk.kid) throw new Error('kid')
    payload = JSON.parse(new TextDecoder().decode(plaintext))
  } catch {
    throw errors.invalidData(DELEGATION_MSG.badSeal)
  }
  const p = sealedPayload.safeParse(payload)
  if (!p.success) throw errors.invalidData(DELEGATION_MSG.badSeal)
  // A Solana secret key may come as the 64-byte form (seed + public key): the seed is its first half.
  const key = Uint8Array.from(Buffer.from(p.data.private_key.replace(/^0x/, ''), 'hex')).subarray(0, 32)
  let derived: string
  try {
    derived = addressOf(chain, key)
  } catch {
    throw errors.invalidData(DELEGATION_MSG.keyMismatch)
  }
  if (p.data.chain_type !== chain || addressKey(chain, derived) !== addressKey(chain, address) || addressKey(chain, p.data.address) !== addressKey(chain, address)) {
    throw errors.invalidData(DELEGATION_MSG.keyMismatch)
  }
  let policy: DelegationPolicy
  try {
    policy = normalizePolicy(chain, p.data.policy as never)
  } catch (err) {
    key.fill(0)
    if (err instanceof PolicyError) throw errors.invalidData(err.message, undefined, 422)
    throw err
  }
  return { key, policy }
}

// ------------------------------------------------------------------ embedded wallet accounts

interface WalletRow {
  id: number
  address: string
  chain_type: ChainType
  wallet_index: number | null
  delegated: boolean
}

/** The user's embedded wallets (linked accounts of type wallet with wallet_client_type 'privy'). */
async function embeddedWallets(q: Queryable, userId: string, lock = false): Promise<WalletRow[]> {
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

function findWallet(wallets: WalletRow[], chain: ChainType, address: string): WalletRow {
  const mine = wallets.filter((w) => w.chain_type === chain)
  if (chain === 'solana' && !mine.length) throw errors.invalidData(DELEGATION_MSG.needSolana)
  const w = mine.find((x) => addressKey(chain, x.address) === addressKey(chain, address))
  if (!w) throw errors.invalidData(DELEGATION_MSG.notAssociated)
  return w
}

// ------------------------------------------------------------------ signing

const hexData = z.string().max(262_144).regex(/^0x([0-9a-fA-F]{2})*$/, 'Expected 0x-prefixed hex')
/** Spec part 2 section 5: numeric transaction fields are numbers or hex strings (an error names the property). */
const quantity = (name: string) =>
  z.custom<number | string>(
    (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)),
    { message: `${name} must be a number, bigint or hex string` },
  )
const big = (v: number | string | undefined) => (v === undefined ? undefined : BigInt(v))
const num = (v: number | string | undefined) => (v === undefined ? undefined : Number(BigInt(v)))

const paramSchemas = {
  personal_sign: z.object({ message: z.string().max(65_536), encoding: z.enum(['utf-8', 'hex']).default('utf-8') }),
  eth_signTypedData_v4: z.object({
    typed_data: z.object({
      domain: z.record(z.string(), z.unknown()).default({}),
      types: z.record(z.string(), z.array(z.object({ name: z.string().max(256), type: z.string().max(256) })).max(256)),
      primary_type: z.string().max(256).optional(),
      primaryType: z.string().max(256).optional(),
      message: z.record(z.string(), z.unknown()),
    }),
  }),
  eth_signTransaction: z.object({
    transaction: z.object({
      to: z.string().refine((a) => isAddress(a, { strict: false }), 'to must be an address').optional(),
      data: hexData.optional(),
      value: quantity('value').optional(),
      nonce: quantity('nonce').optional(),
      chain_id: quantity('chain_id').optional(),
      gas_limit: quantity('gas_limit').optional(),
      gas_price: quantity('gas_price').optional(),
      max_fee_per_gas: quantity('max_fee_per_gas').optional(),
      max_priority_fee_per_gas: quantity('max_priority_fee_per_gas').optional(),
      type: z.union([z.literal(0), z.literal(2)]).optional(),
    }),
  }),
  signMessage: z.object({ message: z.string().max(87_384).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64'), encoding: z.literal('base64').default('base64') }),
  /** A Solana wire transaction (at most 1232 bytes on the network; some slack here), base64. */
  signTransaction: z.object({
    transaction: z.string().min(1, 'Required').max(4096, 'Must be at most 4096 characters').regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64'),
    encoding: z.literal('base64').default('base64'),
  }),
} as const
type RpcMethod = keyof typeof paramSchemas
const METHOD_CHAIN: Record<RpcMethod, ChainType> = {
  personal_sign: 'ethereum',
  eth_signTypedData_v4: 'ethereum',
  eth_signTransaction: 'ethereum',
  signMessage: 'solana',
  signTransaction: 'solana',
}

function parseParams<M extends RpcMethod>(method: M, params: unknown): z.infer<(typeof paramSchemas)[M]> {
  const r = paramSchemas[method].safeParse(params ?? {})
  if (r.success) return r.data as z.infer<(typeof paramSchemas)[M]>
  const fields: Record<string, string> = {}
  for (const i of r.error.issues) fields[['params', ...i.path].join('.')] ??= i.message
  const [first] = Object.entries(fields)
  throw errors.invalidData(`${first[0]}: ${first[1]}`, { fields }, 422)
}

/** Signs one request with the wallet's key (viem accounts for Ethereum, @noble/curves ed25519 for Solana). */
async function sign(method: RpcMethod, params: unknown, key: Uint8Array): Promise<Record<string, unknown>> {
  if (method === 'signMessage') {
    const p = parseParams('signMessage', params)
    return { signature: base64.encode(ed25519.sign(base64.decode(p.message), key)), encoding: 'base64' }
  }
  if (method === 'signTransaction') {
    const p = parseParams('signTransaction', params)
    // @solana/web3.js loads only when a backend signs a Solana transaction.
    const { signSolanaWire, SolanaSignError } = await import('../../solana-sign')
    try {
      return { signed_transaction: base64.encode(signSolanaWire(base64.decode(p.transaction), key)), encoding: 'base64' }
    } catch (err) {
      if (err instanceof SolanaSignError) throw errors.invalidData(err.message)
      throw errors.invalidData('Invalid transaction request')
    }
  }
  const account = privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`)
  try {
    if (method === 'personal_sign') {
      const p = parseParams('personal_sign', params)
      if (p.encoding === 'hex' && !/^0x([0-9a-fA-F]{2})*$/.test(p.message)) throw errors.invalidData('params.message: Expected 0x-prefixed hex', undefined, 422)
      const signature = await account.signMessage({ message: p.encoding === 'hex' ? { raw: p.message as Hex } : p.message })
      return { signature, encoding: 'hex' }
    }
    if (method === 'eth_signTypedData_v4') {
      const { typed_data: t } = parseParams('eth_signTypedData_v4', params)
      const primaryType = t.primaryType ?? t.primary_type
      if (!primaryType) throw errors.invalidData('params.typed_data.primary_type: Required', { fields: { 'params.typed_data.primary_type': 'Required' } }, 422)
      const signature = await account.signTypedData({ domain: t.domain as never, types: t.types, primaryType, message: t.message })
      return { signature, encoding: 'hex' }
    }
    const { transaction: t } = parseParams('eth_signTransaction', params)
    const common = { to: t.to ? getAddress(t.to) : undefined, data: t.data as Hex | undefined, value: big(t.value), nonce: num(t.nonce), chainId: num(t.chain_id), gas: big(t.gas_limit) }
    const legacy = t.type === 0 || (t.gas_price !== undefined && t.type === undefined)
    if (!legacy && common.chainId === undefined) {
      throw errors.invalidData('params.transaction.chain_id: Required', { fields: { 'params.transaction.chain_id': 'Required' } }, 422)
    }
    const tx: TransactionSerializable = legacy
      ? { ...common, type: 'legacy', gasPrice: big(t.gas_price) }
      : { ...common, chainId: common.chainId!, type: 'eip1559', maxFeePerGas: big(t.max_fee_per_gas), maxPriorityFeePerGas: big(t.max_priority_fee_per_gas) }
    return { signed_transaction: await account.signTransaction(tx), encoding: 'rlp' }
  } catch (err) {
    if (err instanceof ApiError) throw err
    // viem's own validation (typed data that does not match its types, bad fields): the caller's input.
    throw errors.invalidData(`Could not sign: ${(err as { shortMessage?: string }).shortMessage ?? 'invalid request'}`)
  }
}

// ------------------------------------------------------------------ the policy

/** What a request asks for, as the policy and the audit see it. */
interface RequestFacts {
  chainId: bigint | null
  to: string | null
  /** Native value moved (wei / lamports). */
  value: bigint
  /** Solana: the programs the transaction invokes. */
  programs: string[]
}

/** Validates the params and extracts what the policy checks (refusals are PolicyRefusals). */
async function requestFacts(method: RpcMethod, params: unknown, address: string): Promise<RequestFacts> {
  const none: RequestFacts = { chainId: null, to: null, value: 0n, programs: [] }
  if (method === 'personal_sign' || method === 'signMessage') {
    parseParams(method, params)
    return none
  }
  if (method === 'eth_signTypedData_v4') {
    const { typed_data: t } = parseParams('eth_signTypedData_v4', params)
    const cid = t.domain.chainId
    const chainId =
      typeof cid === 'number' && Number.isSafeInteger(cid) && cid > 0 ? BigInt(cid) : typeof cid === 'string' && /^(0x[0-9a-fA-F]{1,16}|[1-9][0-9]{0,18})$/.test(cid) ? BigInt(cid) : null
    if (chainId === null) throw new PolicyRefusal('chain_id_required', DELEGATION_MSG.typedChainRequired, 422, { fields: { 'params.typed_data.domain.chainId': 'Required' } })
    const vc = t.domain.verifyingContract
    return { ...none, chainId, to: typeof vc === 'string' ? vc.toLowerCase() : null }
  }
  if (method === 'eth_signTransaction') {
    const { transaction: t } = parseParams('eth_signTransaction', params)
    // Legacy or not: without a chain id a signed transaction replays on every chain.
    if (t.chain_id === undefined) throw new PolicyRefusal('chain_id_required', DELEGATION_MSG.chainIdRequired, 422, { fields: { 'params.transaction.chain_id': 'Required' } })
    return { ...none, chainId: BigInt(t.chain_id), to: t.to ? t.to.toLowerCase() : null, value: big(t.value) ?? 0n }
  }
  const p = parseParams('signTransaction', params)
  const { solanaTxFacts, SolanaSignError } = await import('../../solana-sign')
  try {
    const f = solanaTxFacts(base64.decode(p.transaction), address)
    return { ...none, value: f.lamports, programs: f.programs }
  } catch (err) {
    if (err instanceof SolanaSignError) throw errors.invalidData(err.message)
    throw errors.invalidData('Invalid transaction request')
  }
}

/** The policy's verdict on one request, before the per-day sum (which needs the lock). */
function checkPolicy(policy: DelegationPolicy, method: RpcMethod, f: RequestFacts): void {
  if (!policy.methods.includes(method)) throw new PolicyRefusal('method_not_allowed', DELEGATION_MSG.methodNotAllowed(method))
  if (f.chainId !== null && !policy.chain_ids.some((c) => BigInt(c) === f.chainId)) throw new PolicyRefusal('chain_not_allowed', DELEGATION_MSG.chainNotAllowed(String(f.chainId)))
  if (policy.contracts) {
    const targets = method === 'signTransaction' ? f.programs : method === 'personal_sign' || method === 'signMessage' ? [] : [f.to ?? '']
    const bad = targets.find((t) => !policy.contracts!.includes(t))
    if (bad !== undefined) throw new PolicyRefusal('contract_not_allowed', DELEGATION_MSG.contractNotAllowed(bad))
  }
  if (f.value > BigInt(policy.max_value_per_tx)) throw new PolicyRefusal('value_over_tx_cap', DELEGATION_MSG.overTxCap)
}

const DAY_S = 86400
const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}` : JSON.stringify(v) ?? 'null'

interface AuditRow {
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

async function audit(q: Queryable, a: AuditRow): Promise<void> {
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

interface AuditWire {
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

async function readAudit(q: Queryable, appId: string, where: { userId?: string; address?: string }, limit: number): Promise<AuditWire[]> {
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

// ------------------------------------------------------------------ routes

export interface DelegationOptions {
  /**
   * The wallet routes' guard (features/wallets/routes.ts: a token and a device proof by the
   * session's device): consent goes through it too.
   */
  guard: (c: C) => Promise<Auth>
}

export function delegationRoutes(ctx: ServerCtx, opts: DelegationOptions) {
  const r = router(ctx)
  let key: Promise<SealingKey> | undefined
  const sk = () => (key ??= sealingKey(ctx))

  r.get('/wallets/delegation_key', { summary: 'The public key the wallet frame seals a delegated wallet key to' }, async (c) =>
    c.json({ jwk: (await sk()).publicJwk }))

  r.post('/wallets/delegate', { summary: 'Delegate one embedded wallet to the app (consent, from the consent page on the wallet frame’s origin)', body: z.object({
      address: id(128),
      chain_type: z.enum(['ethereum', 'solana'], { message: DELEGATION_MSG.chainTypes }),
      sealed_key: z.string().min(1, 'Required').max(8192, 'Must be at most 8192 characters').regex(/^[A-Za-z0-9_.-]+$/, 'Expected a compact JWE'),
    }), guard: (c) => opts.guard(c) }, async (c, { body: b, auth }) => {
      const app = c.get('app')
      await requireFreshMfa(ctx, auth, 'delegation')
      findWallet(await embeddedWallets(ctx.store, auth.userId), b.chain_type, b.address)
      const opened = await openSealed(await sk(), b.sealed_key, b.chain_type, b.address)
      opened.key.fill(0)
      const t = now()
      const user = await ctx.store.transaction(async (q) => {
        const w = findWallet(await embeddedWallets(q, auth.userId, true), b.chain_type, b.address)
        await q.query(
          `INSERT INTO wallet_delegations (app_id, chain_type, address_key, user_id, address, wallet_index, sealed_key, consent_session_id, created_at, policy, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           ON CONFLICT (app_id, chain_type, address_key) DO UPDATE SET user_id = EXCLUDED.user_id, address = EXCLUDED.address,
             wallet_index = EXCLUDED.wallet_index, sealed_key = EXCLUDED.sealed_key, consent_session_id = EXCLUDED.consent_session_id,
             created_at = EXCLUDED.created_at, last_used_at = NULL, policy = EXCLUDED.policy, expires_at = EXCLUDED.expires_at`,
          [app.id, w.chain_type, addressKey(w.chain_type, w.address), auth.userId, w.address, w.wallet_index, b.sealed_key, auth.sessionId, t, JSON.stringify(opened.policy), t + opened.policy.expires_in],
        )
        await q.query(`UPDATE accounts SET data = jsonb_set(data, '{delegated}', 'true'::jsonb) WHERE id = $1`, [w.id])
        return (await loadUser(q, auth.userId))!
      })
      ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, chain_type: b.chain_type }, 'wallet delegated')
      return c.json(await userResponse(ctx, app.id, user))
    })

  r.post('/wallets/revoke', { summary: 'Revoke every delegated wallet of the user', auth: 'bearer' }, async (c, { auth }) => {
    const app = c.get('app')
    const user = await ctx.store.transaction(async (q) => {
      const delegated = (await embeddedWallets(q, auth.userId, true)).filter((w) => w.delegated)
      if (!delegated.length) throw errors.invalidData(DELEGATION_MSG.nothingToRevoke)
      await q.query('DELETE FROM wallet_delegations WHERE app_id = $1 AND user_id = $2', [app.id, auth.userId])
      await q.query(`UPDATE accounts SET data = jsonb_set(data, '{delegated}', 'false'::jsonb) WHERE id = ANY($1::bigint[])`, [delegated.map((w) => w.id)])
      return (await loadUser(q, auth.userId))!
    })
    ctx.log.info({ req_id: c.get('requestId'), app_id: app.id }, 'delegated wallets revoked')
    return c.json(await userResponse(ctx, app.id, user))
  })

  /** Ends one delegation (the sealed key is deleted and the account's flag cleared, one transaction). */
  const endDelegation = async (q: Queryable, appId: string, chain: ChainType, address: string, userId: string) => {
    await q.query('DELETE FROM wallet_delegations WHERE app_id = $1 AND chain_type = $2 AND address_key = $3', [appId, chain, addressKey(chain, address)])
    await q.query(
      `UPDATE accounts SET data = jsonb_set(data, '{delegated}', 'false'::jsonb)
       WHERE user_id = $1 AND type = 'wallet' AND data->>'chain_type' = $2 AND data->>'address' = $3`,
      [userId, chain, address],
    )
  }

  r.post('/wallets/delegations/revoke', { summary: "The app ends a delegation (the app's backend, Basic app id and app secret)", body: z.object({ address: id(128), chain_type: z.enum(['ethereum', 'solana'], { message: DELEGATION_MSG.chainTypes }).optional() }), auth: 'app-secret' }, async (c, { body: b, auth: app }) => {
      const rows = await ctx.store.query<{ chain_type: ChainType; address: string; user_id: string }>(
        `SELECT chain_type, address, user_id FROM wallet_delegations WHERE app_id = $1 AND address_key = ANY($2::text[])${b.chain_type ? ' AND chain_type = $3' : ''}`,
        b.chain_type ? [app.id, [b.address, b.address.toLowerCase()], b.chain_type] : [app.id, [b.address, b.address.toLowerCase()]],
      )
      const row = rows.find((x) => addressKey(x.chain_type, x.address) === addressKey(x.chain_type, b.address))
      if (!row) throw new ApiError(404, 'wallet_not_delegated', DELEGATION_MSG.notDelegated)
      await ctx.store.transaction((q) => endDelegation(q, app.id, row.chain_type, row.address, row.user_id))
      ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, chain_type: row.chain_type }, 'delegation revoked by the app')
      return c.json({ revoked: true, address: row.address, chain_type: row.chain_type })
    })

  // The app's backend (Basic) or the user (bearer): the credential the request carries decides.
  const userOrApp = async (c: C): Promise<{ app: true } | Auth> =>
    /^basic\s/i.test(c.req.header('authorization') ?? '') ? (await requireAppSecret(c, ctx), { app: true }) : requireAuth(c, ctx)
  r.get('/wallets/delegations/audit', { summary: 'Delegated signatures: the user’s (bearer) or the app’s (app secret)', guard: userOrApp }, async (c, { auth }) => {
    const app = c.get('app')
    const lim = Number(c.req.query('limit') ?? 50)
    const limit = Number.isInteger(lim) && lim > 0 ? Math.min(lim, 200) : 50
    if ('app' in auth) {
      const userId = c.req.query('user_id')
      const address = c.req.query('address')
      const entries = await readAudit(ctx.store, app.id, { userId: userId && userId.length <= 128 ? userId : undefined, address: address && address.length <= 128 ? address : undefined }, limit)
      return c.json({ entries })
    }
    const live = await ctx.store.query<{ chain_type: string; address: string; policy: DelegationPolicy | null; created_at: number; expires_at: number | null; last_used_at: number | null }>(
      'SELECT chain_type, address, policy, created_at, expires_at, last_used_at FROM wallet_delegations WHERE app_id = $1 AND user_id = $2 ORDER BY created_at',
      [app.id, auth.userId],
    )
    const delegations = live.map((d) => ({
      chain_type: d.chain_type,
      address: d.address,
      policy: d.policy ?? normalizePolicy(d.chain_type as ChainType, null),
      created_at: Number(d.created_at),
      expires_at: d.expires_at === null ? null : Number(d.expires_at),
      last_used_at: d.last_used_at === null ? null : Number(d.last_used_at),
    }))
    return c.json({ delegations, entries: await readAudit(ctx.store, app.id, { userId: auth.userId }, limit) })
  })

  r.post('/wallets/:address/rpc', { summary: "Sign with a delegated wallet (the app's backend, Basic app id and app secret)", body: z.object({
      method: z.enum(['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction', 'signMessage', 'signTransaction'], {
        message: "Expected 'personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction', 'signMessage' or 'signTransaction'",
      }),
      params: z.record(z.string(), z.unknown()).default({}),
      chain_type: z.enum(['ethereum', 'solana'], { message: DELEGATION_MSG.chainTypes }).optional(),
    }), auth: 'app-secret' }, async (c, { body: b, auth: app }) => {
      const chain = METHOD_CHAIN[b.method]
      if (b.chain_type && b.chain_type !== chain) throw errors.invalidData(DELEGATION_MSG.wrongChain(b.method, b.chain_type))
      const address = c.req.param('address') ?? ''
      if (address.length > 128) throw errors.invalidData(DELEGATION_MSG.notDelegated, undefined, 404)
      const ip = clientIp(c, ctx.trustProxy)
      const payloadSha256 = createHash('sha256').update(canonical({ method: b.method, params: b.params })).digest('hex')
      const lookup = (q: Queryable, lock: boolean) =>
        q.query<{ sealed_key: string; address: string; user_id: string; expires_at: number | null }>(
          `SELECT d.sealed_key, d.address, d.user_id, d.expires_at FROM wallet_delegations d
           JOIN accounts a ON a.user_id = d.user_id AND a.type = 'wallet' AND (a.data->>'delegated')::boolean
             AND a.data->>'chain_type' = d.chain_type AND a.data->>'address' = d.address
           WHERE d.app_id = $1 AND d.chain_type = $2 AND d.address_key = $3${lock ? ' FOR UPDATE OF d' : ''}`,
          [app.id, chain, addressKey(chain, address)],
        )
      const rows = await lookup(ctx.store, false)
      if (!rows.length) {
        // Another chain's wallet at this address reads as not delegated too, but says why.
        const other = await ctx.store.query('SELECT 1 FROM wallet_delegations WHERE app_id = $1 AND address_key = $2', [
          app.id,
          addressKey(chain === 'ethereum' ? 'solana' : 'ethereum', address),
        ])
        if (other.length) throw errors.invalidData(DELEGATION_MSG.wrongChain(b.method, chain === 'ethereum' ? 'solana' : 'ethereum'))
        // An embedded wallet of one of the app's users (revoked, or never delegated): the attempt is audited for its owner.
        const [owner] = await ctx.store.query<{ user_id: string; address: string }>(
          `SELECT user_id, data->>'address' AS address FROM accounts WHERE app_id = $1 AND type = 'wallet' AND identifier = $2 AND data->>'wallet_client_type' = 'privy' LIMIT 1`,
          [app.id, `${chain}:${addressKey(chain, address)}`],
        )
        if (owner) await audit(ctx.store, { appId: app.id, userId: owner.user_id, chain, address: owner.address, method: b.method, payloadSha256, facts: null, ip, allowed: false, reason: 'not_delegated' })
        throw new ApiError(404, 'wallet_not_delegated', DELEGATION_MSG.notDelegated)
      }
      const row = rows[0]
      const base = { appId: app.id, userId: row.user_id, chain, address: row.address, method: b.method, payloadSha256, ip }
      let facts: RequestFacts | null = null
      try {
        if (row.expires_at !== null && now() >= Number(row.expires_at)) {
          // Expired: the sealed key goes, as with a revoke.
          await ctx.store.transaction((q) => endDelegation(q, app.id, chain, row.address, row.user_id))
          throw new PolicyRefusal('expired', DELEGATION_MSG.expired)
        }
        facts = await requestFacts(b.method, b.params, row.address)
        const { key, policy } = await openSealed(await sk(), row.sealed_key, chain, row.address)
        try {
          checkPolicy(policy, b.method, facts)
          const f = facts
          const data = await ctx.store.transaction(async (q) => {
            // The row lock serialises this wallet's signatures: the day's sum cannot be raced.
            const locked = await lookup(q, true)
            if (!locked.length) throw new ApiError(404, 'wallet_not_delegated', DELEGATION_MSG.notDelegated)
            if (f.value > 0n) {
              const [day] = await q.query<{ total: string }>(
                `SELECT coalesce(sum(value), 0)::text AS total FROM wallet_delegation_audit
                 WHERE app_id = $1 AND chain_type = $2 AND lower(address) = lower($3) AND allowed AND created_at > $4`,
                [app.id, chain, row.address, now() - DAY_S],
              )
              if (BigInt(day.total.split('.')[0]) + f.value > BigInt(policy.max_value_per_day)) throw new PolicyRefusal('value_over_day_cap', DELEGATION_MSG.overDayCap)
            }
            const signed = await sign(b.method, b.params, key)
            await audit(q, { ...base, facts: f, allowed: true, reason: null })
            await q.query('UPDATE wallet_delegations SET last_used_at = $1 WHERE app_id = $2 AND chain_type = $3 AND address_key = $4', [now(), app.id, chain, addressKey(chain, address)])
            return signed
          })
          ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, method: b.method }, 'delegated signature')
          return c.json({ method: b.method, data })
        } finally {
          key.fill(0)
        }
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) {
          const reason = err instanceof PolicyRefusal ? err.reason : err.code === 'wallet_not_delegated' ? 'not_delegated' : 'invalid_request'
          await audit(ctx.store, { ...base, facts, allowed: false, reason })
          ctx.log.info({ req_id: c.get('requestId'), app_id: app.id, method: b.method, reason }, 'delegated signature refused')
        }
        throw err
      }
    })
  return r.app
}
