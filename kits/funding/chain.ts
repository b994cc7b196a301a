/**
 * Chain reads for funding (spec part 2 section 7 'Chain reads'): native and ERC-20 balances
 * over EVM JSON-RPC, SOL balances over Solana JSON-RPC, transaction receipts. Plain JSON-RPC
 * through the host's fetch: no chain library in the funding entry. Balance failures fall back
 * to 0 (section 8).
 */
import { clusterRpc, type ResolvedFundingRequest } from './request'

type Fetch = typeof fetch

let rpcId = 0
export async function rpcCall<T>(fetchFn: Fetch, url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  })
  const json = (await res.json()) as { result?: T; error?: { message?: string } }
  if (json.error) throw new Error(json.error.message ?? 'JSON-RPC error')
  return json.result as T
}

export async function evmBalance(fetchFn: Fetch, rpc: string, address: string, erc20?: string): Promise<bigint> {
  try {
    if (erc20) {
      const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`
      return BigInt((await rpcCall<string>(fetchFn, rpc, 'eth_call', [{ to: erc20, data }, 'latest'])) || '0x0')
    }
    return BigInt(await rpcCall<string>(fetchFn, rpc, 'eth_getBalance', [address, 'latest']))
  } catch {
    return 0n
  }
}

export async function solanaBalance(fetchFn: Fetch, rpc: string, address: string): Promise<bigint> {
  try {
    const r = await rpcCall<{ value: number }>(fetchFn, rpc, 'getBalance', [address, { commitment: 'confirmed' }])
    return BigInt(r.value)
  } catch {
    return 0n
  }
}

/** The balance of what the request funds, at `address` (default the request's). */
export function requestBalance(fetchFn: Fetch, r: ResolvedFundingRequest, address = r.address): Promise<bigint> {
  if (r.chainType === 'solana') return solanaBalance(fetchFn, clusterRpc(r.cluster), address)
  const rpc = r.chain?.rpcUrls.default.http[0]
  return rpc ? evmBalance(fetchFn, rpc, address, r.erc20Address) : Promise.resolve(0n)
}

/** Waits for a transaction's receipt (polling every `intervalMs`); throws when it reverted. */
export async function waitForReceipt(fetchFn: Fetch, rpc: string, hash: string, signal?: AbortSignal, intervalMs = 1000): Promise<void> {
  for (;;) {
    if (signal?.aborted) throw signal.reason
    const r = await rpcCall<{ status: string } | null>(fetchFn, rpc, 'eth_getTransactionReceipt', [hash]).catch(() => null)
    if (r) {
      if (r.status !== '0x1') throw new Error('Transaction reverted')
      return
    }
    await new Promise((res) => setTimeout(res, intervalMs))
  }
}
