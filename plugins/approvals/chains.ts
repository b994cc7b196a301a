/**
 * The built-in chain list (28 networks, viem's chain definitions) and block explorer links
 * (part 2 section 7: the chain's explorer, etherscan by default; Solana's explorer with the
 * cluster). Import it where a host wants it (`supportedChains: [base, mainnet]` also works
 * with any viem chain): it is not part of the approval screens' own weight.
 */
import {
  arbitrum,
  arbitrumNova,
  arbitrumSepolia,
  avalanche,
  avalancheFuji,
  base,
  baseSepolia,
  blast,
  bsc,
  bscTestnet,
  celo,
  fantom,
  gnosis,
  hardhat,
  holesky,
  linea,
  lineaSepolia,
  mainnet,
  mantle,
  optimism,
  optimismSepolia,
  polygon,
  polygonAmoy,
  scroll,
  sepolia,
  zksync,
  zora,
  zoraSepolia,
  type Chain as ViemChain,
} from 'viem/chains'

export const BUILT_IN_CHAINS: readonly ViemChain[] = [
  mainnet, sepolia, holesky, optimism, optimismSepolia, base, baseSepolia, arbitrum, arbitrumSepolia, arbitrumNova,
  polygon, polygonAmoy, bsc, bscTestnet, avalanche, avalancheFuji, zora, zoraSepolia, celo, linea, lineaSepolia,
  scroll, zksync, gnosis, blast, mantle, fantom, hardhat,
]

export const builtInChain = (id: number) => BUILT_IN_CHAINS.find((c) => c.id === id)
