/**
 * The embedded wallet's host API (`kernel.plugin('embedded-wallet')`): the user's embedded
 * wallets, creation (index rules of spec part 2 section 5), connection (device share + auth
 * share in the frame) with silent `privy` recovery, registered recovery handlers for the
 * user-owned methods, and the headless signer every signing path goes through (after the
 * kernel's `sensitiveAction` hook, where MFA taps in).
 */
import { PorticoError, type ActionContext, type PluginContext, type Store, type User, type WalletAccount } from 'portico'
import { NEEDS_RECOVERY, walletError } from './errors'
import { FrameClient, isSecureEnough } from './frame-client'
import {
  FRAME_READY_TIMEOUT_MODAL_MS,
  WALLET_CREATE_TIMEOUT_MS,
  type ChainType,
  type EntropyIdVerifier,
  type EntropyRef,
  type FrameTransactionRequest,
  type RecoveryInput,
  type RecoveryMethod,
  type RpcData,
  type RpcPayload,
} from './protocol'
import { EMBEDDED_WALLET_TEXTS, type EmbeddedWalletTexts } from './strings'
import type { ApprovalsLike, EIP1193Provider, ProviderOptions } from './provider'

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
}

/** An embedded wallet account as the user record has it (wallet account + entropy fields). */
export interface EmbeddedWalletAccount extends WalletAccount {
  entropyId?: string | null
  entropyIdVerifier?: string | null
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

export interface CreateOptions {
  chainType?: ChainType
  createAdditional?: boolean
  walletIndex?: number
  recoveryMethod?: RecoveryMethod
  recoveryPassword?: string
}

/** A user-owned recovery method's client part (recovery issue): opens its screen, then calls `recover(input)`. */
export type RecoveryHandler = (request: {
  wallet: EmbeddedWallet
  method: RecoveryMethod
  /** Runs wallets:recover in the frame with the method's input (password, cloud token ...). */
  recover(input: RecoveryInput): Promise<void>
}) => Promise<void>

export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'recovering' | 'needs-recovery' | 'error'

export interface EmbeddedWalletState {
  status: ConnectionStatus
  error: PorticoError | null
  /** Creation on login, for the created screen. */
  create: { status: 'idle' | 'creating' | 'created' | 'error'; isNewUser: boolean; error: PorticoError | null }
  /** Bumped when the wallet list may have changed (React re-reads `wallets()`). */
  version: number
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
  /** Loads the frame and connects the user's wallets (device share + auth share); recovers silently for privy. */
  connect(): Promise<void>
  /** Recovers the wallet on this device with its recovery method. */
  recover(input?: Partial<RecoveryInput>): Promise<void>
  /** The connected frame client (`request(type, payload)`). */
  frame(): Promise<FrameClient>
  /** Headless signer of one embedded wallet. */
  signer(address: string): EmbeddedSigner
  /** The EIP-1193 provider of an Ethereum wallet. */
  getEthereumProvider(address?: string, options?: { uiOptions?: UiOptions }): Promise<EIP1193Provider>
  /** A user-owned recovery method's client part; returns the undo. */
  registerRecovery(method: Exclude<RecoveryMethod, 'privy'>, handler: RecoveryHandler): () => void
  /** The settings in force (chains, RPC URLs). */
  readonly settings: EmbeddedWalletSettings
}

export const initialState = (): EmbeddedWalletState => ({
  status: 'idle',
  error: null,
  create: { status: 'idle', isNewUser: false, error: null },
  version: 0,
})

const hex = (bytes: Uint8Array): `0x${string}` => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
const utf8 = (s: string) => new TextEncoder().encode(s)
const b64 = (bytes: Uint8Array) => {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s)
}
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))

export function isEmbedded(a: { type: string }): a is EmbeddedWalletAccount {
  const w = a as EmbeddedWalletAccount
  return a.type === 'wallet' && w.walletClientType === 'privy'
}

export function embeddedAccounts(user: User | null | undefined): EmbeddedWalletAccount[] {
  return (user?.linkedAccounts ?? []).filter(isEmbedded)
}

export function createEmbeddedWallets(
  ctx: PluginContext,
  settings: EmbeddedWalletSettings,
  state: Store<EmbeddedWalletState>,
  T: () => EmbeddedWalletTexts,
  deps: { loadProvider: () => Promise<typeof import('./provider')>; frameTarget?: () => import('./frame-client').FrameTarget | undefined },
): EmbeddedWalletApi & { destroy(): void } {
  let client: FrameClient | null = null
  const objects = new Map<string, EmbeddedWallet>()
  const recoveries = new Map<RecoveryMethod, RecoveryHandler>()
  const providers = new Map<string, Promise<EIP1193Provider>>()
  let connecting: Promise<void> | null = null
  let recovering: Promise<void> | null = null

  const fail = (code: string, message: string, cause?: unknown) => walletError(code, message, { cause })

  const frameUrl = () => {
    const url = settings.frameUrl ?? (ctx.config.embeddedWallets as { frameUrl?: string; frame_url?: string }).frameUrl ?? (ctx.config.embeddedWallets as { frame_url?: string }).frame_url
    if (!url) throw fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().proxyMissing)
    return url
  }

  async function frame(): Promise<FrameClient> {
    const url = frameUrl()
    const page = typeof location !== 'undefined' ? location.href : 'https://localhost/'
    if (!isSecureEnough(url) || (!deps.frameTarget?.() && !isSecureEnough(page))) throw fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().httpsOnly)
    if (!client) client = new FrameClient({ frameUrl: url, appId: ctx.config.appId, clientId: ctx.config.clientId ?? null, target: deps.frameTarget?.() })
    const c = client
    try {
      await c.ready(settings.readyTimeoutMs ?? FRAME_READY_TIMEOUT_MODAL_MS)
    } catch (e) {
      if (client === c) {
        c.destroy()
        client = null
      }
      throw e
    }
    return c
  }

  const token = async (message = T().missingToken) => {
    const t = await ctx.session.getAccessToken()
    if (!t) throw fail('MUST_BE_AUTHENTICATED', message)
    return t
  }

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
    }
    if (a.chainType === 'ethereum') next.getEthereumProvider = (o) => api.getEthereumProvider(a.address, o)
    if (prev && (Object.keys(next) as (keyof EmbeddedWallet)[]).every((k) => typeof next[k] === 'function' || prev[k] === next[k])) return prev
    objects.set(key, next)
    return next
  }

  const wallets = () => embeddedAccounts(ctx.session.user).map(toWallet)
  const find = (address: string) => {
    const w = wallets().find((x) => (x.chainType === 'ethereum' ? x.address.toLowerCase() === address.toLowerCase() : x.address === address))
    if (!w) throw fail('EMBEDDED_WALLET_NOT_FOUND', T().notFound)
    return w
  }
  const roots = () => {
    const seen = new Map<string, EmbeddedWallet>()
    for (const w of wallets()) if (!seen.has(w.entropyId.toLowerCase())) seen.set(w.entropyId.toLowerCase(), w)
    return [...seen.values()]
  }
  const ref = (w: EmbeddedWallet): EntropyRef => ({ entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier })
  const bump = () => state.set((s) => ({ ...s, version: s.version + 1 }))

  async function refreshUser(): Promise<User> {
    let u: User | null = null
    try {
      u = await ctx.session.refreshUser()
    } catch (e) {
      throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().refreshFailed, e)
    }
    if (!u) throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().refreshFailed)
    bump()
    return u
  }

  async function sensitive(action: ActionContext['action'], details?: Record<string, unknown>) {
    const hooks = ctx.hooks as unknown as { sensitiveAction: { promise(c: ActionContext): Promise<void> } }
    await hooks.sensitiveAction.promise({ action, user: ctx.session.user, details })
  }

  // ---------------------------------------------------------------- recovery

  async function recoverRoot(w: EmbeddedWallet, input: Partial<RecoveryInput> = {}): Promise<void> {
    const method = (input.recoveryMethod ?? w.recoveryMethod ?? 'privy') as RecoveryMethod
    const run = async (i: RecoveryInput) => {
      const f = await frame()
      await f.request('wallets:recover', { accessToken: await token(), ...ref(w), ...i, recoveryMethod: method })
    }
    state.set({ status: 'recovering', error: null })
    try {
      await sensitive('recover_wallet', { address: w.address, recoveryMethod: method })
      if (method === 'privy') {
        ctx.analytics('embedded_wallet_pinless_recovery_started', { wallet_address: w.address })
        try {
          await run({ recoveryMethod: 'privy' })
        } catch (e) {
          throw fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().unableToRecover, e)
        }
        ctx.analytics('embedded_wallet_pinless_recovery_completed', { wallet_address: w.address })
      } else if (input.recoveryPassword || input.recoveryAccessToken) {
        await run({ ...input, recoveryMethod: method } as RecoveryInput)
      } else {
        const handler = recoveries.get(method)
        if (!handler) throw fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().recoveryNotSupported)
        await handler({ wallet: w, method, recover: (i) => run({ ...i, recoveryMethod: method }) })
      }
      state.set({ status: 'connected', error: null })
    } catch (e) {
      const err = e instanceof PorticoError ? e : fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().unableToRecover, e)
      state.set({ status: 'needs-recovery', error: err })
      throw err
    }
  }

  async function recover(input: Partial<RecoveryInput> = {}): Promise<void> {
    const root = roots()[0]
    if (!root) throw fail('EMBEDDED_WALLET_NOT_FOUND', T().notFound)
    if (recovering) return recovering
    recovering = recoverRoot(root, input).finally(() => {
      recovering = null
    })
    return recovering
  }

  /** Runs `fn`; when this device has no share, recovers once and runs it again. */
  async function withRecovery<R>(w: EmbeddedWallet, fn: () => Promise<R>): Promise<R> {
    try {
      return await fn()
    } catch (e) {
      if (!(e instanceof PorticoError) || e.code !== NEEDS_RECOVERY) throw e
      await (recovering ?? recoverRoot(w))
      return fn()
    }
  }

  // ---------------------------------------------------------------- connect

  async function connect(): Promise<void> {
    if (connecting) return connecting
    const list = roots()
    if (!list.length) return
    connecting = (async () => {
      state.set({ status: 'connecting', error: null })
      try {
        const f = await frame()
        for (const w of list) {
          await withRecovery(w, async () => {
            await f.request('wallets:connect', { accessToken: await token(), ...ref(w) })
          })
        }
        state.set({ status: 'connected', error: null })
      } catch (e) {
        const err = e instanceof PorticoError ? e : fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().failedToConnect, e)
        state.set((s) => ({ ...s, status: s.status === 'needs-recovery' ? 'needs-recovery' : 'error', error: err }))
        throw err
      } finally {
        connecting = null
      }
    })()
    return connecting
  }

  // ---------------------------------------------------------------- create

  const createLimit = () => ({ timeoutMs: settings.createTimeoutMs ?? WALLET_CREATE_TIMEOUT_MS, timeoutMessage: T().createTimedOut })

  async function createWallets(chainTypes: ChainType[], options: Omit<CreateOptions, 'chainType' | 'createAdditional' | 'walletIndex'> = {}): Promise<EmbeddedWallet[]> {
    const accessToken = await token(T().mustBeAuthenticated)
    const types = [...new Set(chainTypes)]
    const existing = wallets()
    const root = roots()[0]
    const f = await frame()
    if (!root) {
      await f.request('wallets:create', { accessToken, chainTypes: types, recoveryMethod: options.recoveryMethod, recoveryPassword: options.recoveryPassword }, createLimit())
    } else {
      const missing = types.filter((t) => !existing.some((w) => w.chainType === t && w.walletIndex === 0))
      if (!missing.length) throw fail('EMBEDDED_WALLET_ALREADY_EXISTS', T().alreadyExists)
      for (const t of missing) {
        await withRecovery(root, () => f.request('wallets:add', { accessToken, ...ref(root), chainType: t, walletIndex: 0 }, createLimit()))
      }
    }
    await refreshUser()
    const made = types.map((t) => wallets().find((w) => w.chainType === t && w.walletIndex === 0))
    if (made.some((w) => !w)) throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().missingAfterUpdate)
    state.set({ status: 'connected', error: null })
    return made as EmbeddedWallet[]
  }

  async function create(options: CreateOptions = {}): Promise<EmbeddedWallet> {
    const chainType = options.chainType ?? 'ethereum'
    if (options.walletIndex !== undefined && (!Number.isInteger(options.walletIndex) || options.walletIndex < 0)) {
      throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().negativeIndex)
    }
    if (!ctx.session.authenticated) throw fail('MUST_BE_AUTHENTICATED', T().mustBeAuthenticated)
    const mine = wallets().filter((w) => w.chainType === chainType)
    const root = roots()[0]
    if (!root || (!mine.length && (options.walletIndex ?? 0) === 0)) {
      if (options.createAdditional && !mine.length) throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().needsIndexZero)
      return (await createWallets([chainType], options))[0]
    }
    if (!options.createAdditional && options.walletIndex === undefined) throw fail('EMBEDDED_WALLET_ALREADY_EXISTS', T().alreadyExists)
    const index = options.walletIndex ?? Math.max(...mine.map((w) => w.walletIndex)) + 1
    if (mine.some((w) => w.walletIndex === index)) throw fail('EMBEDDED_WALLET_ALREADY_EXISTS', T().alreadyExists)
    if (index > 0 && !mine.some((w) => w.walletIndex === 0)) throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().needsIndexZero)
    const f = await frame()
    const accessToken = await token(T().mustBeAuthenticated)
    const res = await withRecovery(root, () => f.request('wallets:add', { accessToken, ...ref(root), chainType, walletIndex: index }, createLimit()))
    await refreshUser()
    const w = wallets().find((x) => x.chainType === chainType && x.address === res.wallet.address)
    if (!w) throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().missingAfterUpdate)
    return w
  }

  // ---------------------------------------------------------------- signing

  function signer(address: string): EmbeddedSigner {
    const w0 = find(address)
    const rpc = async (action: ActionContext['action'], request: RpcPayload['request'], details?: Record<string, unknown>): Promise<RpcData['data']> => {
      const w = find(address)
      await sensitive(action, { address: w.address, chainType: w.chainType, ...details })
      const f = await frame()
      const res = await withRecovery(w, async () =>
        f.request('wallets:rpc', { accessToken: await token(), ...ref(w), hdWalletIndex: w.walletIndex, chainType: w.chainType, requesterAppId: ctx.config.appId, request } as RpcPayload),
      )
      return res.data
    }
    const eth = () => {
      if (w0.chainType !== 'ethereum') throw fail('UNABLE_TO_SIGN', T().wrongAddress)
    }
    const sol = () => {
      if (w0.chainType !== 'solana') throw fail('UNABLE_TO_SIGN', T().wrongAddress)
    }
    return {
      address: w0.address,
      chainType: w0.chainType,
      async signMessage(message) {
        eth()
        let raw: `0x${string}`
        if (typeof message === 'string') {
          if (!message) throw fail('INVALID_MESSAGE', T().messageEmpty)
          raw = hex(utf8(message))
        } else if (message instanceof Uint8Array) raw = hex(message)
        else if (message && typeof message === 'object' && 'raw' in message) raw = typeof message.raw === 'string' ? message.raw : hex(message.raw)
        else throw fail('INVALID_MESSAGE', T().messageEmpty)
        return (await rpc('sign_message', { method: 'personal_sign', params: [raw, w0.address] })) as `0x${string}`
      },
      async signTypedData(typedData) {
        eth()
        const json = typeof typedData === 'string' ? typedData : JSON.stringify(typedData, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
        return (await rpc('sign_typed_data', { method: 'eth_signTypedData_v4', params: [w0.address, json] })) as `0x${string}`
      },
      async signTransaction(tx) {
        eth()
        const plain = JSON.parse(JSON.stringify(tx, (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v))) as FrameTransactionRequest
        return (await rpc('sign_transaction', { method: 'eth_signTransaction', params: [plain] }, { transaction: plain })) as `0x${string}`
      },
      async solanaSignMessage(message) {
        sol()
        if (!(message instanceof Uint8Array) || !message.length) throw fail('INVALID_MESSAGE', T().messageEmpty)
        const d = (await rpc('sign_message', { method: 'signMessage', params: { message: b64(message) } })) as { signature: string }
        return unb64(d.signature)
      },
      async solanaSignTransaction(transaction) {
        sol()
        const d = (await rpc('sign_transaction', { method: 'signTransaction', params: { transaction: b64(transaction) } })) as { signedTransaction: string }
        return unb64(d.signedTransaction)
      },
    }
  }

  const api: EmbeddedWalletApi & { destroy(): void } = {
    state,
    settings,
    wallets,
    ethereumWallets: () => wallets().filter((w) => w.chainType === 'ethereum'),
    solanaWallets: () => wallets().filter((w) => w.chainType === 'solana'),
    create,
    createWallets,
    connect,
    recover,
    frame,
    signer,
    async getEthereumProvider(address, options) {
      const w = address ? find(address) : wallets().find((x) => x.chainType === 'ethereum')
      if (!w || w.chainType !== 'ethereum') throw fail('EMBEDDED_WALLET_NOT_FOUND', T().notFound)
      const key = `${w.address}:${options?.uiOptions?.showWalletUIs === false ? 'headless' : 'ui'}`
      let p = providers.get(key)
      if (!p) {
        p = deps.loadProvider().then((m) =>
          m.createEthereumProvider({
            wallet: w,
            signer: signer(w.address),
            chains: settings.chains ?? [],
            rpcUrls: settings.rpcUrls ?? {},
            fetch: ctx.fetch,
            uiOptions: options?.uiOptions,
            approvals: () => ctx.plugin<ApprovalsLike>('approvals'),
            texts: T,
          }),
        )
        providers.set(key, p)
        p.catch(() => providers.delete(key))
      }
      return p
    },
    registerRecovery(method, handler) {
      recoveries.set(method, handler)
      return () => {
        if (recoveries.get(method) === handler) recoveries.delete(method)
      }
    },
    destroy() {
      client?.destroy()
      client = null
      providers.clear()
    },
  }
  return api
}

/** Clears the frame's session caches (logout). */
export async function clearFrame(api: EmbeddedWalletApi): Promise<void> {
  try {
    const f = await Promise.race([api.frame(), new Promise<never>((_, r) => setTimeout(() => r(new Error('not ready')), 2000))])
    await f.request('wallets:clear', {}, { timeoutMs: 2000 })
  } catch {
    /* nothing cached, or the frame is gone */
  }
}
