/**
 * Demo controls for funding (funding, moonpay, coinbase-onramp, bridge): fund the logged-in
 * user's own embedded wallet — its Ethereum address on the local hardhat chain (npm start: 8545;
 * `?evmRpc=` to change) or on Base, its Solana address on the local SVM (`?svm=`, npm start:
 * 8899). Each address can be edited to fund another one. A user without a wallet is told to
 * create one first. The providers are the local stand-ins npm start runs (MoonPay 8794,
 * Coinbase 8795, bridge 8796).
 */
import { useState } from 'react'
import type { FundingChain, SolanaCluster } from 'portico/plugins/funding'
import { useFundWallet } from 'portico/plugins/funding'
import { useWallets } from 'portico/plugins/embedded-wallet'
import { useKernel, usePortico } from 'portico/ui'
import { DEFAULT_SVM } from './approvals-settings'

export const LOCAL_EVM_RPC = 'http://127.0.0.1:8545'

export function localChain(rpc: string): FundingChain {
  return { id: 31337, name: 'Hardhat', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } }, testnet: true }
}

/** The local Solana cluster (the SVM stand-in): funding reads balances there, not on mainnet. */
export function localCluster(rpc: string): SolanaCluster {
  return { name: 'localnet', rpcUrl: rpc }
}

export const BASE: FundingChain = {
  id: 8453,
  name: 'Base',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['https://mainnet.base.org'] } },
}

type ChainType = 'ethereum' | 'solana'

/**
 * The address each funding button pays: what the user typed for that chain, else the user's
 * own embedded wallet of that chain type (index 0 first), else none.
 */
export function fundingAddress(wallets: readonly { address: string; chainType: string; walletIndex?: number | null }[], chainType: ChainType, typed: string | undefined): string {
  if (typed !== undefined) return typed.trim()
  const own = wallets.filter((w) => w.chainType === chainType).sort((a, b) => (a.walletIndex ?? 0) - (b.walletIndex ?? 0))
  return own[0]?.address ?? ''
}

export function FundingDemo(props: { onResult: (text: string) => void; rpc: string }) {
  const kernel = useKernel()
  return kernel.hasPlugin('embedded-wallet') ? <WithWallets {...props} /> : <Controls {...props} wallets={[]} />
}

function WithWallets(props: { onResult: (text: string) => void; rpc: string }) {
  const { wallets } = useWallets()
  return <Controls {...props} wallets={wallets} />
}

function Controls({ onResult, rpc, wallets }: { onResult: (text: string) => void; rpc: string; wallets: readonly { address: string; chainType: string; walletIndex?: number | null }[] }) {
  const { ready, authenticated } = usePortico()
  const { fundWallet } = useFundWallet()
  // Undefined until the user types: the field then follows the user's own wallet.
  const [typed, setTyped] = useState<Partial<Record<ChainType, string>>>({})
  const eth = fundingAddress(wallets, 'ethereum', typed.ethereum)
  const sol = fundingAddress(wallets, 'solana', typed.solana)
  const svm = new URLSearchParams(typeof location === 'undefined' ? '' : location.search).get('svm') ?? DEFAULT_SVM
  const run = (request: Parameters<typeof fundWallet>[0]) =>
    void fundWallet(request).then(
      (r) => onResult(`funding: ${r.status}${r.method ? ` (${r.method})` : ''}`),
      (e: { code?: string; message?: string }) => onResult(`error: ${e.code ?? e.message}`),
    )
  const missing = !eth && !sol
  return (
    <section className="demo-actions" aria-label="Funding" data-testid="funding-demo">
      <label className="demo-fund-row">
        Ethereum address to fund{' '}
        <input value={eth} onChange={(e) => setTyped({ ...typed, ethereum: e.target.value })} data-testid="fund-address" />
      </label>
      <label className="demo-fund-row">
        Solana address to fund <input value={sol} onChange={(e) => setTyped({ ...typed, solana: e.target.value })} data-testid="fund-solana-address" />
      </label>
      {missing ? (
        <p className="demo-fund-row" data-testid="fund-no-wallet">{authenticated ? 'Create a wallet above to fund it, or type an address.' : 'Log in to fund your wallet, or type an address.'}</p>
      ) : null}
      <button disabled={!ready || !eth} onClick={() => run({ address: eth, chain: localChain(rpc), amount: '0.05', crossChainBridgingEnabled: true })} data-testid="fund-local">
        Fund on local chain
      </button>
      <button disabled={!ready || !eth} onClick={() => run({ address: eth, chain: BASE, amount: '0.01' })} data-testid="fund-base">
        Fund on Base
      </button>
      <button disabled={!ready || !sol} onClick={() => run({ address: sol, chainType: 'solana', cluster: localCluster(svm), amount: '0.1' })} data-testid="fund-solana">
        Fund on Solana
      </button>
    </section>
  )
}
