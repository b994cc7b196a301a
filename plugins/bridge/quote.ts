/** The quote input for a funding request (spec: Solana destination chain id 792703809; not for Solana testnet or devnet; a testnet host for testnets). */
import type { FundingChain, ResolvedFundingRequest } from 'portico/kits/funding'
import { NATIVE_EVM_CURRENCY, NATIVE_SOLANA_CURRENCY, SOLANA_BRIDGE_CHAIN_ID, type BridgeQuoteInput } from './calls'

export const BRIDGE_API = 'https://api.relay.link'
export const BRIDGE_TESTNET_API = 'https://api.testnets.relay.link'

export function destinationChainId(r: Pick<ResolvedFundingRequest, 'chainType' | 'chain'>): number {
  return r.chainType === 'solana' ? SOLANA_BRIDGE_CHAIN_ID : (r.chain?.id ?? 1)
}

/** A source network: an EVM chain, or Solana mainnet (bridge chain id 792703809). */
export const isSolanaSource = (source: Pick<FundingChain, 'id'>) => source.id === SOLANA_BRIDGE_CHAIN_ID

export function quoteInput(r: ResolvedFundingRequest, source: FundingChain, user: string, amountBaseUnits: bigint): BridgeQuoteInput {
  const destinationCurrency =
    r.chainType === 'solana' ? NATIVE_SOLANA_CURRENCY : r.erc20Address ? r.erc20Address : NATIVE_EVM_CURRENCY
  return {
    user,
    recipient: r.address,
    originChainId: source.id,
    destinationChainId: destinationChainId(r),
    originCurrency: isSolanaSource(source) ? NATIVE_SOLANA_CURRENCY : NATIVE_EVM_CURRENCY,
    destinationCurrency,
    amount: amountBaseUnits.toString(),
    tradeType: 'EXACT_OUTPUT',
  }
}

/** Solana mainnet as a source network (the bridge's chain id 792703809; never devnet or testnet). */
export function solanaSourceChain(o: SolanaSourceOptions): FundingChain {
  return { id: SOLANA_BRIDGE_CHAIN_ID, name: 'Solana', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [o.rpcUrl ?? SOLANA_MAINNET_RPC] } } }
}

export interface SolanaSourceOptions {
  /** The mainnet JSON-RPC the balance, blockhash and confirmation are read from (default Solana's public endpoint). */
  rpcUrl?: string
}

export const SOLANA_MAINNET_RPC = 'https://api.mainnet-beta.solana.com'

export function bridgeHost(r: ResolvedFundingRequest, source: FundingChain, urls: { api_url?: string; testnet_api_url?: string } | null | undefined): string {
  const testnet = !!source.testnet || !!r.chain?.testnet
  return testnet ? (urls?.testnet_api_url ?? BRIDGE_TESTNET_API) : (urls?.api_url ?? BRIDGE_API)
}
