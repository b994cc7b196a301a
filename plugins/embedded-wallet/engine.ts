/**
 * The frame-facing part of the embedded wallet API, loaded on first use: the frame client,
 * creation (index rules of spec part 2 section 5), connection (device share + auth share)
 * with silent `privy` recovery, registered recovery handlers, and the headless signer every
 * signing path goes through (after the kernel's `sensitiveAction` hook, where MFA taps in).
 */
import { PorticoError, type ActionContext, type PluginContext, type Store, type User } from 'portico'
import { DEVICE_REVOKED, DEVICE_STEP_UP_REQUIRED, NEEDS_RECOVERY, STEP_UP_UNAVAILABLE, STORAGE_NOTICE_SCREEN, walletError } from './codes'
import { FrameClient, isSecureEnough, type FrameTarget } from './frame-client'
import {
  FRAME_READY_TIMEOUT_MODAL_MS,
  WALLET_CREATE_TIMEOUT_MS,
  type ChainType,
  type EntropyRef,
  type FrameStorage,
  type FrameTransactionRequest,
  type RecoveryInput,
  type RecoveryMethod,
  type RpcData,
  type RpcPayload,
  type WalletDevice,
} from './protocol'
import { EMBEDDED_WALLET_TEXTS, type EmbeddedWalletTexts } from './strings'
import { RECOVERY_FRAME_TIMEOUT_MS } from './recovery/ids'
import type { ApprovalsLike, EIP1193Provider } from './provider'
import type {
  ConnectOptions,
  CreateOptions,
  ImportOptions,
  EmbeddedSigner,
  EmbeddedWallet,
  EmbeddedWalletApi,
  EmbeddedWalletSettings,
  EmbeddedWalletState,
  RecoveryHandler,
} from './wallets'

const hex = (bytes: Uint8Array): `0x${string}` => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
const utf8 = (s: string) => new TextEncoder().encode(s)
const b64 = (bytes: Uint8Array) => {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s)
}
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))

export interface EngineDeps {
  /** The wallet service's URL (`frameUrlOf`, passed by the entry: this module shares no module with it). */
  frameUrl(): string | undefined
  frameTarget?: () => FrameTarget | undefined
  /** The facade's wallet list (stable objects) and lookups. */
  wallets(): EmbeddedWallet[]
  find(address: string): EmbeddedWallet
  roots(): EmbeddedWallet[]
  recoveries: Map<RecoveryMethod, RecoveryHandler>
  bump(): void
}

export type Engine = Pick<EmbeddedWalletApi, 'create' | 'createWallets' | 'importWallet' | 'connect' | 'recover' | 'frame' | 'signer' | 'getEthereumProvider' | 'devices' | 'removeDevice'> & {
  destroy(): void
}

/** The 'Confirm it’s you' screen (a new device's step-up). */
export const STEP_UP_SCREEN = 'embedded-wallet-step-up'

/** What the step-up screen gets: where the code went, and the two calls. */
export interface StepUpParams {
  method: 'email' | 'sms'
  /** The masked address ('a•••@example.com'). */
  to: string
  /** Checks the code (throws a PorticoError with a clear message when wrong). */
  submit(code: string): Promise<void>
  /** Sends a new code. */
  resend(): Promise<void>
}

/** The part of the API that talks to the frame (loaded on first use). */
export function createEngine(
  ctx: PluginContext,
  settings: EmbeddedWalletSettings,
  state: Store<EmbeddedWalletState>,
  deps: EngineDeps,
): Engine {
  let client: FrameClient | null = null
  const { wallets, find, roots, recoveries, bump } = deps
  const T = (): EmbeddedWalletTexts => ctx.texts(EMBEDDED_WALLET_TEXTS)
  const providers = new Map<string, Promise<EIP1193Provider>>()
  let connecting: Promise<void> | null = null
  let recovering: Promise<void> | null = null

  const fail = (code: string, message: string, cause?: unknown) => walletError(code, message, { cause })

  const frameUrl = () => {
    const url = deps.frameUrl()
    if (!url) throw fail('UNKNOWN_EMBEDDED_WALLET_ERROR', T().proxyMissing)
    return url
  }

  // ---------------------------------------------------------------- storage

  let storageNoticeShown = false

  /** What the frame says about its storage ('session': blocked or partitioned on this site). */
  function noteStorage(s: FrameStorage | null | undefined) {
    if (s && state.get().storage !== s) state.set({ storage: s })
  }

  /**
   * Once a wallet is on this device for the tab only, the user is told so, once per page: in a
   * flow of its own when none is open (after the login's created screen has closed).
   */
  function explainSessionStorage(s?: FrameStorage | null) {
    noteStorage(s)
    if (state.get().storage !== 'session' || storageNoticeShown || !ctx.screens.has(STORAGE_NOTICE_SCREEN)) return
    storageNoticeShown = true
    const show = () => {
      if (!ctx.screens.getState().open) return void ctx.screens.open(STORAGE_NOTICE_SCREEN, {}, { intent: 'update' }).catch(() => {})
      const stop = ctx.screens.subscribe((nav) => {
        if (nav.open) return
        stop()
        // After the closing flow has settled (its other listeners see it closed first).
        setTimeout(show, 0)
      })
    }
    show()
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
    noteStorage(c.storage)
    return c
  }

  const token = async (message = T().missingToken) => {
    const t = await ctx.session.getAccessToken()
    if (!t) throw fail('MUST_BE_AUTHENTICATED', message)
    return t
  }

  const ref = (w: EmbeddedWallet): EntropyRef => ({ entropyId: w.entropyId, entropyIdVerifier: w.entropyIdVerifier })

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

  // ---------------------------------------------------------------- new device: step-up

  const isCode = (e: unknown, ...codes: string[]) => e instanceof PorticoError && codes.includes(e.code)

  /**
   * Opens the 'Confirm it’s you' screen: a flow of its own when the modal is closed, else a
   * nested flow over the open one (a signature's approval screen), which returns there.
   */
  function openStepUp(params: StepUpParams) {
    const open = ctx.screens.getState().open
    return ctx.screens.open(STEP_UP_SCREEN, params as unknown as Record<string, unknown>, open ? { nested: true } : { intent: 'update' })
  }

  /**
   * This device is new to the wallet (or the session is bound to another one): a code to the
   * user's verified e-mail or phone, typed on the 'Confirm it’s you' screen, or a fresh MFA
   * verification. The server then lets this device, on this session, recover this root once.
   */
  async function stepUp(w: EmbeddedWallet): Promise<void> {
    const f = await frame()
    const start = async () => f.request('wallets:step-up-start', { accessToken: await token(), ...ref(w) })
    const first = await start()
    if (first.method === 'mfa') {
      const verify = async () => void (await f.request('wallets:step-up-verify', { accessToken: await token(), ...ref(w) }))
      try {
        await verify()
      } catch (e) {
        if (!isCode(e, 'MISSING_MFA_CREDENTIALS')) throw e
        // 'Verify your identity' (the MFA plugin), then the grant.
        await sensitive('recover_wallet', { address: w.address, mfaRequired: true })
        await verify()
      }
      return
    }
    const result = await openStepUp({
      method: first.method,
      to: first.to,
      submit: async (code) => void (await f.request('wallets:step-up-verify', { accessToken: await token(), ...ref(w), code })),
      resend: async () => void (await start()),
    })
    if (!result.ok) throw result.error
  }

  /** Runs `fn`; when the server wants a step-up for this device first, steps up once and runs it again. */
  async function withStepUp<R>(w: EmbeddedWallet, fn: () => Promise<R>): Promise<R> {
    try {
      return await fn()
    } catch (e) {
      if (!isCode(e, DEVICE_STEP_UP_REQUIRED)) throw e
      await stepUp(w)
      return fn()
    }
  }

  // ---------------------------------------------------------------- devices

  async function devices(): Promise<WalletDevice[]> {
    await token()
    const res = await ctx.api.get<{ devices: { id: string; label: string | null; created_at: number; last_used_at: number; session_only: boolean; current: boolean }[] }>('/wallets/devices')
    return res.devices.map((d) => ({ id: d.id, label: d.label, createdAt: d.created_at, lastUsedAt: d.last_used_at, sessionOnly: d.session_only, current: d.current }))
  }

  async function removeDevice(deviceId: string): Promise<WalletDevice[]> {
    const f = await frame()
    return (await f.request('wallets:revoke-device', { accessToken: await token(), deviceId })).devices
  }

  // ---------------------------------------------------------------- recovery

  async function recoverRoot(w: EmbeddedWallet, input: Partial<RecoveryInput> = {}, beforeScreens?: () => Promise<void>): Promise<void> {
    const method = (input.recoveryMethod ?? w.recoveryMethod ?? 'privy') as RecoveryMethod
    const run = async (i: RecoveryInput) => {
      const f = await frame()
      // A new device confirms it's the user first (privy: the server holds both other shares).
      const res = await withStepUp(w, async () =>
        f.request('wallets:recover', { accessToken: await token(), ...ref(w), ...i, recoveryMethod: method }, { timeoutMs: RECOVERY_FRAME_TIMEOUT_MS, timeoutMessage: T().tryAgain }),
      )
      explainSessionStorage(res?.storage)
    }
    state.set({ status: 'recovering', error: null })
    try {
      // The MFA prompt and the recovery screens open only once the caller's flow has ended (the
      // login's modal): pushed into a flow that closes by itself, they would vanish unanswered.
      if (beforeScreens) await beforeScreens()
      await sensitive('recover_wallet', { address: w.address, recoveryMethod: method })
      if (method === 'privy') {
        ctx.analytics('embedded_wallet_pinless_recovery_started', { wallet_address: w.address })
        try {
          await run({ recoveryMethod: 'privy' })
        } catch (e) {
          // The step-up's own outcomes keep their clear texts (no channel, a removed device, the user closed it).
          if (isCode(e, STEP_UP_UNAVAILABLE, DEVICE_REVOKED, 'exited_update_flow', 'exited_auth_flow', 'exited_link_flow')) throw e
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

  /** One recovery at a time: whoever needs it meanwhile (connect, a signature) waits for the same one. */
  function recoverOnce(w: EmbeddedWallet, input: Partial<RecoveryInput> = {}, beforeScreens?: () => Promise<void>): Promise<void> {
    if (recovering) return recovering
    const p = recoverRoot(w, input, beforeScreens).finally(() => {
      if (recovering === p) recovering = null
    })
    recovering = p
    return p
  }

  async function recover(input: Partial<RecoveryInput> = {}): Promise<void> {
    const root = roots().find((w) => !w.imported) ?? roots()[0]
    if (!root) throw fail('EMBEDDED_WALLET_NOT_FOUND', T().notFound)
    return recoverOnce(root, input)
  }

  /**
   * Runs `fn`; when this device has no share, or the server wants this device to step up first
   * (a session bound to another device), recovers once (with the step-up) and runs it again.
   */
  async function withRecovery<R>(w: EmbeddedWallet, fn: () => Promise<R>, beforeScreens?: () => Promise<void>): Promise<R> {
    try {
      return await fn()
    } catch (e) {
      if (!isCode(e, NEEDS_RECOVERY, DEVICE_STEP_UP_REQUIRED)) throw e
      await recoverOnce(w, {}, beforeScreens)
      return fn()
    }
  }

  // ---------------------------------------------------------------- connect

  async function connect(options: ConnectOptions = {}): Promise<void> {
    if (connecting) return connecting
    const list = roots()
    if (!list.length) return
    connecting = (async () => {
      state.set({ status: 'connecting', error: null })
      try {
        const f = await frame()
        for (const w of list) {
          await withRecovery(
            w,
            async () => {
              await f.request('wallets:connect', { accessToken: await token(), ...ref(w) })
            },
            options.beforeScreens,
          ).catch((e) => {
            // A user with MFA has no fresh verification at page load: the wallet stays locked in
            // the frame and unlocks on its first sensitive action, after 'Verify your identity'.
            if (e instanceof PorticoError && e.code === 'MISSING_MFA_CREDENTIALS') return
            throw e
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
    const existing = wallets().filter((w) => !w.imported)
    const root = roots().find((w) => !w.imported)
    const f = await frame()
    if (!root) {
      const res = await f.request(
        'wallets:create',
        { accessToken, chainTypes: types, recoveryMethod: options.recoveryMethod, recoveryPassword: options.recoveryPassword, recoveryAccessToken: options.recoveryAccessToken },
        createLimit(),
      )
      explainSessionStorage(res?.storage)
    } else {
      const missing = types.filter((t) => !existing.some((w) => w.chainType === t && w.walletIndex === 0))
      if (!missing.length) throw fail('EMBEDDED_WALLET_ALREADY_EXISTS', T().alreadyExists)
      for (const t of missing) {
        await withRecovery(root, () => f.request('wallets:add', { accessToken, ...ref(root), chainType: t, walletIndex: 0 }, createLimit()))
      }
    }
    await refreshUser()
    const made = types.map((t) => wallets().find((w) => w.chainType === t && w.walletIndex === 0 && !w.imported))
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
    const mine = wallets().filter((w) => w.chainType === chainType && !w.imported)
    const root = roots().find((w) => !w.imported)
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

  // ---------------------------------------------------------------- import

  async function importWallet(options: ImportOptions): Promise<EmbeddedWallet> {
    if (!ctx.session.authenticated) throw fail('MUST_BE_AUTHENTICATED', T().mustBeAuthenticated)
    const chainType = options.chainType ?? 'ethereum'
    if (chainType !== 'ethereum' && chainType !== 'solana') throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().unsupportedChainType)
    if (typeof options.privateKey !== 'string' || !options.privateKey.trim()) throw fail('invalid_data', chainType === 'ethereum' ? T().invalidEthereumKey : T().invalidSolanaKey)
    const accessToken = await token(T().mustBeAuthenticated)
    const f = await frame()
    const res = await f.request(
      'wallets:import',
      { accessToken, chainType, privateKey: options.privateKey, recoveryMethod: options.recoveryMethod, recoveryPassword: options.recoveryPassword },
      createLimit(),
    )
    explainSessionStorage(res?.storage)
    await refreshUser()
    const w = wallets().find((x) => x.chainType === chainType && x.imported && (chainType === 'ethereum' ? x.address.toLowerCase() === res.wallet.address.toLowerCase() : x.address === res.wallet.address))
    if (!w) throw fail('EMBEDDED_WALLET_CREATE_ERROR', T().missingAfterUpdate)
    return w
  }

  // ---------------------------------------------------------------- signing

  function signer(address: string): EmbeddedSigner {
    const w0 = find(address)
    const rpc = async (action: ActionContext['action'], request: RpcPayload['request'], details?: Record<string, unknown>): Promise<RpcData['data']> => {
      const w = find(address)
      const about = { address: w.address, chainType: w.chainType, ...details }
      const call = async () => {
        const f = await frame()
        const res = await withRecovery(w, async () =>
          f.request('wallets:rpc', { accessToken: await token(), ...ref(w), hdWalletIndex: w.walletIndex, chainType: w.chainType, requesterAppId: ctx.config.appId, request } as RpcPayload),
        )
        return res.data
      }
      await sensitive(action, about)
      try {
        return await call()
      } catch (e) {
        // The server wants a verification the MFA plugin thought fresh (its window passed on
        // the server first, another tab, a clock): verify now, then once more.
        if (!(e instanceof PorticoError) || e.code !== 'MISSING_MFA_CREDENTIALS') throw e
        await sensitive(action, { ...about, mfaRequired: true })
        return call()
      }
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

  const engine: Engine = {
    create,
    createWallets,
    importWallet,
    connect,
    recover,
    frame,
    signer,
    devices,
    removeDevice,
    async getEthereumProvider(address, options) {
      const w = address ? find(address) : wallets().find((x) => x.chainType === 'ethereum')
      if (!w || w.chainType !== 'ethereum') throw fail('EMBEDDED_WALLET_NOT_FOUND', T().notFound)
      const key = `${w.address}:${options?.uiOptions?.showWalletUIs === false ? 'headless' : 'ui'}`
      let p = providers.get(key)
      if (!p) {
        p = import('./provider').then((m) =>
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
    destroy() {
      client?.destroy()
      client = null
      providers.clear()
    },
  }
  return engine
}
