/**
 * The approvals engine's entry (a lazy chunk): builds the session for a request. The Ethereum
 * part (viem) and the Solana part (@solana/web3.js) are chunks of their own, so a Solana-only
 * app never loads viem and the other way round.
 */
import type { ApprovalsTexts } from './strings'
import type { ApprovalRequest, ApprovalSession, ApprovalSigner } from './request'

export interface EngineEnv {
  texts: ApprovalsTexts
  chains(): Array<{ id: number; name: string; [k: string]: unknown }>
  defaultChainId(): number
  fetch: typeof fetch
  price(chainId: number, symbol: string): Promise<number | null>
  priceDisplay(): 'fiat-currency' | 'native-token'
  /** Waits for the wallet service (sign request readiness, 30 s). */
  ready(signer: ApprovalSigner): Promise<void>
  invalid(message: string, code?: string): Error
  solana: { clusters: Record<string, string>; defaultCluster: string }
  splTokenInfo(mint: string, cluster: string): Promise<{ symbol: string | null; decimals: number } | null>
}

export const SIGN_METHODS = ['personal_sign', 'eth_signTypedData_v4', 'solana_signMessage'] as const
export const EVM_TX_METHODS = ['eth_sendTransaction', 'eth_signTransaction'] as const
export const SOLANA_TX_METHODS = ['solana_signTransaction', 'solana_signAndSendTransaction'] as const

export async function createSession(env: EngineEnv, req: ApprovalRequest, signer: ApprovalSigner): Promise<ApprovalSession> {
  switch (req.method) {
    case 'personal_sign':
    case 'eth_signTypedData_v4':
      return (await import('./engine-evm')).createEvmSignSession(env, req, signer)
    case 'eth_sendTransaction':
    case 'eth_signTransaction':
      return (await import('./engine-evm')).createEvmTxSession(env, req, signer)
    case 'solana_signMessage':
      return (await import('./engine-solana')).createSolanaSignSession(env, req, signer)
    case 'solana_signTransaction':
    case 'solana_signAndSendTransaction':
      return (await import('./engine-solana')).createSolanaTxSession(env, req, signer)
    default:
      throw env.invalid(`Unsupported method ${String(req.method)}`, 'method_not_supported')
  }
}
