/**
 * One viem public client per chain RPC URL, kept for the process (SIWE/SIWE-link signature
 * checks through ERC-1271/6492, the smart-wallet paymaster's reads). 10 s timeout, one retry.
 */
import { createPublicClient, http, type PublicClient } from 'viem'

const clients = new Map<string, PublicClient>()

export function rpcClient(url: string): PublicClient {
  let c = clients.get(url)
  if (!c) {
    c = createPublicClient({ transport: http(url, { timeout: 10_000, retryCount: 1 }) }) as PublicClient
    clients.set(url, c)
  }
  return c
}
