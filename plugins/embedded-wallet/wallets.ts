/**
 * The embedded wallet's host API (`kernel.plugin('embedded-wallet')`): the user's embedded
 * wallets, creation (index rules of spec part 2 section 5), connection (device share + auth
 * share in the frame) with silent `privy` recovery, registered recovery handlers for the
 * user-owned methods, and the headless signer every signing path goes through (after the
 * kernel's `sensitiveAction` hook, where MFA taps in).
 */
import type { PorticoError, PluginContext, Store, User, WalletAccount } from 'portico'
import type { Engine } from './engine'
import { walletError } from './codes'
import type { FrameClient, FrameTarget } from './frame-client'
import type { ChainType, EntropyIdVerifier, FrameStorage, FrameTransactionRequest, RecoveryInput, RecoveryMethod, WalletDevice } from './protocol'
import type { EIP1193Provider, ProviderOptions } from './provider'

export type CreateOnLogin = 'off' | 'all-users' | 'users-without-wallets'

export interface EmbeddedWalletSettings {
  /** The wallet service's origin (the reference server's frame listener, e.g. `http://127.0.0.1:8788`). */
  frameUrl?: string
  /** Create wallets when a user logs in (overrides the app's server setting). */
  createOnLogin?: CreateOnLogin
  /** Which wallets creation on login makes (default both). */
  createOnLoginChainTypes?: ChainType[]
  /** EVM chains the provider may switch between (viem `Chain` objects; the first is the default). */
  chains?: ProviderOptions['chains']
  /** RPC URL per chain id (default: the chain's own default RPC URL). */
  rpcUrls?: Record<number, string>
  /** Frame readiness limit (spec: 30 000 ms in the modal). */
  readyTimeoutMs?: number
  /** Wallet creation limit (spec: 20 000 ms). */
  createTimeoutMs?: number
  /** Time the created screen stays (spec: 2.5 s). */
  createdScreenMs?: number
  /**
   * Automatic recovery is enabled: `setWalletRecovery()` opens 'Automatically secure your
   * account' first (spec part 2 section 2), which moves the wallet to `privy` recovery.
   * Default: the app's `embeddedWallets.automaticRecovery`.
   */
  automaticRecovery?: boolean
}

/** An embedded wallet account as the user record has it (wallet account + entropy fields). */
export interface EmbeddedWalletAccount extends WalletAccount {
  entropyId?: string | null
  entropyIdVerifier?: string | null
  claimPending?: boolean
}

export interface EmbeddedWallet {
  address: string
  chainType: ChainType
  walletIndex: number
  walletClientType: 'privy'
  connectorType: 'embedded'
  recoveryMethod: RecoveryMethod | null
  delegated: boolean
  imported: boolean
  entropyId: string
  entropyIdVerifier: EntropyIdVerifier
  /** A pre-generated wallet the user has not claimed yet (issue 32): recovering it asks for the claim code the operator sent. */
  claimPending?: boolean
  /** Ethereum wallets: an EIP-1193 provider (viem `custom(provider)`, wagmi, ethers). */
  getEthereumProvider?(options?: { uiOptions?: UiOptions }): Promise<EIP1193Provider>
}

/** What a caller may pass for the approval screens (approvals issue); `showWalletUIs: false` signs headless. */
export interface UiOptions {
  showWalletUIs?: boolean
  title?: string
  description?: string
  buttonText?: string
  iconUrl?: string
  [key: string]: unknown
}

export type TypedDataInput = { domain?: unknown; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> } | string

/** Headless signing for one wallet (no confirmation screen). */
export interface EmbeddedSigner {
  address: string
  chainType: ChainType
  /** personal_sign: a string is signed as UTF-8 text; `{ raw }` or bytes as they are. Returns the 65-byte signature hex. */
  signMessage(message: string | Uint8Array | { raw: `0x${string}` | Uint8Array }): Promise<`0x${string}`>
  signTypedData(typedData: TypedDataInput): Promise<`0x${string}`>
  /** A complete transaction request (chainId, nonce, gas and fees filled in): the signed, serialised transaction. */
  signTransaction(tx: FrameTransactionRequest): Promise<`0x${string}`>
  /** ed25519 signature (64 bytes) of `message`. */
  solanaSignMessage(message: Uint8Array): Promise<Uint8Array>
  /** The wire transaction with this wallet's signature added. */
  solanaSignTransaction(transaction: Uint8Array): Promise<Uint8Array>
}

/** `importWallet` (spec part 2 section 3: an imported root wallet). */
export interface ImportOptions {
  chainType?: ChainType
  /** Ethereum: 0x-hex; Solana: base58 secret key (64 bytes or its 32-byte seed) or the solana-keygen JSON array. */
  privateKey: string
  recoveryMethod?: RecoveryMethod
  recoveryPassword?: string
}

export interface CreateOptions {
  chainType?: ChainType
  createAdditional?: boolean
  walletIndex?: number
  recoveryMethod?: RecoveryMethod
  recoveryPassword?: string
  /** google-drive / icloud: the cloud access token of the recovery OAuth flow (creation writes the share to the drive). */
  recoveryAccessToken?: string
}

/** A user-owned recovery method's client part (recovery issue): opens its screen, then calls `recover(input)`. */
export type RecoveryHandler = (request: {
  wallet: EmbeddedWallet
  method: RecoveryMethod
  /** Runs wallets:recover in the frame with the method's input (password, cloud token ...). */
  recover(input: RecoveryInput): Promise<void>
}) => Promise<void>

export interface ConnectOptions {
  /**
   * When this device needs recovery, wait for this before the MFA prompt and the recovery
   * screens open (the plugin passes the end of the login's modal flow on login).
   */
  beforeScreens?: () => Promise<void>
}

export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'recovering' | 'needs-recovery' | 'error'

export interface EmbeddedWalletState {
  status: ConnectionStatus
  error: PorticoError | null
  /** Creation on login, for the created screen. */
  create: { status: 'idle' | 'creating' | 'created' | 'error'; isNewUser: boolean; error: PorticoError | null }
  /** Bumped when the wallet list may have changed (React re-reads `wallets()`). */
  version: number
  /**
   * Where the wallet frame keeps this device's share: 'persistent', or 'session' when the
   * browser blocks or partitions the frame's storage on this site (the wallet works until the
   * tab closes, then is restored through recovery); null until the frame has loaded.
   */
  storage: FrameStorage | null
}

export interface EmbeddedWalletApi {
  readonly state: Store<EmbeddedWalletState>
  /** The user's embedded wallets (stable objects). */
  wallets(): EmbeddedWallet[]
  ethereumWallets(): EmbeddedWallet[]
  solanaWallets(): EmbeddedWallet[]
  /** Creates a wallet (spec rules: one per user unless `createAdditional` or `walletIndex`). */
  create(options?: CreateOptions): Promise<EmbeddedWallet>
  /** Creates the index-0 wallets of several chain types at once (creation on login). */
  createWallets(chainTypes: ChainType[], options?: Omit<CreateOptions, 'chainType' | 'createAdditional' | 'walletIndex'>): Promise<EmbeddedWallet[]>
  /**
   * Imports a private key as a root wallet of its own (`imported: true`, index 0). The key goes
   * to the wallet frame, which splits it into shares as it does a created wallet's entropy.
   */
  importWallet(options: ImportOptions): Promise<EmbeddedWallet>
  /** Loads the frame and connects the user's wallets (device share + auth share); recovers silently for privy. */
  connect(options?: ConnectOptions): Promise<void>
  /** Recovers the wallet on this device with its recovery method. */
  recover(input?: Partial<RecoveryInput>): Promise<void>
  /** The connected frame client (`request(type, payload)`). */
  frame(): Promise<FrameClient>
  /** Headless signer of one embedded wallet. */
  signer(address: string): EmbeddedSigner
  /** The EIP-1193 provider of an Ethereum wallet. */
  getEthereumProvider(address?: string, options?: { uiOptions?: UiOptions }): Promise<EIP1193Provider>
  /** The devices registered for the user's wallet (`current`: this page's); issue 26. */
  devices(): Promise<WalletDevice[]>
  /**
   * Removes a device from the user's wallet: it gets no share from then on (and sees 'This
   * device was removed from your wallet.'). Signed by this device's key, so only a registered
   * device of the user may remove one. Returns the devices left.
   */
  removeDevice(deviceId: string): Promise<WalletDevice[]>
  /** Makes the frame forget what it cached for the session (the plugin calls it on logout). */
  clear(): Promise<void>
  /** A user-owned recovery method's client part; returns the undo. */
  registerRecovery(method: Exclude<RecoveryMethod, 'privy'>, handler: RecoveryHandler): () => void
  /** The settings in force (chains, RPC URLs). */
  readonly settings: EmbeddedWalletSettings
  /**
   * The wallet service's origin (the plugin's `frameUrl`, else the app's
   * `embeddedWallets.frameUrl`), or null when none is set. Pages of the wallet service other
   * than the hidden frame (the export page) live on it.
   */
  frameOrigin(): string | null
  /**
   * The wallet service's visible pages (the export page, the consent page): their handshake and
   * their iframe in a screen (./wallet-page.tsx), loaded on use by the plugins building on them.
   */
  walletPage(): Promise<WalletPageKit>
}

export type WalletPageKit = typeof import('./wallet-page')

/** The wallet service's URL: the plugin's `frameUrl`, else the app's `embeddedWallets.frameUrl` (or `frame_url`). */
export function frameUrlOf(ctx: Pick<PluginContext, 'config'>, settings: EmbeddedWalletSettings): string | undefined {
  const e = (ctx.config.embeddedWallets ?? {}) as { frameUrl?: string; frame_url?: string }
  return settings.frameUrl ?? e.frameUrl ?? e.frame_url
}

export const initialState = (): EmbeddedWalletState => ({
  status: 'idle',
  error: null,
  create: { status: 'idle', isNewUser: false, error: null },
  version: 0,
  storage: null,
})


export function isEmbedded(a: { type: string }): a is EmbeddedWalletAccount {
  const w = a as EmbeddedWalletAccount
  return a.type === 'wallet' && w.walletClientType === 'privy'
}

export function embeddedAccounts(user: User | null | undefined): EmbeddedWalletAccount[] {
  return (user?.linkedAccounts ?? []).filter(isEmbedded)
}

/**
 * `EMBEDDED_WALLET_TEXTS.notFound` with the app's override, for the one error the entry throws
 * synchronously (`signer()` of an unknown address): the texts (./strings.ts) load with the engine.
 */
function notFoundText(ctx: Pick<PluginContext, 'config'>): string {
  const own = (ctx.config.texts as Record<string, Record<string, unknown> | undefined>)['embedded-wallet']?.notFound
  return typeof own === 'string' ? own : 'Embedded wallet not found'
}

export function createEmbeddedWallets(
  ctx: PluginContext,
  settings: EmbeddedWalletSettings,
  state: Store<EmbeddedWalletState>,
  deps: { frameTarget?: () => FrameTarget | undefined } = {},
): EmbeddedWalletApi & { destroy(): void } {
  const objects = new Map<string, EmbeddedWallet>()
  const recoveries = new Map<RecoveryMethod, RecoveryHandler>()
  const fail = (code: string, message: string) => walletError(code, message)
  let engine: Promise<Engine> | null = null
  let loaded: Engine | null = null

  function toWallet(a: EmbeddedWalletAccount): EmbeddedWallet {
    const key = `${a.chainType}:${a.address}`
    const prev = objects.get(key)
    const next: EmbeddedWallet = {
      address: a.address,
      chainType: a.chainType,
      walletIndex: a.walletIndex ?? 0,
      walletClientType: 'privy',
      connectorType: 'embedded',
      recoveryMethod: (a.recoveryMethod as RecoveryMethod | null) ?? null,
      delegated: a.delegated,
      imported: a.imported,
      entropyId: a.entropyId ?? a.address,
      entropyIdVerifier: (a.entropyIdVerifier as EntropyIdVerifier | null) ?? (a.chainType === 'ethereum' ? 'ethereum-address-verifier' : 'solana-address-verifier'),
      ...(a.claimPending ? { claimPending: true } : {}),
    }
    if (a.chainType === 'ethereum') next.getEthereumProvider = (o) => api.getEthereumProvider(a.address, o)
    if (prev && (Object.keys(next) as (keyof EmbeddedWallet)[]).every((k) => typeof next[k] === 'function' || prev[k] === next[k])) return prev
    objects.set(key, next)
    return next
  }

  const wallets = () => embeddedAccounts(ctx.session.user).map(toWallet)
  const find = (address: string) => {
    const w = wallets().find((x) => (x.chainType === 'ethereum' ? x.address.toLowerCase() === address.toLowerCase() : x.address === address))
    if (!w) throw fail('EMBEDDED_WALLET_NOT_FOUND', notFoundText(ctx))
    return w
  }
  const roots = () => {
    const seen = new Map<string, EmbeddedWallet>()
    for (const w of wallets()) if (!seen.has(w.entropyId.toLowerCase())) seen.set(w.entropyId.toLowerCase(), w)
    return [...seen.values()]
  }

  /** The frame-facing part, loaded on first use (keeps the entry small). */
  const load = (): Promise<Engine> =>
    (engine ??= import('./engine').then((m) => {
      loaded = m.createEngine(ctx, settings, state, {
        frameUrl: () => frameUrlOf(ctx, settings),
        frameTarget: deps.frameTarget,
        wallets,
        find,
        roots,
        recoveries,
        bump: () => state.set((s) => ({ ...s, version: s.version + 1 })),
      })
      return loaded
    }))

  const api: EmbeddedWalletApi & { destroy(): void } = {
    state,
    settings,
    wallets,
    ethereumWallets: () => wallets().filter((w) => w.chainType === 'ethereum'),
    solanaWallets: () => wallets().filter((w) => w.chainType === 'solana'),
    create: async (o) => (await load()).create(o),
    createWallets: async (c, o) => (await load()).createWallets(c, o),
    importWallet: async (o) => (await load()).importWallet(o),
    connect: async (o) => (await load()).connect(o),
    recover: async (i) => (await load()).recover(i),
    frame: async () => (await load()).frame(),
    signer(address) {
      const w = find(address)
      const s = async () => (await load()).signer(w.address)
      return {
        address: w.address,
        chainType: w.chainType,
        signMessage: async (m) => (await s()).signMessage(m),
        signTypedData: async (t) => (await s()).signTypedData(t),
        signTransaction: async (t) => (await s()).signTransaction(t),
        solanaSignMessage: async (m) => (await s()).solanaSignMessage(m),
        solanaSignTransaction: async (t) => (await s()).solanaSignTransaction(t),
      }
    },
    getEthereumProvider: async (address, options) => (await load()).getEthereumProvider(address, options),
    devices: async () => (await load()).devices(),
    removeDevice: async (id) => (await load()).removeDevice(id),
    walletPage: () => import('./wallet-page'),
    frameOrigin() {
      const url = frameUrlOf(ctx, settings)
      if (!url) return null
      try {
        return new URL(url).origin
      } catch {
        return null
      }
    },
    registerRecovery(method, handler) {
      recoveries.set(method, handler)
      return () => {
        if (recoveries.get(method) === handler) recoveries.delete(method)
      }
    },
    async clear() {
      // Only a frame that was loaded can hold anything.
      if (!loaded) return
      try {
        const f = await loaded.frame()
        await f.request('wallets:clear', {}, { timeoutMs: 2000 })
      } catch {
        /* the frame is gone */
      }
    },
    destroy() {
      loaded?.destroy()
    },
  }
  return api
}
