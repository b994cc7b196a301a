/**
 * Block explorer links (part 2 section 7): Ethereum — the chain's explorer, etherscan when it
 * names none, and no link for a local development chain (hardhat, anvil, ganache: chain id
 * 31337 or 1337, or an RPC on this machine) that names none: mainnet Etherscan knows nothing
 * of it; Solana — explorer.solana.com with the cluster (none for mainnet-beta, a custom URL
 * for a local cluster).
 */
export const ETHERSCAN = 'https://etherscan.io'
export const SOLANA_EXPLORER = 'https://explorer.solana.com'

type ChainLike =
  | { id?: number; rpc?: string | null; rpcUrls?: { default?: { http?: readonly string[] } }; blockExplorers?: { default?: { url?: string } } }
  | null
  | undefined

const trim = (u: string) => u.replace(/\/+$/, '')

/** Chain ids of local development nodes (hardhat and anvil 31337, ganache 1337). */
export const LOCAL_CHAIN_IDS: readonly number[] = [31337, 1337]

/** A local development chain: its id, or an RPC URL on this machine. */
export function isLocalChain(chain: ChainLike): boolean {
  if (!chain) return false
  if (chain.id !== undefined && LOCAL_CHAIN_IDS.includes(chain.id)) return true
  const rpc = chain.rpc ?? chain.rpcUrls?.default?.http?.[0]
  if (!rpc) return false
  try {
    const host = new URL(rpc).hostname
    return host === 'localhost' || host === '[::1]' || host.endsWith('.localhost') || /^127\./.test(host)
  } catch {
    return false
  }
}

/** The explorer link, or null for a local chain that names no explorer. */
export function evmExplorerUrl(chain: ChainLike, kind: 'tx' | 'address', value: string): string | null {
  const own = chain?.blockExplorers?.default?.url
  if (own) return `${trim(own)}/${kind}/${value}`
  if (isLocalChain(chain)) return null
  return `${ETHERSCAN}/${kind}/${value}`
}

export type SolanaCluster = 'mainnet-beta' | 'devnet' | 'testnet' | (string & {})

export function solanaExplorerUrl(kind: 'tx' | 'address', value: string, cluster: SolanaCluster = 'mainnet-beta', rpcUrl?: string): string {
  const base = `${SOLANA_EXPLORER}/${kind}/${value}`
  if (cluster === 'mainnet-beta') return base
  if (cluster === 'devnet' || cluster === 'testnet') return `${base}?cluster=${cluster}`
  return `${base}?cluster=custom${rpcUrl ? `&customUrl=${encodeURIComponent(rpcUrl)}` : ''}`
}

/** Default public RPC endpoints per Solana cluster (part 2 section 7). */
export const SOLANA_RPC: Record<string, string> = {
  'mainnet-beta': 'https://api.mainnet-beta.solana.com',
  devnet: 'https://api.devnet.solana.com',
  testnet: 'https://api.testnet.solana.com',
}
