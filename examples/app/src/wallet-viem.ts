/** The demo's viem side (loaded on first use): a viem wallet client over the embedded wallet's EIP-1193 provider. */
import { createWalletClient, custom, formatEther, parseEther } from 'viem'
import type { EmbeddedWallet } from 'portico/plugins/embedded-wallet'

/** The local chain (hardhat, 31337); a plain object so no chain list loads. */
const LOCAL_CHAIN = {
  id: 31337,
  name: 'Hardhat',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
} as const

export async function walletClient(wallet: EmbeddedWallet) {
  const provider = await wallet.getEthereumProvider!()
  return createWalletClient({ account: wallet.address as `0x${string}`, chain: LOCAL_CHAIN, transport: custom(provider) })
}

export { formatEther, parseEther }
