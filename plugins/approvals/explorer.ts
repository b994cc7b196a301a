/**
 * Block explorer links (part 2 section 7): Ethereum — the chain's explorer, etherscan when it
 * names none; Solana — explorer.solana.com with the cluster (none for mainnet-beta, a custom
 * URL for a local cluster).
 */
export const ETHERSCAN = 'https://etherscan.io'
export const SOLANA_EXPLORER = 'https://explorer.solana.com'

type ChainLike = { blockExplorers?: { default?: { url?: string } } } | null | undefined

const trim = (u: string) => u.replace(/\/+$/, '')

export function evmExplorerUrl(chain: ChainLike, kind: 'tx' | 'address', value: string): string {
  return `${trim(chain?.blockExplorers?.default?.url ?? ETHERSCAN)}/${kind}/${value}`
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
