/**
 * The host side of user-owned recovery: what the screens call. It never sees key material:
 * the password and the drive's access token go to the wallet frame (`wallets:set-recovery`,
 * `wallets:recover`, or `wallets:create` with a recovery method), which seals or opens the
 * recovery share itself.
 */
import { PorticoError, type PluginContext } from 'portico'
import type { PopupWindow } from 'portico/kits/browser'
import type { OAuthHost } from 'portico/kits/oauth'
import { chooseRecoveryScreen, screenForMethod, type CloudMethod, type RecoveryConfig, type RecoveryMethod, type UserOwnedMethod } from './machine'
import { RECOVERY_TEXTS, type RecoveryTexts } from './strings'
import { RECOVERY_FRAME_TIMEOUT_MS } from './ids'

/** What the embedded-wallet plugin gives recovery (its frame client and the user's wallets). */
export interface RecoveryFrame {
  request<T = any>(type: string, payload: Record<string, unknown>, options?: { timeoutMs?: number; timeoutMessage?: string }): Promise<T>
}
export interface RecoveryWallet {
  address: string
  chainType: 'ethereum' | 'solana'
  walletIndex: number
  recoveryMethod?: string | null
  imported?: boolean
  entropyId?: string
  entropyIdVerifier?: string
}
/** The input of wallets:recover for a user-owned method. */
export interface RecoverInput {
  recoveryMethod: UserOwnedMethod
  recoveryPassword?: string
  recoveryAccessToken?: string
}
/** The wallet plugin's connect-time hook for a user-owned method (its `registerRecovery(method, handler)`). */
export type ConnectRecoveryHandler = (request: { method: string; recover(input: RecoverInput): Promise<void>; wallet?: { claimPending?: boolean } }) => Promise<void>
export interface RecoveryHost {
  frame(): Promise<RecoveryFrame> | RecoveryFrame
  wallets(): RecoveryWallet[]
  /** Reload the user record (the wallets' recovery method changed). */
  refresh?(): Promise<unknown>
  /** Create the user's wallet with this recovery (the create flow when recovery must be user-owned). */
  create?(opts: { recoveryMethod?: UserOwnedMethod | 'privy'; recoveryPassword?: string; recoveryAccessToken?: string }): Promise<unknown>
  /** Recover on this device (the wallet plugin's state, analytics and MFA gate around wallets:recover). */
  recover?(input: RecoverInput): Promise<void>
  /** Connect-time recovery: the wallet plugin calls the handler when this device has no share. */
  registerRecovery?(method: UserOwnedMethod, handler: ConnectRecoveryHandler): () => void
  /** The app's recovery settings (embeddedWallets.requireUserOwnedRecoveryOnCreate, userOwnedRecoveryOptions). */
  recoveryConfig?(): RecoveryConfig
}

export interface EntropyRefOut {
  entropyId: string
  entropyIdVerifier: 'ethereum-address-verifier' | 'solana-address-verifier'
}

/** The HD root's id: the index-0 address (Ethereum when the root has one, else Solana). */
export function entropyRefOf(wallets: RecoveryWallet[]): EntropyRefOut | null {
  const roots = wallets.filter((w) => w.walletIndex === 0 && !w.imported)
  const named = roots.find((w) => w.entropyId && (w.entropyIdVerifier === 'ethereum-address-verifier' || w.entropyIdVerifier === 'solana-address-verifier'))
  if (named) return { entropyId: named.entropyId!, entropyIdVerifier: named.entropyIdVerifier as EntropyRefOut['entropyIdVerifier'] }
  const eth = roots.find((w) => w.chainType === 'ethereum')
  if (eth) return { entropyId: eth.address, entropyIdVerifier: 'ethereum-address-verifier' }
  const sol = roots.find((w) => w.chainType === 'solana')
  return sol ? { entropyId: sol.address, entropyIdVerifier: 'solana-address-verifier' } : null
}

/** What the recovery flows do; a screen receives it in its params. */
export interface RecoveryController {
  readonly appName: string
  texts(): RecoveryTexts
  /** The method the user's wallet uses now. */
  currentMethod(): RecoveryMethod | null
  /** Seal the recovery share under a password (create: a new wallet; else set-recovery). */
  submitPassword(password: string, purpose: 'create' | 'set'): Promise<void>
  /**
   * Recovery with the password: wrong → invalid_recovery_pin ('Invalid recovery password,
   * please try again.'). `run`: the wallet plugin's recover of a connect-time request.
   */
  recoverWithPassword(password: string, run?: (input: RecoverInput) => Promise<void>): Promise<void>
  /** Opens the popup (inside the click) and runs the cloud OAuth flow, then backs up or recovers. */
  runCloud(method: CloudMethod, action: 'backup' | 'recover' | 'create', popup: PopupWindow | null, run?: (input: RecoverInput) => Promise<void>): Promise<void>
  openPopup(): PopupWindow | null
  /** Move the wallet to automatic recovery (`privy`): the frame splits the root afresh and the server seals the recovery share. */
  secureAutomatically(): Promise<void>
  /**
   * How many recovery operations succeeded so far and the last one's result: a flow closed
   * with × or Escape after its operation went through still reports success.
   */
  succeeded(): { count: number; value: unknown }
  /** Which recovery screen to show for the user's wallet now (section 2 'Choosing the recovery screen'); `options` narrows the app's methods. */
  chooseScreen(o: { creating: boolean; resetting?: boolean; options?: readonly UserOwnedMethod[] }): ReturnType<typeof chooseRecoveryScreen>
}

export function createRecoveryController(ctx: PluginContext, host: () => RecoveryHost, browser: () => OAuthHost | undefined): RecoveryController {
  const texts = () => ctx.texts(RECOVERY_TEXTS as RecoveryTexts, ctx.id)
  const fail = (code: string, message: string, cause?: unknown) => new PorticoError(code, message, { kind: 'client_error', cause, data: { provider: 'embedded-wallet-recovery' } })
  const token = async () => {
    const t = await ctx.session.getAccessToken()
    if (!t) throw fail('must_be_authenticated', 'An error has occured, please login again.')
    return t
  }
  const ref = () => {
    const r = entropyRefOf(host().wallets())
    if (!r) throw fail('embedded_wallet_not_found', 'Embedded wallet not found')
    return r
  }
  const frameCall = async <T>(type: string, payload: Record<string, unknown>) => {
    try {
      // Bounded: a frame that never answers ends in 'An error has occurred, please try again.'
      return await (await host().frame()).request<T>(type, payload, { timeoutMs: RECOVERY_FRAME_TIMEOUT_MS, timeoutMessage: texts().tryAgainError })
    } catch (e) {
      throw fromFrame(e, texts())
    }
  }
  let success = { count: 0, value: undefined as unknown }
  const won = (value: unknown) => void (success = { count: success.count + 1, value })
  const after = async () => {
    const h = host()
    if (h.refresh) await h.refresh()
    else await ctx.session.refreshUser().catch(() => null)
  }
  /** wallets:recover through the connect-time request, the wallet plugin, or the frame. */
  const recoverWith = async (input: RecoverInput, run?: (input: RecoverInput) => Promise<void>) => {
    try {
      const h = host()
      if (run) await run(input)
      else if (h.recover) await h.recover(input)
      else {
        await frameCall('wallets:recover', { accessToken: await token(), ...ref(), ...input })
        await after()
      }
    } catch (e) {
      throw fromFrame(e, texts())
    }
    won({ recovered: true })
  }

  const controller: RecoveryController = {
    get appName() {
      return ctx.config.name ?? ''
    },
    texts,
    currentMethod() {
      const w = host().wallets().find((x) => x.walletIndex === 0 && !x.imported)
      return (w?.recoveryMethod as RecoveryMethod | undefined) ?? null
    },
    async submitPassword(password, purpose) {
      if (purpose === 'create') {
        const create = host().create
        if (!create) throw fail('method_not_supported', texts().methodNotSupported)
        await create({ recoveryMethod: 'user-passcode', recoveryPassword: password })
      } else {
        await frameCall('wallets:set-recovery', { accessToken: await token(), ...ref(), recoveryMethod: 'user-passcode', recoveryPassword: password })
        await after()
      }
      won({ recoveryMethod: 'user-passcode' })
    },
    async recoverWithPassword(password, run) {
      await recoverWith({ recoveryMethod: 'user-passcode', recoveryPassword: password }, run)
    },
    openPopup() {
      const b = browser()
      return b ? b.open('about:blank', 'portico-recovery', 'popup,width=480,height=640') : null
    },
    async runCloud(method, action, popup, run) {
      const b = browser()
      if (!b || !popup) throw fail('oauth_unexpected', texts().tryAgainError)
      const { authorizeCloud } = await import('./cloud-oauth')
      const accessToken = await authorizeCloud(ctx, b, popup, method, texts())
      if (action === 'recover') return recoverWith({ recoveryMethod: method, recoveryAccessToken: accessToken }, run)
      if (action === 'create') {
        // The wallet is created with the cloud method directly: the frame writes the sealed
        // recovery share to the drive before the server stores the new root.
        const create = host().create
        if (!create) throw fail('method_not_supported', texts().methodNotSupported)
        await create({ recoveryMethod: method, recoveryAccessToken: accessToken })
      } else {
        await frameCall('wallets:set-recovery', { accessToken: await token(), ...ref(), recoveryMethod: method, recoveryAccessToken: accessToken })
        await after()
      }
      won({ recoveryMethod: method })
    },
    async secureAutomatically() {
      await frameCall('wallets:set-recovery', { accessToken: await token(), ...ref(), recoveryMethod: 'privy' })
      await after()
      won({ recoveryMethod: 'privy' })
    },
    succeeded: () => success,
    chooseScreen({ options, ...o }) {
      const config = { ...host().recoveryConfig?.() }
      if (options?.length) config.userOwnedRecoveryOptions = options
      return chooseRecoveryScreen(config, { ...o, current: controller.currentMethod() })
    },
  }
  return controller
}

/** A frame failure ({type, message}) as a PorticoError; a wrong password keeps the spec's text. */
export function fromFrame(e: unknown, T: RecoveryTexts = RECOVERY_TEXTS): PorticoError {
  if (e instanceof PorticoError) {
    if ((e.code as string) === 'invalid_recovery_pin' || e.data?.type === 'invalid_recovery_pin' || e.data?.frameErrorType === 'invalid_recovery_pin') return new PorticoError('invalid_recovery_pin', T.invalidPassword, { kind: 'client_error', cause: e })
    return e
  }
  const err = e as { type?: string; message?: string } | null
  if (err?.type === 'invalid_recovery_pin') return new PorticoError('invalid_recovery_pin', T.invalidPassword, { kind: 'client_error', cause: e })
  return new PorticoError(err?.type === 'missing_or_invalid_mfa' ? 'missing_or_invalid_mfa' : 'unknown_embedded_wallet_error', err?.message || T.tryAgainError, {
    kind: 'client_error',
    cause: e,
    data: { type: err?.type ?? 'error' },
  })
}

export { screenForMethod }
