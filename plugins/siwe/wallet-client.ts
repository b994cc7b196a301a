/**
 * viem's wallet client over an EIP-1193 provider. Loaded on first use (a dynamic import from
 * the connector), so the landing and the wallet list ship without viem's client.
 */
import { createWalletClient, custom } from 'viem'
import type { Eip1193Provider } from './eip6963'

export function makeWalletClient(provider: Eip1193Provider) {
  return createWalletClient({ transport: custom(provider, { retryCount: 0 }) })
}

export type WalletClientLike = ReturnType<typeof makeWalletClient>
