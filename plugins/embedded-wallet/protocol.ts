/**
 * The wallet frame's message protocol (spec part 2 section 7, 'Embedded wallet service'):
 * shared by the host plugin (`plugins/embedded-wallet`) and the frame page
 * (`examples/server/frame/`). Types and constants only: no code runs here, so both sides
 * import it freely.
 *
 * Host → frame: `{ id, type, payload }`. Frame → host: `{ id, data }` or
 * `{ id, error: { type, message } }` with the wallet-service error types of spec section 3.
 * Both sides check `event.origin` and `event.source` (the frame: its app's allowed origins
 * and `window.parent`; the host: the frame's origin and the iframe's `contentWindow`).
 *
 * Key material never crosses this boundary: replies carry addresses, signatures and signed
 * transactions only. Shares travel between the frame and the reference server, never the host.
 *
 * Other families add their message types by declaration merging:
 *
 * ```ts
 * declare module 'portico/plugins/embedded-wallet/protocol' // or a relative './protocol'
 * declare module './protocol' {
 *   interface FrameRequests {
 *     'wallets:export': { payload: ExportPayload; data: { ok: true } }
 *   }
 * }
 * ```
 * and the frame registers a handler for it in `examples/server/frame/handlers/<family>.ts`.
 */

/** Marks every message of this protocol (so a page's other postMessage traffic is ignored cheaply). */
export const FRAME_PROTOCOL = 'portico-wallet-frame/1' as const

// ------------------------------------------------------------------------------------------
// Errors

/** Wallet-service error types (spec part 2 section 3). */
export const FRAME_ERROR_TYPES = [
  'error',
  'invalid_request_arguments',
  'wallet_not_on_device',
  'invalid_recovery_pin',
  'insufficient_funds',
  'missing_or_invalid_mfa',
  'mfa_verification_max_attempts_reached',
  'mfa_timeout',
  'twilio_verification_failed',
  // Custody (issue 26; ours, the spec names none): this device must confirm it's the user first
  // (a step-up), the user has no channel for one, the device was removed, storage is blocked.
  'device_step_up_required',
  'step_up_unavailable',
  'device_revoked',
  'storage_unavailable',
] as const
export type FrameErrorType = (typeof FRAME_ERROR_TYPES)[number]

export interface FrameError {
  type: FrameErrorType
  message: string
}

// ------------------------------------------------------------------------------------------
// Shared shapes

export type ChainType = 'ethereum' | 'solana'

/** Recovery methods (spec part 2 section 3). `privy` is the automatic, server-sealed one. */
export type RecoveryMethod = 'privy' | 'user-passcode' | 'google-drive' | 'icloud'

/** How the frame proves which HD root it means (spec: entropyId and entropyIdVerifier). */
export type EntropyIdVerifier = 'ethereum-address-verifier' | 'solana-address-verifier'

/**
 * Where the frame keeps its device key and shares: 'persistent' (its own IndexedDB), or
 * 'session' (memory: the browser blocks or partitions the frame's storage on this site; the
 * wallet works until the tab closes and is restored through recovery next time).
 */
export type FrameStorage = 'persistent' | 'session'

/** A wallet as the frame reports it (public data only). */
export interface FrameWallet {
  address: string
  chainType: ChainType
  walletIndex: number
}

/** Every request that touches a user's wallets carries the user's current access token. */
export interface Authed {
  accessToken: string
}

/** Names the HD root (its index-0 address) a request works on. */
export interface EntropyRef {
  entropyId: string
  entropyIdVerifier: EntropyIdVerifier
}

/** What a recovery or set-recovery request may carry; a method's handler reads its own fields. */
export interface RecoveryInput {
  recoveryMethod: RecoveryMethod
  /** user-passcode: the password (never leaves the frame). */
  recoveryPassword?: string
  /** google-drive / icloud: the cloud access token from the recovery OAuth flow. */
  recoveryAccessToken?: string
  /** Method-specific extras (cloud provider metadata ...). */
  [key: string]: unknown
}

/** An Ethereum JSON-RPC signing request the frame answers. */
export type EthereumRpcRequest =
  | { method: 'personal_sign'; params: [message: `0x${string}`, address: string] }
  | { method: 'eth_signTypedData_v4'; params: [address: string, typedData: string] }
  /** The request is complete (chainId, nonce, gas, fees filled in by the host); the frame signs and serialises it. */
  | { method: 'eth_signTransaction'; params: [transaction: FrameTransactionRequest] }
  /** Signs a 32-byte hash as is (delegated / advanced uses; approval-free callers only). */
  | { method: 'secp256k1_sign'; params: [hash: `0x${string}`] }

/** Numbers as hex quantities or decimal strings, as JSON can carry them. */
export interface FrameTransactionRequest {
  from?: string
  to?: string | null
  data?: `0x${string}`
  value?: string
  nonce?: number | string
  chainId: number | string
  gas?: string
  gasLimit?: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  type?: 'legacy' | 'eip1559' | 'eip2930' | '0x0' | '0x1' | '0x2'
  accessList?: { address: string; storageKeys: string[] }[]
}

export type SolanaRpcRequest =
  /** `message`: base64 bytes. Reply `{ signature }` base64 (64 bytes, ed25519). */
  | { method: 'signMessage'; params: { message: string } }
  /** `transaction`: base64 wire transaction (legacy or versioned). Reply `{ signedTransaction }` base64. */
  | { method: 'signTransaction'; params: { transaction: string } }

export type RpcPayload = Authed &
  EntropyRef & {
    hdWalletIndex: number
    requesterAppId?: string
  } & (
    | { chainType: 'ethereum'; request: EthereumRpcRequest }
    | { chainType: 'solana'; request: SolanaRpcRequest }
  )

export interface RpcData {
  method: string
  /** personal_sign / eth_signTypedData_v4 / secp256k1_sign: signature hex; eth_signTransaction: serialised tx hex. */
  data: string | { signature: string } | { signedTransaction: string }
}

// ------------------------------------------------------------------------------------------
// Requests: type → { payload, data }

export interface FrameRequests {
  /** Host pings until the frame answers: the frame is loaded and listening. */
  ready: { payload: Record<string, never>; data: { version: 1; storage?: FrameStorage } }
  /**
   * A new HD root: entropy → shares (device share stored in the frame, auth share and the
   * recovery share to the server), then the index-0 wallet of each chain type asked for.
   * Fails with 'User already has an embedded wallet.' when the user has one.
   */
  'wallets:create': {
    payload: Authed & {
      chainTypes: ChainType[]
      recoveryMethod?: RecoveryMethod
      recoveryPassword?: string
      /** google-drive / icloud: the cloud access token (the share is written to the drive at creation). */
      recoveryAccessToken?: string
    }
    data: EntropyRef & { wallets: FrameWallet[]; recoveryMethod: RecoveryMethod; storage?: FrameStorage }
  }
  /** An additional wallet (createAdditional / explicit walletIndex) on the user's HD root. */
  'wallets:add': {
    payload: Authed & EntropyRef & { chainType: ChainType; walletIndex?: number }
    data: { wallet: FrameWallet }
  }
  /** The Solana wallet at index 0 (on the existing HD root, or a new root when the user has none). */
  'solana-wallet:create': {
    payload: Authed & Partial<EntropyRef>
    data: EntropyRef & { wallet: FrameWallet; recoveryMethod: RecoveryMethod; storage?: FrameStorage }
  }
  /**
   * Imports a private key as a root wallet of its own (`imported: true`, index 0): its 32
   * bytes are split into device, auth and recovery shares as a created root's entropy is.
   * Ethereum: 0x-hex (32 bytes). Solana: base58 of the 64-byte secret key (or its 32-byte
   * seed), or the JSON byte array `solana-keygen` writes.
   */
  'wallets:import': {
    payload: Authed & { chainType: ChainType; privateKey: string; recoveryMethod?: RecoveryMethod; recoveryPassword?: string }
    data: EntropyRef & { wallet: FrameWallet; recoveryMethod: RecoveryMethod; storage?: FrameStorage }
  }
  /**
   * Device share + auth share → the root is usable in this session. Fails with
   * `wallet_not_on_device` when this device has no share (needs recovery).
   */
  'wallets:connect': {
    payload: Authed & EntropyRef
    data: EntropyRef & { connected: true }
  }
  /** Recovery share (by method) + auth share → a new device share on this device. */
  'wallets:recover': {
    payload: Authed & EntropyRef & RecoveryInput
    data: EntropyRef & { recovered: true; storage?: FrameStorage }
  }
  /** Reseals the recovery share under another method. */
  'wallets:set-recovery': {
    payload: Authed & EntropyRef & RecoveryInput
    data: EntropyRef & { recoveryMethod: RecoveryMethod }
  }
  /** Signs: Ethereum JSON-RPC signing methods, Solana signMessage / signTransaction. */
  'wallets:rpc': { payload: RpcPayload; data: RpcData }
  /** Forget every cached secret of this session (logout). */
  'wallets:clear': { payload: Record<string, never>; data: { cleared: true } }
  /**
   * New device (issue 26): starts the step-up for this device and root. A code goes to the
   * user's verified e-mail or phone (`to` is masked: 'a•••@example.com'), or `method: 'mfa'`:
   * the host runs the MFA verification, then `wallets:step-up-verify` without a code.
   */
  'wallets:step-up-start': {
    payload: Authed & EntropyRef
    data: StepUpStart
  }
  /** The code (or, for `mfa`, nothing: the fresh MFA verification) → this device may recover the root once. */
  'wallets:step-up-verify': {
    payload: Authed & EntropyRef & { code?: string }
    data: { verified: true }
  }
  /** Removes a device from the user's wallet (signed by this device: it must be a registered one). */
  'wallets:revoke-device': {
    payload: Authed & { deviceId: string }
    data: { devices: WalletDevice[] }
  }
}

/** How the step-up of a new device goes on. */
export type StepUpStart = { method: 'email' | 'sms'; to: string } | { method: 'mfa' }

/** A device registered for the user's wallet (GET /wallets/devices). */
export interface WalletDevice {
  /** The device key's thumbprint. */
  id: string
  /** 'Chrome on Linux' (from the device's User-Agent when it was added). */
  label: string | null
  /** Seconds since the epoch. */
  createdAt: number
  lastUsedAt: number
  /** The frame could not keep its key (storage blocked): it lives for one page session. */
  sessionOnly: boolean
  /** The device of this page's session. */
  current: boolean
}

export type FrameRequestType = keyof FrameRequests
export type FramePayload<T extends FrameRequestType> = FrameRequests[T]['payload']
export type FrameData<T extends FrameRequestType> = FrameRequests[T]['data']

/** Host → frame. */
export interface FrameRequestMessage<T extends FrameRequestType = FrameRequestType> {
  protocol: typeof FRAME_PROTOCOL
  id: string
  type: T
  payload: FramePayload<T>
}

/** Frame → host. */
export type FrameReplyMessage<T extends FrameRequestType = FrameRequestType> =
  | { protocol: typeof FRAME_PROTOCOL; id: string; data: FrameData<T> }
  | { protocol: typeof FRAME_PROTOCOL; id: string; error: FrameError }

export function isFrameRequest(m: unknown): m is FrameRequestMessage {
  const x = m as FrameRequestMessage | null
  return !!x && typeof x === 'object' && x.protocol === FRAME_PROTOCOL && typeof x.id === 'string' && typeof x.type === 'string'
}

export function isFrameReply(m: unknown): m is FrameReplyMessage {
  const x = m as { protocol?: unknown; id?: unknown; data?: unknown; error?: unknown } | null
  return !!x && typeof x === 'object' && x.protocol === FRAME_PROTOCOL && typeof x.id === 'string' && ('data' in x || 'error' in x)
}

// ------------------------------------------------------------------------------------------
// Paths and limits

/** The wallet frame page on the wallet-service origin (spec: /apps/{appId}/embedded-wallets?caid&client_id). */
export function framePath(appId: string, query: { caid?: string; clientId?: string } = {}): string {
  const q = new URLSearchParams()
  if (query.caid) q.set('caid', query.caid)
  if (query.clientId) q.set('client_id', query.clientId)
  const s = q.toString()
  return `/apps/${encodeURIComponent(appId)}/embedded-wallets${s ? `?${s}` : ''}`
}

/** Spec part 2 section 9. */
export const FRAME_READY_TIMEOUT_MODAL_MS = 30_000
export const FRAME_READY_TIMEOUT_SDK_MS = 15_000
export const WALLET_CREATE_TIMEOUT_MS = 20_000
/** Ready pings while the frame loads. */
export const FRAME_READY_PING_MS = 100

/** Ethereum HD path of wallet `i` (BIP-44). */
export const ethereumPath = (i: number) => `m/44'/60'/0'/0/${i}`
/** Solana HD path of wallet `i` (SLIP-0010 ed25519, hardened throughout). */
export const solanaPath = (i: number) => `m/44'/501'/${i}'/0'`
