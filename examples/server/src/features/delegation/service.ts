/** Delegated signing: the sealing key, the sealed wallet key, the signing methods and the policy. */
import { createECDH, createPrivateKey, type KeyObject } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { calculateJwkThumbprint, compactDecrypt, type JWK } from 'jose'
import { getAddress, isAddress, type Hex, type TransactionSerializable } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import { type ServerCtx } from '../../core/context'
import { normalizePolicy, PolicyError, type DelegationPolicy } from '../../wire/frame'
import { ApiError, errors } from '../../core/errors'
import { id } from '../../core/validate'
import { type WalletRow, audit } from './repo'
import { PolicyRefusal, DELEGATION_MSG } from './errors'

export const SEAL_PURPOSE = 'portico delegated wallet key v1'

export type ChainType = 'ethereum' | 'solana'

export const addressKey = (chain: ChainType, address: string) => (chain === 'ethereum' ? address.toLowerCase() : address)

/** The address a private key (32 bytes) controls. */
export function addressOf(chain: ChainType, key: Uint8Array): string {
  if (chain === 'ethereum') return privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`).address
  return base58.encode(ed25519.getPublicKey(key))
}

export interface SealingKey {
  publicJwk: JWK
  privateKey: KeyObject
}

/**
 * The server's sealing key pair (P-256): the private scalar is a keyed hash of a fixed label
 * under PORTICO_SECRET, so it is the same on every process and never written anywhere.
 * node:crypto derives the public point; jose does the JWE.
 */
export async function sealingKey(ctx: ServerCtx): Promise<SealingKey> {
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

export const sealedPayload = z.object({
  address: z.string().max(128),
  chain_type: z.enum(['ethereum', 'solana']),
  private_key: z.string().regex(/^(0x)?[0-9a-fA-F]{64}([0-9a-fA-F]{64})?$/),
  /** The policy the user saw on the consent page (normalised by normalizePolicy). */
  policy: z.record(z.string(), z.unknown()).nullish(),
})

export interface Opened {
  key: Uint8Array
  policy: DelegationPolicy
}

/**
 * Opens a sealed wallet key and checks it is `address`'s (else 400). Returns the 32-byte key
 * and the sealed policy (the defaults when the seal carries none).
 */
export async function openSealed(sk: SealingKey, jwe: string, chain: ChainType, address: string): Promise<Opened> {
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

export function findWallet(wallets: WalletRow[], chain: ChainType, address: string): WalletRow {
  const mine = wallets.filter((w) => w.chain_type === chain)
  if (chain === 'solana' && !mine.length) throw errors.invalidData(DELEGATION_MSG.needSolana)
  const w = mine.find((x) => addressKey(chain, x.address) === addressKey(chain, address))
  if (!w) throw errors.invalidData(DELEGATION_MSG.notAssociated)
  return w
}

export const hexData = z.string().max(262_144).regex(/^0x([0-9a-fA-F]{2})*$/, 'Expected 0x-prefixed hex')

/** Spec part 2 section 5: numeric transaction fields are numbers or hex strings (an error names the property). */
export const quantity = (name: string) =>
  z.custom<number | string>(
    (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)),
    { message: `${name} must be a number, bigint or hex string` },
  )

export const big = (v: number | string | undefined) => (v === undefined ? undefined : BigInt(v))

export const num = (v: number | string | undefined) => (v === undefined ? undefined : Number(BigInt(v)))

export const paramSchemas = {
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

export type RpcMethod = keyof typeof paramSchemas

export const METHOD_CHAIN: Record<RpcMethod, ChainType> = {
  personal_sign: 'ethereum',
  eth_signTypedData_v4: 'ethereum',
  eth_signTransaction: 'ethereum',
  signMessage: 'solana',
  signTransaction: 'solana',
}

export function parseParams<M extends RpcMethod>(method: M, params: unknown): z.infer<(typeof paramSchemas)[M]> {
  const r = paramSchemas[method].safeParse(params ?? {})
  if (r.success) return r.data as z.infer<(typeof paramSchemas)[M]>
  const fields: Record<string, string> = {}
  for (const i of r.error.issues) fields[['params', ...i.path].join('.')] ??= i.message
  const [first] = Object.entries(fields)
  throw errors.invalidData(`${first[0]}: ${first[1]}`, { fields }, 422)
}

/** Signs one request with the wallet's key (viem accounts for Ethereum, @noble/curves ed25519 for Solana). */
export async function sign(method: RpcMethod, params: unknown, key: Uint8Array): Promise<Record<string, unknown>> {
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

/** What a request asks for, as the policy and the audit see it. */
export interface RequestFacts {
  chainId: bigint | null
  to: string | null
  /** Native value moved (wei / lamports). */
  value: bigint
  /** Solana: the programs the transaction invokes. */
  programs: string[]
}

/** Validates the params and extracts what the policy checks (refusals are PolicyRefusals). */
export async function requestFacts(method: RpcMethod, params: unknown, address: string): Promise<RequestFacts> {
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
export function checkPolicy(policy: DelegationPolicy, method: RpcMethod, f: RequestFacts): void {
  if (!policy.methods.includes(method)) throw new PolicyRefusal('method_not_allowed', DELEGATION_MSG.methodNotAllowed(method))
  if (f.chainId !== null && !policy.chain_ids.some((c) => BigInt(c) === f.chainId)) throw new PolicyRefusal('chain_not_allowed', DELEGATION_MSG.chainNotAllowed(String(f.chainId)))
  if (policy.contracts) {
    const targets = method === 'signTransaction' ? f.programs : method === 'personal_sign' || method === 'signMessage' ? [] : [f.to ?? '']
    const bad = targets.find((t) => !policy.contracts!.includes(t))
    if (bad !== undefined) throw new PolicyRefusal('contract_not_allowed', DELEGATION_MSG.contractNotAllowed(bad))
  }
  if (f.value > BigInt(policy.max_value_per_tx)) throw new PolicyRefusal('value_over_tx_cap', DELEGATION_MSG.overTxCap)
}

export const DAY_S = 86400

export const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}` : JSON.stringify(v) ?? 'null'
