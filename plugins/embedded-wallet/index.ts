/**
 * portico/plugins/embedded-wallet — embedded wallets (spec part 2; issue 14): keys live in a
 * hidden frame on the wallet service's own origin (the reference server's frame listener);
 * this plugin talks to it over the frame protocol (`./protocol`), creates wallets (on login
 * with `createOnLogin`, or `create()`), connects them on page load (device share + auth
 * share, silent automatic recovery), and signs headless or through the approvals plugin when
 * one is set up. Ethereum wallets give an EIP-1193 provider (`wallet.getEthereumProvider()`);
 * the Solana wallet is registered as a wallet-standard wallet.
 *
 * ```ts
 * createPortico({ appId, plugins: [email(), embeddedWallet({ frameUrl: 'https://wallet.example.com', createOnLogin: 'users-without-wallets' })] })
 * const wallet = kernel.plugin('embedded-wallet').ethereumWallets()[0]
 * const client = createWalletClient({ account: wallet.address, transport: custom(await wallet.getEthereumProvider()) })
 * ```
 * The host page never sees key material: only addresses, signatures and signed transactions.
 */
import { definePlugin, type AuthContext, type PorticoPlugin } from 'portico'
import { EMBEDDED_WALLET, STORAGE_NOTICE_SCREEN } from './codes'
import type { FrameTarget } from './frame-client'
import { createEmbeddedWallets, embeddedAccounts, initialState, type EmbeddedWalletApi, type EmbeddedWalletSettings } from './wallets'
import type { ChainType } from './protocol'

export type { FrameClient, FrameClientOptions, FrameTarget, RequestOptions } from './frame-client'
export { EMBEDDED_WALLET, NEEDS_RECOVERY, DEVICE_STEP_UP_REQUIRED, STEP_UP_UNAVAILABLE, DEVICE_REVOKED } from './codes'
export type { EmbeddedWalletTexts } from './strings'
export { embeddedAccounts, isEmbedded } from './wallets'
export type {
  CreateOnLogin,
  CreateOptions,
  ConnectionStatus,
  ConnectOptions,
  EmbeddedSigner,
  EmbeddedWallet,
  EmbeddedWalletAccount,
  EmbeddedWalletApi,
  EmbeddedWalletSettings,
  EmbeddedWalletState,
  ImportOptions,
  WalletPageKit,
  RecoveryHandler,
  TypedDataInput,
  UiOptions,
} from './wallets'
export type { ApprovalRequest, ApprovalsLike, EIP1193Provider, RequestArguments } from './provider'
export * from './protocol'
export { upgradeTo7702, delegationDesignator, ENTRY_POINT_V08, SIMPLE_7702_ACCOUNT, KNOWN_7702_IMPLEMENTATIONS } from './eip7702'
export type { UpgradeTo7702Options, UpgradeTo7702Result, AuthorizationRequest } from './eip7702'
export { useWallets, useSolanaWallets, useCreateWallet, useImportWallet, useEmbeddedWallet, useWalletDevices } from './react'
export { useSetWalletRecovery, registerRecovery, RECOVERY_SCREENS, type RecoveryApi, type RecoveryHost } from './recovery'
// The wallet service's visible pages (`api.walletPage()`, loaded on use).
export type { PageOptions, PageTarget } from './wallet-page'
import { recoverySettings, registerRecovery, type RecoveryHost } from './recovery'

declare module 'portico' {
  interface PluginApis {
    'embedded-wallet': EmbeddedWalletApi
  }
}

/** Screen ids this plugin registers. */
export const EMBEDDED_WALLET_SCREENS = { create: 'embedded-wallet-create', storage: STORAGE_NOTICE_SCREEN, stepUp: 'embedded-wallet-step-up' } as const

/** Spec part 2 section 9: the created screen closes after 2.5 s; creation on login waits up to 30 s. */
export const CREATED_SCREEN_MS = 2500
export const CREATE_ON_LOGIN_WAIT_MS = 30_000

export interface EmbeddedWalletOptions extends EmbeddedWalletSettings {
  /** Tests: a fake frame window instead of the iframe. */
  frameTarget?: FrameTarget
}

export function embeddedWallet(options: EmbeddedWalletOptions = {}): PorticoPlugin<'embedded-wallet'> {
  return definePlugin({
    id: EMBEDDED_WALLET,
    kind: 'wallet',
    setup(ctx) {
      const state = ctx.store(initialState())
      const api = createEmbeddedWallets(ctx, options, state, {
        frameTarget: options.frameTarget ? () => options.frameTarget : undefined,
      })
      ctx.provide(api)
      // Recovery sees the wallet API plus the app's recovery choices (automatic recovery first when enabled).
      const recoveryHost = Object.assign(Object.create(api) as RecoveryHost, {
        recoveryConfig: () => {
          const s = recoverySettings(ctx)
          return { automatic: options.automaticRecovery ?? s.automaticRecovery, userOwnedRecoveryOptions: s.userOwnedRecoveryOptions }
        },
      })
      api.recovery = registerRecovery(ctx, () => recoveryHost)
      ctx.declareErrors(() =>
        Promise.all([import('./errors'), import('./strings')]).then(([e, s]) => e.embeddedWalletErrors(() => ctx.texts(s.EMBEDDED_WALLET_TEXTS))),
      )
      ctx.screens.register({ id: EMBEDDED_WALLET_SCREENS.create, load: () => import('./screens/create'), canClose: false, compact: true })
      ctx.screens.register({ id: EMBEDDED_WALLET_SCREENS.storage, load: () => import('./screens/storage-notice'), compact: true })
      // A new device's 'Confirm it’s you' (issue 26): × or Escape cancel the wallet operation.
      ctx.screens.register({ id: EMBEDDED_WALLET_SCREENS.stepUp, load: () => import('./screens/step-up') })

      let solana: { unregister(): void } | null = null
      const syncSolana = () => {
        const has = api.solanaWallets().length > 0
        if (has && !solana && typeof window !== 'undefined') {
          const pending = { unregister: () => {} }
          solana = pending
          void import('./solana').then((m) => {
            if (solana !== pending) return
            solana = m.registerSolanaWallet(api, () => ctx.plugin('approvals'))
          })
        }
        // Registered once: after logout it reports no accounts (wallet-standard 1.0 cannot unregister).
      }

      /** Creation on login (spec part 2 sections 2 and 4): the `authenticated` chain at stage 0. */
      ctx.hooks.authenticated.tapPromise({ name: EMBEDDED_WALLET, stage: 0 }, async (auth: AuthContext) => {
        if (auth.intent !== 'login') return
        const mode = options.createOnLogin ?? ctx.config.embeddedWallets.createOnLogin ?? 'off'
        const user = auth.session.user ?? auth.user
        const embedded = embeddedAccounts(user)
        const anyWallet = (user?.linkedAccounts ?? []).some((a) => a.type === 'wallet')
        const wanted: ChainType[] = options.createOnLoginChainTypes ?? ['ethereum', 'solana']
        const missing = wanted.filter((t) => !embedded.some((w) => w.chainType === t && (w.walletIndex ?? 0) === 0 && !w.imported))
        const create = mode === 'all-users' ? missing.length > 0 : mode === 'users-without-wallets' ? !anyWallet && missing.length > 0 : false
        if (!create) {
          // Connect at once; should this device need recovery, its MFA prompt and recovery
          // screens wait until the login's modal has closed, then open in a flow of their own.
          if (embedded.length) void api.connect({ beforeScreens: () => flowEnded(auth.screens) }).catch(() => {})
          return
        }
        // The screen first, as before; the creation's code (./login.ts) and the engine load meanwhile.
        const inModal = auth.screens.getState().open
        state.set({ create: { status: 'creating', isNewUser: auth.isNewUser, error: null } })
        if (inModal) auth.screens.replace(EMBEDDED_WALLET_SCREENS.create, {})
        const login = await import('./login').catch((e) => {
          state.set({ create: { status: 'idle', isNewUser: auth.isNewUser, error: null } })
          throw e
        })
        await login.createOnLogin(ctx, auth, api, state, missing, inModal, {
          waitMs: CREATE_ON_LOGIN_WAIT_MS,
          createdScreenMs: options.createdScreenMs ?? CREATED_SCREEN_MS,
          synced: syncSolana,
        })
      })

      const onReady = () => {
        if (ctx.session.authenticated && api.wallets().length) void api.connect().catch(() => {})
        syncSolana()
      }
      const onLogout = () => {
        void api.clear()
        state.set(initialState())
        syncSolana()
      }
      const onUser = () => {
        state.set((s) => ({ ...s, version: s.version + 1 }))
        syncSolana()
      }
      ctx.events.on('ready', onReady)
      ctx.events.on('logout', onLogout)
      ctx.events.on('user', onUser)
      if (ctx.isReady) onReady()
      return () => {
        ctx.events.off('ready', onReady)
        ctx.events.off('logout', onLogout)
        ctx.events.off('user', onUser)
        solana?.unregister()
        solana = null
        api.destroy()
      }
    },
  })
}

/** Resolves once no modal flow is open (at once when none is). */
function flowEnded(nav: Pick<AuthContext['screens'], 'getState' | 'subscribe'>): Promise<void> {
  if (!nav.getState().open) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const stop = nav.subscribe((s) => {
      if (s.open) return
      stop()
      resolve()
    })
  })
}
