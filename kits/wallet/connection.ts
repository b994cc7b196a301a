/**
 * The login-connector shape every wallet plugin publishes (`siwe`: EIP-6963 / injected
 * Ethereum wallets, `siws`: wallet-standard Solana wallets, third parties), and the
 * connection state machine of the awaiting-connection screen (spec part 1 section 4:
 * connect, sign, retries).
 *
 * Connectors are published through the kernel's `walletConnectors` hook (the registry); the
 * wallet list renders whatever is registered there, whichever plugin registered it.
 */
import type { AuthResult, LoginMeta, PorticoError, WalletConnectorEntry, WireAuthResponse } from 'portico'
import type { WalletPhase } from './errors'

export type WalletIntent = 'login' | 'link'

export interface WalletLoginConnector extends WalletConnectorEntry {
  /** Unique among connectors, e.g. 'eip6963:io.metamask', 'wallet-standard:Phantom'. */
  id: string
  /** The wallet's name as shown in the list. */
  name: string
  /** Icon URL or data URI. */
  icon?: string
  chainType: 'ethereum' | 'solana'
  /** Spec part 1 section 3: injected, wallet_connect_v2, coinbase_wallet, phantom, solana_adapter. */
  connectorType: 'injected' | 'wallet_connect_v2' | 'coinbase_wallet' | 'phantom' | 'solana_adapter'
  /** 'metamask', 'phantom', 'rainbow', ... (remembered as the recent wallet). */
  walletClientType: string
  /** Marks this object as a login connector (other plugins may publish other entries). */
  login: true
  /** The login method it signs in with ('siwe', 'siws'): remembered, and matched by the 'Recent' chip. */
  method?: string
  /** Ask for the signature only after the user presses 'Sign with your wallet'. */
  confirmSign?: boolean
  /**
   * The screen the wallet list opens for this connector (params `{ connectorId }`), when it
   * needs its own awaiting-connection screen (WalletConnect's QR code); default `wallet-connect`.
   */
  screen?: string
  /**
   * Open the wallet through a page redirect (a mobile deep link): the list shows the mobile
   * interstitial ('Redirecting to {wallet} Mobile Wallet') and calls `connect`, which leaves
   * the page; the flow resumes through the kernel's `returnPath` hook.
   */
  redirect?: boolean
  /** Spec part 1 section 3 flags and the connected address (absent: initialised, not connected). */
  status?(): ConnectorStatus
  /** The connected Ethereum wallet's EIP-1193 provider (`getEthereumProvider()` of the wallet object). */
  getEthereumProvider?(): Promise<Eip1193Like>
  /** The connected Solana wallet signs bytes (`signMessage` of the Solana wallet object). */
  solanaSignMessage?(message: Uint8Array): Promise<Uint8Array>
  /**
   * The connected Solana wallet signs a serialized transaction and sends it to `chain`
   * ('solana:mainnet', 'solana:devnet' …): wallet-standard `solana:signAndSendTransaction`, or
   * `solana:signTransaction` and then `send` (the caller's RPC). Resolves with the signature.
   */
  solanaSignAndSendTransaction?(transaction: Uint8Array, chain: string, send: (signed: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array>
  /** Forget the connection (and tell the wallet where it can be told). */
  disconnect?(): Promise<void>
  /** Ask the wallet for its account; resolves with the address. */
  connect(signal?: AbortSignal): Promise<string>
  /**
   * Nonce, message, signature, then authenticate (or link). Resolves with the server's
   * response and the login meta to hand to `completeLogin` (the caller finishes the login:
   * the screen through `useCompleteLogin`, headless code through the kernel).
   */
  signIn(
    address: string,
    intent: WalletIntent,
    signal?: AbortSignal,
    progress?: (connection: ConnectionProgress) => void,
  ): Promise<WalletSignInResult>
}

/** A minimal EIP-1193 provider. */
export interface Eip1193Like {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?(event: string, listener: (...args: any[]) => void): unknown
  removeListener?(event: string, listener: (...args: any[]) => void): unknown
}

/** Spec part 1 section 3: a connector's `connected` and `initialized` flags, and its account. */
export interface ConnectorStatus {
  connected: boolean
  initialized: boolean
  address: string | null
}

/** Connection states a connector reports while signing in (spec part 1 section 4). */
export type ConnectionProgress = 'switching_to_supported_chain' | 'connected'

export interface WalletSignInResult {
  response: WireAuthResponse
  meta: LoginMeta & { method: string; walletClientType: string; chainType: 'ethereum' | 'solana'; intent: WalletIntent }
}

/** Finishes a login or link (the kernel's `completeLogin`, or the UI's `useCompleteLogin`). */
export type CompleteFn = (response: WireAuthResponse, meta: WalletSignInResult['meta']) => Promise<AuthResult | null>

/**
 * When to wait for the user before asking for the signature: 'auto' never, 'button' always,
 * 'mobile' (default) on mobile browsers, where some wallets open only from a user gesture.
 */
export type SignPrompt = 'auto' | 'button' | 'mobile'

export function needsSignButton(prompt: SignPrompt = 'mobile', userAgent?: string): boolean {
  if (prompt === 'button') return true
  if (prompt === 'auto') return false
  const ua = userAgent ?? (typeof navigator !== 'undefined' ? navigator.userAgent : '')
  return /Android|iPhone|iPad|iPod|Mobile/i.test(ua)
}

export function isLoginConnector(entry: WalletConnectorEntry): entry is WalletLoginConnector {
  return (
    (entry as Partial<WalletLoginConnector>).login === true &&
    typeof (entry as Partial<WalletLoginConnector>).connect === 'function' &&
    typeof (entry as Partial<WalletLoginConnector>).signIn === 'function'
  )
}

/** 'ready': connected, waiting for the user to press 'Sign with your wallet' (`confirmSign`). */
export type ConnectionStatus = 'connecting' | 'ready' | 'signing' | 'done' | 'error'

export interface ConnectionState {
  status: ConnectionStatus
  /** Spec part 1 section 4 wallet connection states. */
  connection: 'disconnected' | 'connecting' | 'switching_to_supported_chain' | 'connected'
  address: string | null
  /** Where the last error happened. */
  phase: WalletPhase
  error: PorticoError | null
  /** Retries used so far (at most 2). */
  retriesUsed: number
  /** Retry is offered: the error is retryable and fewer than 2 retries were used. */
  canRetry: boolean
  /** The login result; null when the user left during the `authenticated` chain. */
  result: AuthResult | null
}

export interface WalletConnection {
  getState(): ConnectionState
  subscribe(listener: (s: ConnectionState) => void): () => void
  /** Connect then sign. Resolves when done or failed (never rejects). */
  start(): Promise<void>
  /** After `confirmSign`: the user pressed 'Sign with your wallet'. False unless status is 'ready'. */
  sign(): Promise<boolean>
  /** Try again from where it failed; refused (false) when retry is not offered. */
  retry(): Promise<boolean>
  /** Stop listening and abort what is pending (the screen was left). */
  cancel(): void
}
