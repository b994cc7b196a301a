/**
 * User-owned recovery of the embedded wallet (issue 14; spec part 2 sections 2, 4, 5, 7, 8):
 * the recovery selection (Google Drive, Apple iCloud, password), the four-step password flow
 * and its update, password recovery, and the cloud-backup OAuth flow, with the spec's rules
 * and texts. The embedded-wallet plugin calls `registerRecovery(ctx, host)` once in its setup
 * with its frame client and wallets; the key work happens in the wallet frame
 * (examples/server/frame/handlers/recovery-passcode.ts and recovery-cloud.ts).
 */
import { lazyOnce, type AuthContext, type FlowResult, type PluginContext } from 'portico'
import type { OAuthHost } from 'portico/kits/oauth'
import { claimRecoveryReturn } from './popup-return'
import type { RecoverInput, RecoveryController, RecoveryHost } from './controller'
import type { RecoveryConfig, UserOwnedMethod } from './machine'
import type { RecoveryFlows } from './flows'
import { RECOVERY_SCREENS } from './ids'

export { RECOVERY_SCREENS, SUCCESS_CLOSE_MS } from './ids'
export type { RecoveryTexts } from './strings'
export type { ConnectRecoveryHandler, RecoverInput, RecoveryController, RecoveryFrame, RecoveryHost, RecoveryWallet } from './controller'
export { RECOVERY_POPUP_PARAM, RECOVERY_POPUP_MESSAGE } from './popup-return'
export { useSetWalletRecovery } from './react'

export interface RecoveryApi {
  /** The flows' controller (loaded on first use). */
  controller(): Promise<RecoveryController>
  /**
   * Set or change the wallet's user-owned recovery (`useSetWalletRecovery`): the selection, or
   * the password flow when it is the only method. Resolves when the modal closes.
   */
  setWalletRecovery(o?: { resetting?: boolean; options?: UserOwnedMethod[] }): Promise<FlowResult>
  /** The app's recovery choices in force (automatic recovery, user-owned options). */
  recoveryConfig(): RecoveryConfig
  /**
   * Connect-time recovery (needs-recovery): user-passcode → password recovery; google-drive /
   * icloud → the cloud screen; privy → nothing here (silent); anything else → a failure with Close.
   */
  recoverOnConnect(method: unknown, recover?: (input: RecoverInput) => Promise<void>, options?: { claim?: boolean }): Promise<FlowResult | null>
  /** The create flow when recovery must be user-owned: the selection (or the password flow) before the wallet exists. */
  createWithRecovery(o?: { options?: UserOwnedMethod[]; initiatedBy?: 'user' | 'automatic' }): Promise<FlowResult>
}

const browserHost = (): OAuthHost | undefined => (typeof window === 'undefined' ? undefined : (window as unknown as OAuthHost))

export function registerRecovery(ctx: PluginContext, host: () => RecoveryHost, browser: () => OAuthHost | undefined = browserHost): RecoveryApi {
  const s = ctx.screens
  s.register({ id: RECOVERY_SCREENS.select, load: () => import('./screens/select') })
  s.register({ id: RECOVERY_SCREENS.password, load: () => import('./screens/password') })
  s.register({ id: RECOVERY_SCREENS.passwordRequired, load: () => import('./screens/password'), canClose: false })
  s.register({ id: RECOVERY_SCREENS.recoverPassword, load: () => import('./screens/recover') })
  s.register({ id: RECOVERY_SCREENS.cloud, load: () => import('./screens/cloud') })
  s.register({ id: RECOVERY_SCREENS.failure, load: () => import('./screens/failure'), compact: true })
  s.register({ id: RECOVERY_SCREENS.updateSplash, load: () => import('./screens/update-splash') })
  s.register({ id: RECOVERY_SCREENS.automatic, load: () => import('./screens/automatic') })
  // The cloud OAuth popup lands on this app's page: answer the opener and close.
  ctx.hooks.returnPath.tap(ctx.id, ({ url }) => claimRecoveryReturn(url, browser))

  // The flows' code (controller, texts, rules) loads on first use.
  const config = (): RecoveryConfig => {
    const own = host().recoveryConfig?.()
    if (own) return own
    const cfg = recoverySettings(ctx)
    return { automatic: cfg.automaticRecovery, userOwnedRecoveryOptions: cfg.userOwnedRecoveryOptions }
  }
  const withConfig = (): RecoveryHost => Object.assign(Object.create(host()) as RecoveryHost, { recoveryConfig: config })
  const controller = lazyOnce(() => import('./controller').then((m) => m.createRecoveryController(ctx, withConfig, browser)))
  // Which screen to open for what: loaded with the controller.
  let flowing: Promise<RecoveryFlows> | null = null
  const flows = () =>
    (flowing ??= Promise.all([import('./flows'), controller()]).then(([m, c]) => m.createRecoveryFlows(s, c)).catch((e) => {
      flowing = null
      throw e
    }))

  const api: RecoveryApi = {
    controller,
    recoveryConfig: config,
    setWalletRecovery: async (o) => (await flows()).setWalletRecovery(o),
    recoverOnConnect: async (method, recover, options) => (await flows()).recoverOnConnect(method, recover, options),
    createWithRecovery: async (o) => (await flows()).createWithRecovery(o),
  }

  // Connect-time recovery of a user-owned method: the wallet plugin asks, the screen answers.
  for (const m of ['user-passcode', 'google-drive', 'icloud'] as const) {
    host().registerRecovery?.(m, async ({ wallet, method, recover }) => {
      const r = await api.recoverOnConnect(method, recover, { claim: wallet?.claimPending === true })
      if (r && !r.ok) throw r.error
    })
  }

  // Creation on login when recovery must be user-owned (requireUserOwnedRecoveryOnCreate):
  // before the wallet plugin's own creation (stage 0), the selection or the password flow
  // creates the wallet with the user's method; the wallet plugin then finds it there.
  ctx.hooks.authenticated.tapPromise({ name: ctx.id, stage: -1 }, async (auth: AuthContext) => {
    if (auth.intent !== 'login') return
    const cfg = recoverySettings(ctx)
    if (!cfg.requireUserOwnedRecoveryOnCreate || cfg.createOnLogin === 'off') return
    const user = auth.session.user ?? auth.user
    const accounts = user?.linkedAccounts ?? []
    if (accounts.some((a) => a.type === 'wallet' && (a as { walletClientType?: string }).walletClientType === 'privy')) return
    if (cfg.createOnLogin === 'users-without-wallets' && accounts.some((a) => a.type === 'wallet')) return
    const r = await api.createWithRecovery({ options: cfg.userOwnedRecoveryOptions, initiatedBy: 'automatic' })
    if (!r.ok) ctx.warn(`Embedded wallet creation with user-owned recovery did not finish: ${r.error.message}`)
  })

  return api
}

/** The app's recovery settings (server app config `embedded_wallet_config`, or the host's `embeddedWallets`). */
export function recoverySettings(ctx: Pick<PluginContext, 'config'>): {
  createOnLogin: string
  requireUserOwnedRecoveryOnCreate: boolean
  /** Automatic (privy) recovery is offered first ('Automatically secure your account'). */
  automaticRecovery: boolean
  userOwnedRecoveryOptions?: UserOwnedMethod[]
} {
  const e = (ctx.config.embeddedWallets ?? {}) as Record<string, unknown>
  const list = (e.userOwnedRecoveryOptions ?? e.user_owned_recovery_options) as unknown
  const options = Array.isArray(list) ? (list.filter((m) => m === 'user-passcode' || m === 'google-drive' || m === 'icloud') as UserOwnedMethod[]) : undefined
  return {
    createOnLogin: String(e.createOnLogin ?? e.create_on_login ?? 'off'),
    requireUserOwnedRecoveryOnCreate: (e.requireUserOwnedRecoveryOnCreate ?? e.require_user_owned_recovery_on_create) === true,
    automaticRecovery: (e.automaticRecovery ?? e.automatic_recovery) === true,
    userOwnedRecoveryOptions: options?.length ? options : undefined,
  }
}
