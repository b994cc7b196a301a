/**
 * The app's smart-wallet settings (apps.json `smartWallets`, issue 29), validated when the
 * server starts (every problem named with its path; exit code 78 like the rest of apps.json):
 *
 * ```json
 * "smartWallets": {
 *   "enabled": true,
 *   "type": "safe",                       // kernel | safe | light_account | coinbase_smart_wallet | biconomy | thirdweb | nexus
 *   "version": "1.4.1",                   // optional
 *   "networks": [{
 *     "chainId": 8453,                    // spec part 1 section 3's smart-wallet chains; 31337 in development mode only
 *     "bundlerUrl": "https://…",          // sent to the client
 *     "paymasterUrl": "https://…/api/v1/paymaster",   // sent to the client (ERC-7677)
 *     "paymasterContext": { … },          // sent to the client, passed back to the paymaster
 *     "rpcUrl": "https://…",              // server only: the chain the server reads (else PORTICO_RPC_URLS)
 *     "paymasterAddress": "0x…"           // server only: the VerifyingPaymaster this server signs for
 *   }],
 *   "paymaster": {                        // server only: the self-hosted verifying paymaster
 *     "signerKeyEnv": "PORTICO_PAYMASTER_KEY",   // or, in development mode only, "signerKey": "0x…" (64 hex digits)
 *     "policy": { "chains": [8453], "dailyLimitPerUser": 20, "validForS": 300, "maxCostWei": "10000000000000000" }
 *   }
 * }
 * ```
 */
import { getAddress, isAddress, type Address, type Hex } from 'viem'
import { z } from 'zod'
import type { AppSettings } from '../../config'

/** Spec part 1 section 3 (and part 2's table): the smart-wallet chain ids. */
export const SMART_WALLET_CHAINS = [1, 11155111, 137, 10, 8453, 84532, 42161, 7777777, 43114, 56] as const
/** The local chain (anvil / hardhat): accepted in development mode only. */
export const LOCAL_CHAIN = 31337
/** The account kinds of the published client's SmartWalletType. */
export const SMART_WALLET_TYPES = ['kernel', 'safe', 'light_account', 'coinbase_smart_wallet', 'biconomy', 'thirdweb', 'nexus'] as const
export type SmartWalletType = (typeof SMART_WALLET_TYPES)[number]
/** Spec part 2: 'Sponsored gas defaults: mode SPONSORED, gas limit calculation on, expiry 300 s'. */
export const DEFAULT_SPONSORSHIP_EXPIRY_S = 300
export const DEFAULT_DAILY_LIMIT = 50

const address = z.string().refine((s) => isAddress(s, { strict: false }), 'must be an address (0x and 40 hex digits)')
const url = z.url({ message: 'must be a URL' }).max(2048)

const network = z.strictObject({
  chainId: z.number({ message: 'must be a number (an EVM chain id)' }).int().positive(),
  bundlerUrl: url,
  paymasterUrl: url.nullish(),
  paymasterContext: z.record(z.string(), z.unknown()).nullish(),
  rpcUrl: url.nullish(),
  paymasterAddress: address.nullish(),
})

export const smartWalletsSchema = z.strictObject({
  enabled: z.boolean({ message: 'must be true or false' }),
  type: z.enum(SMART_WALLET_TYPES, { message: `must be one of ${SMART_WALLET_TYPES.join(', ')}` }),
  version: z.string().min(1).max(32).nullish(),
  networks: z.array(network).default([]),
  paymaster: z
    .strictObject({
      signerKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits').nullish(),
      signerKeyEnv: z.string().min(1).nullish(),
      policy: z
        .strictObject({
          chains: z.array(z.number().int().positive()).nullish(),
          dailyLimitPerUser: z.number().int().min(0).nullish(),
          maxCostWei: z.string().regex(/^\d{1,40}$/, 'must be a decimal string of wei').nullish(),
          validForS: z.number().int().min(30).max(86400).nullish(),
        })
        .nullish(),
    })
    .nullish(),
})

export interface SmartWalletNetwork {
  chainId: number
  bundlerUrl: string
  paymasterUrl: string | null
  paymasterContext: Record<string, unknown> | null
  rpcUrl: string | null
  paymasterAddress: Address | null
}

export interface SmartWalletSettings {
  enabled: boolean
  type: SmartWalletType
  version: string | null
  networks: SmartWalletNetwork[]
  paymaster: {
    signerKey: Hex | null
    policy: { chains: number[]; dailyLimitPerUser: number; validForS: number; maxCostWei: bigint | null }
  } | null
}

const raw = (app: AppSettings): unknown => (app as AppSettings & { smartWallets?: unknown }).smartWallets

/** Every problem with the app's `smartWallets` (empty: fine or absent), each with its path. */
export function smartWalletProblems(app: AppSettings, dev: boolean): string[] {
  const v = raw(app)
  if (v == null) return []
  const at = (path: (string | number | symbol)[]) => `apps: ${app.id}: smartWallets${path.length ? '.' + path.map(String).join('.') : ''}`
  const r = smartWalletsSchema.safeParse(v)
  if (!r.success) return r.error.issues.map((i) => `${at(i.path)}: ${i.message}`)
  const s = r.data
  const problems: string[] = []
  const supported = `supported: ${SMART_WALLET_CHAINS.join(', ')}; ${LOCAL_CHAIN} in development mode only`
  const okChain = (id: number) => (SMART_WALLET_CHAINS as readonly number[]).includes(id) || (dev && id === LOCAL_CHAIN)
  const seen = new Set<number>()
  s.networks.forEach((n, i) => {
    if (!okChain(n.chainId)) problems.push(`${at(['networks', i, 'chainId'])}: chain ${n.chainId} is not a supported smart-wallet chain (${supported})`)
    if (seen.has(n.chainId)) problems.push(`${at(['networks', i, 'chainId'])}: chain ${n.chainId} is listed twice`)
    seen.add(n.chainId)
  })
  if (s.enabled && s.networks.length === 0) problems.push(`${at(['networks'])}: an enabled smart-wallet config needs at least one network`)
  const pm = s.paymaster
  if (pm) {
    if (!pm.signerKey && !pm.signerKeyEnv) problems.push(`${at(['paymaster'])}: needs signerKey or signerKeyEnv (the VerifyingPaymaster's signer key)`)
    if (pm.signerKey && !dev) {
      problems.push(`${at(['paymaster', 'signerKey'])}: a key written inline is for development mode only; give signerKeyEnv (an environment variable) so the key is never stored in apps.json or the database`)
    }
    if (pm.signerKeyEnv && !pm.signerKey && !/^0x[0-9a-fA-F]{64}$/.test(process.env[pm.signerKeyEnv] ?? '')) {
      problems.push(`${at(['paymaster', 'signerKeyEnv'])}: environment variable ${pm.signerKeyEnv} must hold 0x and 64 hex digits`)
    }
    for (const c of pm.policy?.chains ?? []) {
      if (!seen.has(c)) problems.push(`${at(['paymaster', 'policy', 'chains'])}: chain ${c} is not one of the networks`)
    }
    if (!s.networks.some((n) => n.paymasterAddress)) problems.push(`${at(['networks'])}: a paymaster needs a network with paymasterAddress (the VerifyingPaymaster contract)`)
  }
  return problems
}

/** The app's parsed settings (validated at start-up), or null when it has none. */
export function smartWalletSettings(app: AppSettings): SmartWalletSettings | null {
  const v = raw(app)
  if (v == null) return null
  const s = smartWalletsSchema.parse(v)
  const pm = s.paymaster
  return {
    enabled: s.enabled,
    type: s.type,
    version: s.version ?? null,
    networks: s.networks.map((n) => ({
      chainId: n.chainId,
      bundlerUrl: n.bundlerUrl,
      paymasterUrl: n.paymasterUrl ?? null,
      paymasterContext: n.paymasterContext ?? null,
      rpcUrl: n.rpcUrl ?? null,
      paymasterAddress: n.paymasterAddress ? getAddress(n.paymasterAddress) : null,
    })),
    paymaster: pm
      ? {
          signerKey: ((pm.signerKey ?? (pm.signerKeyEnv ? process.env[pm.signerKeyEnv] : undefined)) as Hex | undefined) ?? null,
          policy: {
            chains: pm.policy?.chains ?? s.networks.filter((n) => n.paymasterAddress).map((n) => n.chainId),
            dailyLimitPerUser: pm.policy?.dailyLimitPerUser ?? DEFAULT_DAILY_LIMIT,
            validForS: pm.policy?.validForS ?? DEFAULT_SPONSORSHIP_EXPIRY_S,
            maxCostWei: pm.policy?.maxCostWei ? BigInt(pm.policy.maxCostWei) : null,
          },
        }
      : null,
  }
}

/** Does the app enable smart wallets? (apps.json was validated at start-up.) */
export function smartWalletsEnabled(app: AppSettings): boolean {
  const v = raw(app)
  return typeof v === 'object' && v !== null && (v as { enabled?: unknown }).enabled === true
}

/** GET /apps/{appId}/smart_wallets: the published client's SmartWalletConfiguration (nothing server-only). */
export function smartWalletsWire(s: SmartWalletSettings | null) {
  if (!s || !s.enabled) return { enabled: false as const }
  return {
    enabled: true as const,
    smart_wallet_type: s.type,
    ...(s.version ? { smart_wallet_version: s.version } : {}),
    configured_networks: s.networks.map((n) => ({
      chain_id: `eip155:${n.chainId}`,
      bundler_url: n.bundlerUrl,
      ...(n.paymasterUrl ? { paymaster_url: n.paymasterUrl } : {}),
      ...(n.paymasterContext ? { paymaster_context: n.paymasterContext } : {}),
    })),
  }
}
