/**
 * What the on-ramp stand-ins (MoonPay, Coinbase Onramp) deliver when a purchase completes: the
 * bought amount of the native asset, sent to the buyer's address on the local chains `npm start`
 * runs — ETH from a hardhat dev account on the local EVM node (every EVM network the providers
 * name stands for it: offline, there is one), SOL by `requestAirdrop` on the SVM stand-in. So a
 * completed purchase shows up in the funded wallet's balance, as it would with the real
 * providers. Other assets (USDC …) are not delivered (logged).
 *
 * ```ts
 * createMoonPayStandIn({ keys, deliver: localDelivery({ evmRpc: 'http://127.0.0.1:8545', svmRpc: 'http://127.0.0.1:8899' }) })
 * ```
 */
import { createWalletClient, http, parseEther, parseUnits, publicActions, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export interface Delivery {
  /** The buyer's wallet address (0x… or base58). */
  address: string
  /** 'solana', or an EVM network name ('ethereum', 'base', …). */
  network: string
  /** 'ETH', 'SOL', 'POL', 'USDC' … */
  asset: string
  /** Decimal amount of the asset ('0.05'). */
  amount: string
}

export type Deliver = (d: Delivery) => Promise<void>

/** Hardhat's dev account #3 (public, well known): the stand-ins' "hot wallet", apart from the accounts tests send from. */
export const DELIVERY_KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'

export function localDelivery(o: { evmRpc?: string; svmRpc?: string; evmKey?: Hex; log?: (m: string) => void }): Deliver {
  const log = o.log ?? ((m: string) => console.log(m))
  const account = privateKeyToAccount(o.evmKey ?? DELIVERY_KEY)
  // One send at a time: the hot wallet's nonces stay in order.
  let queue: Promise<unknown> = Promise.resolve()
  return (d) => {
    const run = async () => {
      const amount = d.amount && Number(d.amount) > 0 ? d.amount : '0.01'
      if (d.network === 'solana') {
        if (d.asset !== 'SOL' || !o.svmRpc) return log(`[delivery] not delivered: ${d.asset} on Solana`)
        const r = await fetch(o.svmRpc, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [d.address, Number(parseUnits(amount, 9))] }),
        })
        const body = (await r.json()) as { error?: { message: string } }
        if (body.error) throw new Error(body.error.message)
        return log(`[delivery] ${amount} SOL to ${d.address}`)
      }
      if (!['ETH', 'POL'].includes(d.asset) || !o.evmRpc || !/^0x[0-9a-fA-F]{40}$/.test(d.address)) return log(`[delivery] not delivered: ${d.asset} on ${d.network}`)
      const wallet = createWalletClient({ account, transport: http(o.evmRpc) }).extend(publicActions)
      const chainId = await wallet.getChainId()
      const hash = await wallet.sendTransaction({ to: d.address as Address, value: parseEther(amount), chain: { id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [o.evmRpc] } } } })
      await wallet.waitForTransactionReceipt({ hash, pollingInterval: 100 })
      log(`[delivery] ${amount} ${d.asset} to ${d.address} on the local chain: ${hash}`)
    }
    const p = queue.then(run, run)
    queue = p.catch(() => {})
    return p
  }
}

/** MoonPay currency codes → network and asset ('eth_base' → base / ETH; 'sol' → solana / SOL). */
export function moonpayAsset(code: string): { network: string; asset: string } {
  const [asset, network] = code.toLowerCase().split('_')
  if (asset === 'sol') return { network: 'solana', asset: 'SOL' }
  if (network === 'sol') return { network: 'solana', asset: asset.toUpperCase() }
  return { network: network ?? 'ethereum', asset: asset.toUpperCase() }
}
