/**
 * Demo controls for funding (funding, moonpay, coinbase-onramp, bridge): fund an address on the
 * local hardhat chain (npm start: 8545; `?evmRpc=` to change), on Base, or on Solana. The
 * providers are the local stand-ins npm start runs (MoonPay 8794, Coinbase 8795, bridge 8796).
 */
import { useState } from 'react'
import type { FundingChain } from 'portico/plugins/funding'
import { useFundWallet } from 'portico/plugins/funding'
import { usePortico } from 'portico/ui/core'

export const LOCAL_EVM_RPC = 'http://127.0.0.1:8545'

export function localChain(rpc: string): FundingChain {
  return { id: 31337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } }, testnet: true }
}

export const BASE: FundingChain = {
  id: 8453,
  name: 'Base',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['https://mainnet.base.org'] } },
}

/** hardhat's account #5: a demo address to fund. */
const DEMO_ADDRESS = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc'

export function FundingDemo({ onResult, rpc }: { onResult: (text: string) => void; rpc: string }) {
  const { ready, user } = usePortico()
  const { fundWallet } = useFundWallet()
  const [address, setAddress] = useState(user?.wallet?.address ?? DEMO_ADDRESS)
  const run = (request: Parameters<typeof fundWallet>[0]) =>
    void fundWallet(request).then(
      (r) => onResult(`funding: ${r.status}${r.method ? ` (${r.method})` : ''}`),
      (e: { code?: string; message?: string }) => onResult(`error: ${e.code ?? e.message}`),
    )
  return (
    <section className="demo-actions" aria-label="Funding" data-testid="funding-demo">
      <label>
        Address to fund <input value={address} onChange={(e) => setAddress(e.target.value)} data-testid="fund-address" />
      </label>
      <button disabled={!ready} onClick={() => run({ address, chain: localChain(rpc), amount: '0.05', crossChainBridgingEnabled: true })} data-testid="fund-local">
        Fund on local chain
      </button>
      <button disabled={!ready} onClick={() => run({ address, chain: BASE, amount: '0.01' })} data-testid="fund-base">
        Fund on Base
      </button>
      <button disabled={!ready} onClick={() => run({ address, chainType: 'solana', amount: '0.1' })} data-testid="fund-solana">
        Fund on Solana
      </button>
    </section>
  )
}
