/**
 * The funding request (spec part 2 section 3 'Funding request') and its resolved form: chain
 * type, chain or cluster, amount, asset (native, USDC, or an ERC-20 with its contract info),
 * the options the app allows, the default method, bridging and the MoonPay override.
 */
export interface FundingChain {
  id: number
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: readonly string[] } }
  blockExplorers?: { default: { name: string; url: string } }
  testnet?: boolean
}

export type SolanaClusterName = 'mainnet-beta' | 'devnet' | 'testnet'

export interface SolanaCluster {
  /** 'mainnet-beta', 'devnet', 'testnet', or a cluster of the app's own (e.g. 'localnet', with its `rpcUrl`). */
  name: SolanaClusterName | (string & {})
  /** JSON-RPC URL (default: the public endpoint of the cluster). */
  rpcUrl?: string
}

export type FundingMethodKind = 'card' | 'exchange' | 'wallet' | 'manual'

export interface FundingOption {
  method: 'card' | 'exchange' | 'wallets' | 'payment-request' | (string & {})
  provider?: 'coinbase' | 'moonpay' | (string & {})
}

export interface FundingRequest {
  /** The wallet to fund. */
  address: string
  chainType?: 'ethereum' | 'solana'
  /** EVM chain (a viem `Chain` fits). Default: the app's default chain, else Ethereum. */
  chain?: FundingChain
  /** Solana cluster (labels Devnet, Solana, Testnet; default mainnet-beta). */
  cluster?: SolanaCluster
  /** Decimal amount in the asset's units ('0.05'). Default: the app's recommended amount. */
  amount?: string
  /** 'native-currency' (default), 'USDC', or an ERC-20 `{ erc20: address }`. */
  asset?: 'native-currency' | 'USDC' | { erc20: string }
  erc20Address?: string
  erc20ContractInfo?: { symbol: string; decimals: number }
  isUSDC?: boolean
  supportedOptions?: FundingOption[]
  preferredCardProvider?: 'coinbase' | 'moonpay'
  defaultFundingMethod?: FundingMethodKind
  usingDefaultFundingMethod?: boolean
  errorMessage?: string
  crossChainBridgingEnabled?: boolean
  moonpayConfigOverride?: { currencyCode?: string; quoteCurrencyAmount?: number }
}

/** The request with every default filled in. */
export interface ResolvedFundingRequest extends FundingRequest {
  chainType: 'ethereum' | 'solana'
  amount: string
  /** Symbol and decimals of what is funded. */
  symbol: string
  decimals: number
  /** The network's display name ('Ethereum', 'Base', 'Solana', 'Devnet' …). */
  network: string
  chain?: FundingChain
  cluster?: SolanaCluster
  isUSDC: boolean
  crossChainBridgingEnabled: boolean
}

export const MAINNET: FundingChain = {
  id: 1,
  name: 'Ethereum',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['https://cloudflare-eth.com'] } },
}

export const CLUSTER_LABELS: Record<SolanaClusterName, string> = { 'mainnet-beta': 'Solana', devnet: 'Devnet', testnet: 'Testnet' }
export const CLUSTER_RPC: Record<SolanaClusterName, string> = {
  'mainnet-beta': 'https://api.mainnet-beta.solana.com',
  devnet: 'https://api.devnet.solana.com',
  testnet: 'https://api.testnet.solana.com',
}

/** The app's funding config as the server sends it (`funding_config`). */
export interface WireFundingConfig {
  methods?: FundingMethodKind[]
  options?: FundingOption[]
  default_recommended_amount?: string | null
  default_recommended_currency?: { chain: string; asset?: string } | null
  prompt_funding_on_wallet_creation?: boolean
  cross_chain_bridging_enabled?: boolean
  moonpay?: {
    use_sandbox: boolean
    payment_method: string | null
    api_key: string
    sandbox_api_key: string
    api_url: string
    sandbox_api_url: string
  } | null
  coinbase?: { pay_url: string } | null
  bridge?: { api_url: string; testnet_api_url: string } | null
}

export const DEFAULT_AMOUNT = '0.01'

/** A cluster's label: the spec's (Devnet, Solana, Testnet), else its own name capitalised ('Localnet'). */
export function clusterLabel(name: string): string {
  return (CLUSTER_LABELS as Record<string, string>)[name] ?? name.charAt(0).toUpperCase() + name.slice(1)
}

export function resolveRequest(input: FundingRequest, config: WireFundingConfig | null, defaultChain?: FundingChain, defaultCluster?: SolanaCluster): ResolvedFundingRequest {
  const chainType = input.chainType ?? (input.cluster ? 'solana' : 'ethereum')
  const amount = input.amount ?? config?.default_recommended_amount ?? DEFAULT_AMOUNT
  const isUSDC = !!input.isUSDC || input.asset === 'USDC'
  const bridging = input.crossChainBridgingEnabled ?? !!config?.cross_chain_bridging_enabled
  if (chainType === 'solana') {
    const cluster = input.cluster ?? defaultCluster ?? { name: 'mainnet-beta' as const }
    return { ...input, chainType, cluster, amount, isUSDC, symbol: isUSDC ? 'USDC' : 'SOL', decimals: isUSDC ? 6 : 9, network: clusterLabel(cluster.name), crossChainBridgingEnabled: bridging }
  }
  const chain = input.chain ?? defaultChain ?? MAINNET
  const erc20 = input.erc20Address ?? (typeof input.asset === 'object' ? input.asset.erc20 : undefined)
  // A chain without its currency (a caller that named only id and name) is taken as an Ether chain, as viem's are by default.
  const native = chain.nativeCurrency ?? MAINNET.nativeCurrency
  const symbol = isUSDC ? 'USDC' : erc20 ? (input.erc20ContractInfo?.symbol ?? 'tokens') : native.symbol
  const decimals = isUSDC ? 6 : erc20 ? (input.erc20ContractInfo?.decimals ?? 18) : native.decimals
  return { ...input, chainType, chain, erc20Address: erc20, amount, isUSDC, symbol, decimals, network: chain.name, crossChainBridgingEnabled: bridging }
}

/**
 * The request's chain made whole: a chain given by id (and name) only, as another plugin may
 * know it, gets its RPC and currency from the app's `supportedChains` entry of that id (the
 * balance is read there); a chain that has them is kept as it is.
 */
export function completeChain(chain: FundingChain | undefined, configured: readonly { id: number; name?: string; rpcUrl?: string; [k: string]: unknown }[] = []): FundingChain | undefined {
  if (!chain || (chain.nativeCurrency && chain.rpcUrls?.default?.http?.length)) return chain
  const known = configured.find((c) => c.id === chain.id) as (Partial<FundingChain> & { rpcUrl?: string }) | undefined
  const http = chain.rpcUrls?.default?.http?.length ? chain.rpcUrls.default.http : (known?.rpcUrls?.default?.http ?? (known?.rpcUrl ? [known.rpcUrl] : []))
  return { ...known, ...chain, name: chain.name ?? known?.name, nativeCurrency: chain.nativeCurrency ?? known?.nativeCurrency ?? MAINNET.nativeCurrency, rpcUrls: { default: { http } } } as FundingChain
}

/** The Solana JSON-RPC URL of a request. */
export function clusterRpc(cluster: SolanaCluster | undefined): string {
  return cluster?.rpcUrl ?? (CLUSTER_RPC as Record<string, string>)[cluster?.name ?? 'mainnet-beta'] ?? CLUSTER_RPC['mainnet-beta']
}

/** Is a method allowed by the request's supportedOptions (absent: every method)? */
export function optionAllowed(request: FundingRequest, method: string, provider?: string): boolean {
  const opts = request.supportedOptions
  if (!opts?.length) return true
  return opts.some((o) => (o.method === method || (method === 'wallet' && o.method === 'wallets')) && (!o.provider || !provider || o.provider === provider))
}
