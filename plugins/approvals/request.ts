/**
 * What `handle()` hands the approval screens: one session object per request, holding the
 * request and the work the screen triggers (prepare, sign, send). Types only.
 */
import type { DecodedTransaction } from './decode'
import type { SolanaInstruction } from './solana'

/** Sign UI options (part 2 section 3) plus the headless switch. */
export interface SignUiOptions {
  title?: string
  description?: string
  buttonText?: string
  iconUrl?: string
  /** false: no screen (headless signing). */
  showWalletUIs?: boolean
}

export interface TransactionUiOptions extends SignUiOptions {
  /** Transaction info (part 2 section 3): title, actionDescription, action. */
  transactionInfo?: { title?: string; actionDescription?: string; action?: string }
  /** Gas is paid by a sponsor: the fee is not shown to the user nor counted in the total. */
  sponsored?: boolean
  /** Show the 'Success' screen after signing only (eth_signTransaction) — default true. */
  successScreen?: boolean
}

export type UiOptions = TransactionUiOptions

/** The headless signer the embedded wallet gives for one wallet (wave 3 seam 4). */
export interface ApprovalSigner {
  /** personal_sign: a string is signed as UTF-8 text, `{ raw }` as the bytes it holds. */
  signMessage?(message: string | { raw: `0x${string}` }): Promise<string>
  signTypedData?(typedData: any): Promise<string>
  /** A complete transaction request → the serialised signed transaction (hex). */
  signTransaction?(tx: any): Promise<string>
  /**
   * A signer that sends for itself (a smart account: a user operation through its bundler).
   * Given the transaction request (the `to`, `data`, `value` the user approved; gas and nonce
   * are the signer's own), resolves with the hash of the transaction that carried it once it
   * is included. When present, eth_sendTransaction uses it instead of signTransaction.
   */
  sendTransaction?(tx: { to?: string | null; data?: string; value?: string; chainId: number }): Promise<string>
  solanaSignMessage?(message: Uint8Array): Promise<Uint8Array>
  solanaSignTransaction?(transaction: Uint8Array): Promise<Uint8Array>
  /** Resolves when the wallet service is ready to sign (optional). */
  ready?(): Promise<void>
}

export interface ApprovalWallet {
  address: string
  chainType: 'ethereum' | 'solana'
  /** The wallet's current EVM chain (eth_chainId); default: the app's default chain. */
  chainId?: number
  /** Solana cluster name ('mainnet-beta', 'devnet', 'testnet', or one of the plugin's clusters). */
  cluster?: string
}

export interface ApprovalRequest {
  wallet: ApprovalWallet
  /** personal_sign, eth_signTypedData_v4, eth_signTransaction, eth_sendTransaction, solana_signMessage, solana_signTransaction, solana_signAndSendTransaction */
  method: string
  params: unknown
  uiOptions?: UiOptions
  /** The EVM chain the caller's provider is on (default: the wallet's, then the app's default chain). */
  chainId?: number
}

export interface SignSession {
  kind: 'sign'
  method: 'personal_sign' | 'eth_signTypedData_v4' | 'solana_signMessage'
  address: string
  /** The message as text (personal_sign / Solana), or null for typed data. */
  message: string | null
  /** Typed data, parsed, for the readable view. */
  typedData: { domain?: Record<string, unknown>; primaryType?: string; message?: Record<string, unknown>; types?: unknown } | null
  /** The full payload (copy). */
  payload: string
  uiOptions: UiOptions
  ready(): Promise<void>
  sign(): Promise<unknown>
}

export interface Amount {
  /** Base units. */
  value: bigint
  decimals: number
  symbol: string
  /** Formatted token amount. */
  text: string
  /** Formatted USD, when a price is known. */
  usd: string | null
}

/** The chain as funding needs it (a viem `Chain` shape): 'Add funds' funds this wallet on it. */
export interface ReviewChain {
  id: number
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: { default: { http: string[] } }
}

export interface EvmReview {
  chainId: number
  chainName: string
  /** The chain with its RPC and currency ('Add funds'). */
  chain: ReviewChain
  /** What the balance lacks for the total, in base units (0 when nothing is missing). */
  missing: bigint
  from: string
  to: string | null
  /** Native value sent. */
  value: Amount
  fee: Amount
  total: Amount
  balance: Amount
  sponsored: boolean
  insufficient: boolean
  decoded: DecodedTransaction
  /** ERC-20 token details read from the chain, when the call is ERC-20-like. */
  token: { address: string; symbol: string; decimals: number } | null
  /** The decoded amount formatted ('Maximum' for max uint256). */
  tokenAmount: string | null
  /** A warning when preparing failed (the request will likely fail). */
  preparationError: string | null
  priceDisplay: 'fiat-currency' | 'native-token'
}

export interface EvmSession {
  kind: 'evm'
  method: 'eth_sendTransaction' | 'eth_signTransaction'
  address: string
  uiOptions: UiOptions
  prepare(options?: { resetNonce?: boolean }): Promise<EvmReview>
  /** Signs (and for sends submits and waits for the receipt); rejects with a TransactionFailure. */
  submit(): Promise<{ result: string; hash: string | null; explorerUrl: string | null }>
  ready(): Promise<void>
  /** The user left the screens: see {@link Broadcast}. */
  closed(): Promise<Broadcast>
}

export interface SolanaReview {
  cluster: string
  /** The cluster's JSON-RPC URL ('Add funds' watches this cluster, not mainnet). */
  rpcUrl: string
  /** Lamports the balance lacks for the SOL sent and the fee (0 when nothing is missing or unknown). */
  missing: bigint
  instructions: SolanaInstruction[]
  fee: bigint | null
  feeText: string
  balance: bigint | null
  balanceText: string
  insufficient: boolean
  simulationError: string | null
}

export interface SolanaSession {
  kind: 'solana'
  method: 'solana_signTransaction' | 'solana_signAndSendTransaction'
  address: string
  uiOptions: UiOptions
  prepare(options?: { refreshBlockhash?: boolean }): Promise<SolanaReview>
  submit(): Promise<{ result: unknown; signature: string | null; explorerUrl: string | null }>
  fund?: () => void
  ready(): Promise<void>
  /** The user left the screens: see {@link Broadcast}. */
  closed(): Promise<Broadcast>
}

/**
 * What `closed()` resolves with once a submit running when the user left has reached the
 * network or stopped before it (a submit that has not broadcast yet does not broadcast any
 * more): the RPC result of the transaction that reached the network (its hash; Solana:
 * `{ signature, receipt }`), or null when none did. A broadcast transaction resolves the
 * request with it whatever screen the user closes (receipt, waiting, error): a host told
 * 'rejected' would send it again and the user would pay twice.
 */
export type Broadcast = { result: unknown } | null

export type ApprovalSession = SignSession | EvmSession | SolanaSession

/** What a failed submit rejects with (the error screen shows it). */
export interface SubmitFailure {
  code: string | null
  message: string
  hash: string | null
  explorerUrl?: string | null
}
