/**
 * The WalletConnect plugin's session side, loaded on first use (the user picks WalletConnect,
 * a kept session is restored after a reload, a logout ends one, or the host asks for the
 * provider): the sign-client (`./client`), the connector's connect / sign-in, the EIP-1193
 * provider over the session, disconnect and restore. The entry (./index.ts) keeps the state,
 * the kept session's record and the connector's synchronous parts.
 */
import type { PluginContext, Store } from 'portico'
import type { WalletIntent } from 'portico/kits/wallet'
import type { WalletConnectClient, WalletSession } from './client'
import { createWalletConnectConnector, type WalletConnectConnector } from './connector'
import { disconnectedError } from './errors'
import type { WalletConnectEthereumProvider, WalletConnectOptions, WalletConnectState } from './index'

export interface SessionHost {
  ctx: PluginContext
  options: WalletConnectOptions
  state: Store<WalletConnectState>
  projectId: string
  relayUrl: string
  storagePrefix: string
  statement(): string
  kept(): { topic: string; address: string } | null
  forget(): void
  onSession(s: WalletSession): void
  onPairing(close: (() => void) | null): void
  destroyed(): boolean
  /** The entry's names (./ids.ts), handed over so that this module shares none with the entry. */
  ids: { connector: string; screen: string; metamaskWaitMs: number }
}

export interface WalletConnectSession {
  getClient(): Promise<WalletConnectClient>
  hasClient(): boolean
  connect: WalletConnectConnector['connect']
  signIn(address: string, intent: WalletIntent, signal?: AbortSignal): ReturnType<WalletConnectConnector['signIn']>
  getEthereumProvider(): Promise<WalletConnectEthereumProvider>
  disconnect(): Promise<void>
  restore(): Promise<WalletSession | null>
  close(): void
}

export function createSession(h: SessionHost): WalletConnectSession {
  const { ctx, options, state } = h
  let client: Promise<WalletConnectClient> | null = null
  const getClient = () => {
    if (!client) {
      state.set({ status: 'loading' })
      const origin = typeof location !== 'undefined' ? location.origin : 'http://localhost'
      client = import('./client')
        .then((m) =>
          m.createWalletConnectClient({
            projectId: h.projectId,
            relayUrl: h.relayUrl,
            relayTimeoutMs: options.relayTimeoutMs,
            verify: options.verify,
            storage: options.storage,
            storagePrefix: h.storagePrefix,
            metadata: {
              name: ctx.config.name,
              description: ctx.config.name,
              url: origin,
              icons: [],
              ...options.metadata,
            },
            onUri: (uri) => state.set({ status: 'pairing', uri }),
            onSessionEnd: h.forget,
          }),
        )
        .then(
          (c) => {
            if (state.get().status === 'loading') state.set({ status: 'idle' })
            if (h.destroyed()) void c.close()
            return c
          },
          (e) => {
            // An unreachable relay or a refused load fails this attempt only: try again later.
            client = null
            state.set({ status: 'idle' })
            throw e
          },
        )
    }
    return client
  }

  const getEthereumProvider = async (): Promise<WalletConnectEthereumProvider> => {
    const c = await getClient()
    return {
      async request({ method, params }) {
        const s = c.current() ?? c.restore(h.kept()?.topic)
        if (!s) throw disconnectedError()
        if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [s.address]
        if (method === 'eth_chainId') return `0x${s.chainId.toString(16)}`
        return c.request({ method, params }, s)
      },
    }
  }
  const disconnect = async () => {
    if (client) await (await client).disconnect()
    h.forget()
  }
  const restore = async () => {
    const c = await getClient()
    const s = c.current() ?? c.restore(h.kept()?.topic)
    if (s) h.onSession(s)
    else if (h.kept()) h.forget()
    return s
  }

  // The connector's flows (connect: pairing → session; signIn: SIWE over the session).
  const flows = createWalletConnectConnector(
    ctx,
    {
      client: async () => {
        const c = await getClient()
        const s = c.current() ?? c.restore(h.kept()?.topic)
        if (s && state.get().status !== 'connected') h.onSession(s)
        return c
      },
      buildMessage: async (input) => (await import('./client')).buildMessage(input),
      chains: () => ctx.config.supportedChains.map((c) => c.id),
      onPairing: h.onPairing,
      onSession: h.onSession,
      mode: () => (options.disableSignup ? 'no-signup' : 'login-or-sign-up'),
      statement: h.statement,
      requestTimeoutMs: options.requestTimeoutMs,
      metamaskWaitMs: options.metamaskSignatureWaitMs ?? h.ids.metamaskWaitMs,
    },
    { id: h.ids.connector, screen: h.ids.screen, name: '' },
    { status: () => ({ connected: false, initialized: true, address: null }), getEthereumProvider, disconnect },
  )

  return {
    getClient,
    hasClient: () => !!client,
    connect: (signal) => flows.connect(signal),
    signIn: (address, intent, signal) => flows.signIn(address, intent, signal),
    getEthereumProvider,
    disconnect,
    restore,
    close() {
      void client?.then((c) => c.close()).catch(() => {})
    },
  }
}
