/**
 * A delegation's policy (issue 26): what the app's backend may have the server sign while a
 * wallet is delegated. The host proposes it (`delegateWallet({ address, chainType, policy })`),
 * the consent page on the wallet service's origin shows it in plain words and seals it with the
 * wallet key, and the server checks every delegated signature against it BEFORE signing.
 *
 * Node-free and dependency-free: the host plugin, the consent page and the server share it.
 *
 * Defaults (no policy, or a field left out) are the narrowest useful ones:
 * - methods: message signing only (`personal_sign` / Solana `signMessage`); typed data and
 *   transactions only when the host asks for them;
 * - chainIds: none; an Ethereum policy with transactions or typed data must name its chains;
 * - contracts: any address (an allow-list narrows it: Ethereum `to` / typed data's
 *   `verifyingContract`, Solana program ids);
 * - value caps per transaction and per rolling 24 h: 0 (no native value moves unless the host
 *   asks for a cap, in wei or lamports as decimal strings);
 * - expiry: 30 days (at most 365).
 */

export type DelegationChain = 'ethereum' | 'solana'
export const ETHEREUM_METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction'] as const
export const SOLANA_METHODS = ['signMessage', 'signTransaction'] as const
export type DelegatedMethod = (typeof ETHEREUM_METHODS)[number] | (typeof SOLANA_METHODS)[number]

/** What the host proposes (camelCase; every field optional). */
export interface DelegationPolicyInput {
  methods?: DelegatedMethod[]
  /** EVM chain ids transactions and typed data may name (Ethereum only). */
  chainIds?: number[]
  /** Allowed destinations: Ethereum `to` addresses / typed data `verifyingContract`; Solana program ids. */
  contracts?: string[]
  /** Wei (Ethereum) or lamports (Solana), a decimal string. */
  maxValuePerTx?: string
  maxValuePerDay?: string
  /** Seconds from consent. */
  expiresIn?: number
}

/** The policy as sealed, stored and checked (wire form, every field present). */
export interface DelegationPolicy {
  methods: DelegatedMethod[]
  chain_ids: number[]
  /** null: any destination. Ethereum addresses lower-cased. */
  contracts: string[] | null
  max_value_per_tx: string
  max_value_per_day: string
  expires_in: number
}

export const DEFAULT_EXPIRES_IN = 30 * 86400
export const MAX_EXPIRES_IN = 365 * 86400
export const MIN_EXPIRES_IN = 60
const MAX_LIST = 64
const DECIMAL = /^(0|[1-9][0-9]{0,77})$/
const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const SOL_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

export const POLICY_TEXTS = {
  methods: 'policy.methods: a method this wallet cannot delegate',
  chainIdsRequired: 'policy.chainIds: name the chains transactions and typed data may use',
  chainIds: 'policy.chainIds: chain ids are positive integers',
  chainIdsSolana: 'policy.chainIds: Solana delegations have no chain ids',
  contracts: 'policy.contracts: not a valid address for this chain type',
  value: 'policy: value caps are decimal strings (wei or lamports)',
  dayBelowTx: 'policy.maxValuePerDay: must be at least maxValuePerTx',
  expiresIn: `policy.expiresIn: between ${MIN_EXPIRES_IN} seconds and 365 days`,
  tooLong: `policy: at most ${MAX_LIST} entries per list`,
} as const

export class PolicyError extends Error {}

const methodsOf = (chain: DelegationChain): readonly DelegatedMethod[] => (chain === 'ethereum' ? ETHEREUM_METHODS : SOLANA_METHODS)

/**
 * The full policy from the host's proposal (or the stored/wire form: both spellings are read),
 * with the defaults; throws PolicyError with a developer-facing text when it is invalid.
 */
export function normalizePolicy(chain: DelegationChain, input: DelegationPolicyInput | Partial<DelegationPolicy> | null | undefined): DelegationPolicy {
  const p = (input ?? {}) as Record<string, unknown>
  const pick = (camel: string, snake: string) => (p[camel] !== undefined ? p[camel] : p[snake])
  const allowed = methodsOf(chain)
  const rawMethods = p.methods === undefined ? [allowed[0]] : p.methods
  if (!Array.isArray(rawMethods) || !rawMethods.length || rawMethods.length > allowed.length) throw new PolicyError(POLICY_TEXTS.methods)
  for (const m of rawMethods) if (!allowed.includes(m as DelegatedMethod)) throw new PolicyError(POLICY_TEXTS.methods)
  const methods = allowed.filter((m) => rawMethods.includes(m))

  const rawChains = pick('chainIds', 'chain_ids') ?? []
  if (!Array.isArray(rawChains)) throw new PolicyError(POLICY_TEXTS.chainIds)
  if (rawChains.length > MAX_LIST) throw new PolicyError(POLICY_TEXTS.tooLong)
  for (const c of rawChains) if (typeof c !== 'number' || !Number.isSafeInteger(c) || c <= 0) throw new PolicyError(POLICY_TEXTS.chainIds)
  const chain_ids = [...new Set(rawChains as number[])].sort((a, b) => a - b)
  if (chain === 'solana' && chain_ids.length) throw new PolicyError(POLICY_TEXTS.chainIdsSolana)
  if (chain === 'ethereum' && !chain_ids.length && methods.some((m) => m !== 'personal_sign')) throw new PolicyError(POLICY_TEXTS.chainIdsRequired)

  const rawContracts = p.contracts
  let contracts: string[] | null = null
  if (rawContracts !== undefined && rawContracts !== null) {
    if (!Array.isArray(rawContracts)) throw new PolicyError(POLICY_TEXTS.contracts)
    if (rawContracts.length > MAX_LIST) throw new PolicyError(POLICY_TEXTS.tooLong)
    for (const a of rawContracts) if (typeof a !== 'string' || !(chain === 'ethereum' ? ETH_ADDRESS : SOL_ADDRESS).test(a)) throw new PolicyError(POLICY_TEXTS.contracts)
    contracts = [...new Set((rawContracts as string[]).map((a) => (chain === 'ethereum' ? a.toLowerCase() : a)))].sort()
  }

  const cap = (v: unknown) => {
    if (v === undefined || v === null) return '0'
    if (typeof v !== 'string' || !DECIMAL.test(v)) throw new PolicyError(POLICY_TEXTS.value)
    return v
  }
  const max_value_per_tx = cap(pick('maxValuePerTx', 'max_value_per_tx'))
  const dayRaw = pick('maxValuePerDay', 'max_value_per_day')
  // A per-transaction cap alone caps the day at the same amount.
  const max_value_per_day = dayRaw === undefined || dayRaw === null ? max_value_per_tx : cap(dayRaw)
  if (BigInt(max_value_per_day) < BigInt(max_value_per_tx)) throw new PolicyError(POLICY_TEXTS.dayBelowTx)

  const exp = pick('expiresIn', 'expires_in') ?? DEFAULT_EXPIRES_IN
  if (typeof exp !== 'number' || !Number.isSafeInteger(exp) || exp < MIN_EXPIRES_IN || exp > MAX_EXPIRES_IN) throw new PolicyError(POLICY_TEXTS.expiresIn)
  return { methods, chain_ids, contracts, max_value_per_tx, max_value_per_day, expires_in: exp }
}

/** Whether two normalised policies are the same (field by field). */
export function samePolicy(a: DelegationPolicy, b: DelegationPolicy): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

// ------------------------------------------------------------------ plain words

const CHAIN_NAMES: Record<number, string> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  43114: 'Avalanche',
  11155111: 'Sepolia',
  84532: 'Base Sepolia',
  31337: 'Local test chain',
}
/** Chains whose native coin is ether (the value caps read 'ETH' there). */
const ETH_NATIVE = new Set([1, 10, 8453, 42161, 11155111, 84532, 31337])
export const chainName = (id: number) => (CHAIN_NAMES[id] ? `${CHAIN_NAMES[id]} (${id})` : `Chain ${id}`)

/** A decimal amount of base units as a decimal number of `decimals`. */
export function formatUnits(value: string, decimals: number): string {
  const s = value.padStart(decimals + 1, '0')
  const whole = s.slice(0, s.length - decimals)
  const frac = s.slice(s.length - decimals).replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : whole
}

const short = (a: string) => (a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a)

export const POLICY_WORDS = {
  personal_sign: 'Sign messages',
  eth_signTypedData_v4: 'Sign typed data (EIP-712)',
  eth_signTransaction: 'Sign transactions',
  signMessage: 'Sign messages',
  signTransaction: 'Sign transactions',
  chains: 'On {chains}',
  anyAddress: 'With any address or contract',
  onlyAddresses: 'Only with {list}',
  onlyPrograms: 'Only with the programs {list}',
  noValue: 'Cannot send {unit}',
  valueCap: 'Up to {tx} {unit} per transaction and {day} {unit} per day',
  expires: 'Until {date}, unless you revoke it sooner',
} as const

/** The policy in plain words, one line each (what the consent page lists). `until`: the expiry as text. */
export function describePolicy(chain: DelegationChain, p: DelegationPolicy, until: string, W: typeof POLICY_WORDS = POLICY_WORDS): string[] {
  const fill = (t: string, v: Record<string, string>) => t.replace(/\{(\w+)\}/g, (_, k: string) => v[k] ?? '')
  const lines: string[] = [...new Set(p.methods.map((m) => W[m]))]
  const txs = p.methods.includes('eth_signTransaction') || p.methods.includes('signTransaction')
  if (p.chain_ids.length) lines.push(fill(W.chains, { chains: p.chain_ids.map(chainName).join(', ') }))
  if (txs || p.methods.includes('eth_signTypedData_v4')) {
    if (!p.contracts) lines.push(W.anyAddress)
    else lines.push(fill(chain === 'solana' ? W.onlyPrograms : W.onlyAddresses, { list: p.contracts.map(short).join(', ') }))
  }
  if (txs) {
    const unit = chain === 'solana' ? 'SOL' : p.chain_ids.every((c) => ETH_NATIVE.has(c)) ? 'ETH' : 'native coin'
    const d = chain === 'solana' ? 9 : 18
    lines.push(p.max_value_per_day === '0' ? fill(W.noValue, { unit }) : fill(W.valueCap, { tx: formatUnits(p.max_value_per_tx, d), day: formatUnits(p.max_value_per_day, d), unit }))
  }
  lines.push(fill(W.expires, { date: until }))
  return lines
}
