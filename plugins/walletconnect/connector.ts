/**
 * The WalletConnect login connector (connectorType `wallet_connect_v2`) the wallet list shows
 * as 'WalletConnect'. Light: `@walletconnect/sign-client` and viem load (`./client`) when the
 * user picks it, or when the host restores a session.
 *
 * connect: pair (the URI goes to the plugin's state: the QR code on desktop, wallet deep links
 * on mobile) → the wallet approves a session → its account. Closing the QR rejects (4001).
 * signIn: (MetaMask via WalletConnect: wait 2500 ms after the approval) → POST /siwe/init →
 * EIP-4361 message → personal_sign over the relay → POST /siwe/authenticate (or /siwe/link).
 */
import type { PluginContext } from 'portico'
import { loadWalletKit, type WalletLoginConnector } from 'portico/kits/wallet'
import { authenticateSiwe, initSiwe, linkSiwe } from './calls'
import type { WalletConnectClient, WalletSession } from './client'
import { disconnectedError, qrClosedError } from './errors'


export interface ConnectorRuntime {
  /** The lazily created client (loads the WalletConnect libraries on first call). */
  client(): Promise<WalletConnectClient>
  /** The lazily loaded message builder. */
  buildMessage(input: { address: string; chainId: number; nonce: string; statement: string }): Promise<string>
  /** Chains to ask the wallet for (the app's supported chains). */
  chains(): number[]
  /** Set by `connect`: closing the QR code calls it. */
  onPairing(close: (() => void) | null): void
  /** A session was approved (persist it). */
  onSession(session: WalletSession): void
  mode(): 'login-or-sign-up' | 'no-signup'
  statement(): string
  requestTimeoutMs?: number
  /** MetaMask signature wait (default 2500 ms). */
  /** MetaMask via WalletConnect signature wait (the entry passes its default, `METAMASK_SIGNATURE_WAIT_MS`). */
  metamaskWaitMs: number
}

type Ctx = Pick<PluginContext, 'api'> & Partial<Pick<PluginContext, 'assertLoggedOut'>>

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return resolve()
    const t = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t)
        reject(new Error('aborted'))
      },
      { once: true },
    )
  })
}

/**
 * What a connector may offer beyond login (the external-wallets wallet objects read them when
 * present): its flags and account, an EIP-1193 provider over the session, disconnect.
 */
export interface WalletConnectConnector extends WalletLoginConnector {
  status(): { connected: boolean; initialized: boolean; address: string | null }
  getEthereumProvider(): Promise<{ request(args: { method: string; params?: unknown }): Promise<unknown> }>
  disconnect(): Promise<void>
}

export function createWalletConnectConnector(
  ctx: Ctx,
  rt: ConnectorRuntime,
  // The ids come from the entry (./ids.ts): this module loads lazily and shares no module with it.
  view: { id: string; screen: string; name: string; icon?: string; confirmSign?: boolean },
  extras: Pick<WalletConnectConnector, 'status' | 'getEthereumProvider' | 'disconnect'>,
): WalletConnectConnector {
  return {
    ...extras,
    id: view.id,
    name: view.name,
    icon: view.icon,
    chainType: 'ethereum',
    connectorType: 'wallet_connect_v2',
    walletClientType: 'wallet_connect',
    login: true,
    method: 'siwe',
    confirmSign: view.confirmSign,
    screen: view.screen,
    async connect(signal) {
      const { withWalletTimeout } = await loadWalletKit()
      const client = await withWalletTimeout(rt.client(), rt.requestTimeoutMs, signal)
      const live = client.current()
      if (live) return live.address
      let close!: (e: unknown) => void
      const cancelled = new Promise<never>((_, reject) => (close = reject))
      cancelled.catch(() => {})
      rt.onPairing(() => close(qrClosedError()))
      try {
        const session = await withWalletTimeout(client.connect(rt.chains(), cancelled), rt.requestTimeoutMs, signal)
        rt.onSession(session)
        return session.address
      } finally {
        rt.onPairing(null)
      }
    },
    async signIn(address, intent, signal) {
      if (intent === 'login') ctx.assertLoggedOut?.()
      const client = await rt.client()
      const session = client.current()
      if (!session || session.address.toLowerCase() !== address.toLowerCase()) throw disconnectedError()
      // MetaMask drops a request sent right after it approved the session: wait 2500 ms.
      if (session.walletClientType === 'metamask' && session.approvedAt) {
        await wait(session.approvedAt + rt.metamaskWaitMs - Date.now(), signal)
      }
      const { nonce } = await initSiwe(ctx.api, { address: session.address }, signal)
      const message = await rt.buildMessage({ address: session.address, chainId: session.chainId, nonce, statement: rt.statement() })
      const { withWalletTimeout } = await loadWalletKit()
      const signature = await withWalletTimeout(client.personalSign(message, session), rt.requestTimeoutMs, signal)
      const body = {
        message,
        signature,
        chainId: `eip155:${session.chainId}`,
        walletClientType: session.walletClientType,
        connectorType: 'wallet_connect_v2' as const,
      }
      const response = intent === 'link' ? await linkSiwe(ctx.api, body, signal) : await authenticateSiwe(ctx.api, { ...body, mode: rt.mode() }, signal)
      // Remembered as the WalletConnect row (the 'Recent' chip); the server keeps the wallet's own type.
      return { response, meta: { method: 'siwe', walletClientType: 'wallet_connect', chainType: 'ethereum', intent } }
    },
  }
}
