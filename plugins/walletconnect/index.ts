/**
 * portico/plugins/walletconnect — log in with a phone wallet over WalletConnect v2.
 *
 * ```ts
 * import { walletconnect } from 'portico/plugins/walletconnect'
 * createPortico({
 *   appId,
 *   loginMethods: ['email', 'wallet'],
 *   externalWallets: { walletConnect: { enabled: true } },
 *   plugins: [siwe(), walletconnect({ projectId: '<WalletConnect Cloud project id>' })],
 * })
 * ```
 *
 * Adds a 'WalletConnect' row to the wallet list (the wallet base's `walletConnectors` hook).
 * Desktop: a QR code the wallet scans; mobile: links that open the wallet app with the pairing
 * URI. Closing the QR code counts as rejecting. Then Sign-In with Ethereum through the same
 * `/siwe/*` routes as the browser wallets (`connectorType: 'wallet_connect_v2'`). The session
 * is kept (sign-client's storage) and restored after a reload; `disconnect()` ends it.
 *
 * The entry is light: `@walletconnect/sign-client` and viem load only when the user picks
 * WalletConnect (or a kept session is restored for a logged-in user).
 */
import { definePlugin, type PorticoPlugin, type WalletConnectorEntry } from 'portico'
import { CONNECTORS_CHANGED, needsSignButton, setupWallet, walletChains, type SignPrompt } from 'portico/kits/wallet'
import type { ClientOptions, WalletConnectStorage, WalletSession } from './client'
import type { WalletConnectConnector } from './connector'
import { METAMASK_SIGNATURE_WAIT_MS, WALLETCONNECT_CONNECTOR_ID, WALLETCONNECT_SCREEN } from './ids'
import type { WalletConnectSession } from './connection'
import { WALLETCONNECT_TEXTS } from './strings'
import { DEFAULT_MOBILE_WALLETS, mobileWalletsFor, type MobileWallet } from './wallets'

/** WalletConnect's public relay (unreachable from closed networks: set `relayUrl`). */
export const DEFAULT_RELAY_URL = 'wss://relay.walletconnect.org'

export interface WalletConnectOptions {
  /** The app's WalletConnect Cloud project id. Else the host config's `walletConnectCloudProjectId`, else the server's `wallet_connect_cloud_project_id`. */
  projectId?: string
  /** The relay's WebSocket URL. Else `externalWallets.walletConnect.relayUrl`, else WalletConnect's public relay. */
  relayUrl?: string
  /** Overrides `externalWallets.walletConnect.enabled` (default: on). */
  enabled?: boolean
  /** The dapp metadata the wallet shows. Default: the app's name, the page's origin. */
  metadata?: Partial<ClientOptions['metadata']>
  /** Wallet apps the mobile deep-link list offers. Default: MetaMask, Rainbow, Zerion, Uniswap Wallet. */
  mobileWallets?: MobileWallet[]
  /** 'auto', 'button', 'mobile' (default: the 'Sign with your wallet' button on mobile). */
  signPrompt?: SignPrompt
  /** Refuse new users (mode 'no-signup'). */
  disableSignup?: boolean
  /** Wallet request time-out in ms. Default 120000. */
  requestTimeoutMs?: number
  /** MetaMask via WalletConnect signature wait in ms. Default 2500 (spec part 1 section 9). */
  metamaskSignatureWaitMs?: number
  /**
   * Ask WalletConnect's Verify API to attest the page (a hidden iframe to
   * verify.walletconnect.org). `false` in closed networks or under a CSP without that frame:
   * proposals then go without an attestation. Default true.
   */
  verify?: boolean
  /** How long to wait for the relay before the connection fails (retryable). Default 10000 ms. */
  relayTimeoutMs?: number
  /** sign-client's key-value storage (default: IndexedDB in browsers). Tests pass a memory store. */
  storage?: WalletConnectStorage
  /** Treat the device as mobile (default: from the user agent). */
  mobile?: boolean
}

/** Host config keys the plugin reads (spec part 1 section 3, app configuration). */
export interface WalletConnectHostConfig {
  externalWallets?: { walletConnect?: { enabled?: boolean; relayUrl?: string } }
  walletConnectCloudProjectId?: string
}

export interface WalletConnectState {
  /** 'pairing': the URI shows (QR code / deep links); 'connected': a session is live. */
  status: 'idle' | 'loading' | 'pairing' | 'connected'
  /** The pairing URI (`wc:...`) while pairing. */
  uri: string | null
  /** The connected wallet's address (or the kept one, before it is restored). */
  address: string | null
  /** The connected wallet's name (its metadata). */
  walletName: string | null
  /** The connected wallet's client type ('metamask', ..., or 'wallet_connect'). */
  walletClientType: string | null
}

export interface WalletConnectEthereumProvider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>
}

/** What `kernel.plugin('walletconnect')` / `usePlugin('walletconnect')` return. */
export interface WalletConnectApi {
  /** The login connector, or null when WalletConnect is off or has no project id. */
  connector(): WalletConnectConnector | null
  /** Wallet apps offered on mobile. */
  mobileWallets(): MobileWallet[]
  /** Whether to offer deep links instead of the QR code. */
  isMobile(): boolean
  /** Close the QR code: the pending connection fails as rejected by the user. */
  closeQr(): void
  /** Restore the kept session (loads the WalletConnect libraries); null when there is none. */
  restore(): Promise<WalletSession | null>
  /** End the session (tells the wallet) and forget it. */
  disconnect(): Promise<void>
  /** An EIP-1193 provider over the live session (`personal_sign`, `eth_sendTransaction`, ...). */
  getEthereumProvider(): Promise<WalletConnectEthereumProvider>
  state: import('portico').Store<WalletConnectState>
}

declare module 'portico' {
  interface PluginApis {
    walletconnect: WalletConnectApi
  }
}

const IDLE: WalletConnectState = { status: 'idle', uri: null, address: null, walletName: null, walletClientType: null }
const KEPT = 'session'
/** How long a logout waits for the wallet to be told the session ended. */
const LOGOUT_DISCONNECT_MS = 5000

function relayHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

function isMobileAgent(): boolean {
  return typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
}

export function walletconnect(options: WalletConnectOptions = {}): PorticoPlugin<'walletconnect'> {
  return definePlugin({
    id: 'walletconnect',
    kind: 'login',
    setup(ctx) {
      setupWallet(ctx, { method: 'siwe' })
      ctx.screens.register({ id: WALLETCONNECT_SCREEN, load: () => import('./screens/connect') })
      const T = () => ctx.texts(WALLETCONNECT_TEXTS)
      const host = ctx.config.extra as WalletConnectHostConfig
      const server = (ctx.config.server ?? {}) as { wallet_connect_cloud_project_id?: string | null; external_wallets?: { wallet_connect?: { enabled?: boolean } } | null }
      const enabled = options.enabled ?? host.externalWallets?.walletConnect?.enabled ?? server.external_wallets?.wallet_connect?.enabled ?? true
      const projectId = options.projectId ?? host.walletConnectCloudProjectId ?? server.wallet_connect_cloud_project_id ?? null
      const relayUrl = options.relayUrl ?? host.externalWallets?.walletConnect?.relayUrl ?? DEFAULT_RELAY_URL
      const mobile = () => options.mobile ?? isMobileAgent()
      if (enabled && !projectId) ctx.warn(T().noProjectId)

      const state = ctx.store<WalletConnectState>({ ...IDLE })
      const kept = (): { topic: string; address: string } | null => {
        try {
          return JSON.parse(ctx.storage.get(KEPT) ?? 'null')
        } catch {
          return null
        }
      }
      const k = kept()
      if (k) state.set({ address: k.address })

      let closeQr: (() => void) | null = null
      let destroyed = false
      const forget = () => {
        ctx.storage.set(KEPT, null)
        state.set({ ...IDLE })
        ctx.events.emit(CONNECTORS_CHANGED, { plugin: ctx.id })
      }
      const onSession = (s: WalletSession) => {
        ctx.storage.set(KEPT, JSON.stringify({ topic: s.topic, address: s.address }))
        state.set({ status: 'connected', uri: null, address: s.address, walletName: s.peer.name, walletClientType: s.walletClientType })
        ctx.events.emit(CONNECTORS_CHANGED, { plugin: ctx.id })
      }
      // The session side (./connection.ts: sign-client, connect, sign-in, provider) loads on first use.
      let session: Promise<WalletConnectSession> | null = null
      const load = () =>
        // The sign-client is fetched alongside: every use of the session side needs it.
        (session ??= Promise.all([import('./connection'), import('./client')]).then(
          ([m]) =>
            m.createSession({
              ctx,
              options,
              state,
              projectId: projectId ?? '',
              relayUrl,
              storagePrefix: `portico:${ctx.config.appId}:${relayHost(relayUrl)}`,
              statement: () => T().statement,
              kept,
              forget,
              onSession,
              onPairing: (close) => {
                closeQr = close
                if (!close && state.get().status === 'pairing') state.set({ status: 'idle', uri: null })
              },
              destroyed: () => destroyed,
              ids: { connector: WALLETCONNECT_CONNECTOR_ID, screen: WALLETCONNECT_SCREEN, metamaskWaitMs: METAMASK_SIGNATURE_WAIT_MS },
            }),
          (e) => {
            session = null
            throw e
          },
        ))
      const started = async () => !!session && (await load()).hasClient()
      const getEthereumProvider = async (): Promise<WalletConnectEthereumProvider> => (await load()).getEthereumProvider()
      const disconnect = async () => (await load()).disconnect()

      const connector: WalletConnectConnector | null =
        enabled && projectId
          ? {
              id: WALLETCONNECT_CONNECTOR_ID,
              name: T().name,
              chainType: 'ethereum',
              connectorType: 'wallet_connect_v2',
              walletClientType: 'wallet_connect',
              login: true,
              method: 'siwe',
              confirmSign: needsSignButton(options.signPrompt),
              screen: WALLETCONNECT_SCREEN,
              status: () => {
                const st = state.get()
                return { connected: st.status === 'connected', initialized: !restoring, address: st.status === 'connected' ? st.address : null }
              },
              getEthereumProvider,
              disconnect,
              connect: async (signal) => (await load()).connect(signal),
              signIn: async (address, intent, signal) => (await load()).signIn(address, intent, signal),
            }
          : null

      ctx.hooks.walletConnectors.tap(ctx.id, (list: WalletConnectorEntry[]) => {
        if (!connector || !walletChains(ctx.config.appearance.walletChainType).has('ethereum')) return list
        return [...list, connector]
      })

      const restore = async () => {
        if (!connector || (!(await started()) && !kept())) return null
        return (await load()).restore()
      }
      // A kept session comes back after a reload without a prompt (the libraries load then, and
      // only then): the login's, or a connect-only one's. Logout ends it (below), so a kept
      // session is always one the user still has.
      let restoring = false
      const onReady = () => {
        if (!kept()) return
        // Initialising until the relay answered: the wallet list waits out its grace for it.
        restoring = true
        void restore()
          .catch(() => {})
          .finally(() => {
            restoring = false
            ctx.events.emit(CONNECTORS_CHANGED, { plugin: ctx.id })
          })
      }
      ctx.events.on('ready', onReady)
      // Logging out of Portico ends the WalletConnect session too: the wallet is told (it sees
      // the session delete) and the page forgets it. A kept session not restored yet is
      // restored first; an unreachable relay does not hold the logout up for longer than its
      // time-out.
      ctx.hooks.logout.tapPromise(ctx.id, async () => {
        if (!session && !kept()) return
        const end = (async () => {
          const s = await load()
          if (!s.hasClient() || !(await s.getClient()).current()) await restore()
          await disconnect()
        })().catch(() => forget())
        let timer: ReturnType<typeof setTimeout> | undefined
        const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.relayTimeoutMs ?? LOGOUT_DISCONNECT_MS)))
        await Promise.race([end, bound]).finally(() => clearTimeout(timer))
        if (kept()) forget()
      })

      ctx.provide<WalletConnectApi>({
        connector: () => connector,
        mobileWallets: () => mobileWalletsFor(options.mobileWallets ?? DEFAULT_MOBILE_WALLETS, ctx.config.appearance.walletList),
        isMobile: mobile,
        closeQr: () => closeQr?.(),
        restore,
        disconnect,
        getEthereumProvider,
        state,
      })
      return () => {
        destroyed = true
        ctx.events.off('ready', onReady)
        void session?.then((s) => s.close()).catch(() => {})
      }
    },
  })
}

export { WALLETCONNECT_TEXTS } from './strings'
export { METAMASK_SIGNATURE_WAIT_MS, WALLETCONNECT_SCREEN, WALLETCONNECT_CONNECTOR_ID } from './ids'
export type { WalletConnectConnector } from './connector'
export { DEFAULT_MOBILE_WALLETS, walletDeepLink, walletOpenLink } from './wallets'
export type { MobileWallet } from './wallets'
export type { WalletSession, WalletConnectStorage } from './client'
