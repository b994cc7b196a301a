/**
 * Connected external wallets as host-facing wallet objects (the same shape as the embedded
 * wallets', so a host handles both alike), the connector status store, the account polling
 * and the two provider errors the product raises (spec part 1 sections 3, 4, 8 and 9).
 */
import type { Portico, PorticoEmitter } from 'portico'
import { isLoginConnector, type ConnectorStatus, type Eip1193Like, type WalletLoginConnector } from './connection'
import { CONNECTORS_CHANGED } from './ids'
import { ACCOUNT_POLL_ATTEMPTS, ACCOUNT_POLL_INTERVAL_MS } from './limits'

/** EIP-1193 4200 and 4900 as the product raises them (spec part 1 section 8). */
export const PROVIDER_ERRORS = {
  4200: 'The requested method is not supported by this Ethereum provider.',
  4900: 'The provider is disconnected from all chains.',
} as const

/** A provider error the product raises: 4200 (unsupported method) or 4900 (disconnected). */
export function providerError(code: 4200 | 4900, message: string = PROVIDER_ERRORS[code]): Error & { code: number } {
  return Object.assign(new Error(message), { code, name: 'ProviderRpcError' })
}

/** A connector's status, kept by its plugin; a change emits `wallet-connectors:changed`. */
export interface ConnectorStatusStore {
  get(): ConnectorStatus
  set(patch: Partial<ConnectorStatus>): void
}

export function createConnectorStatus(events: Pick<PorticoEmitter, 'emit'> | null, plugin: string, initial: Partial<ConnectorStatus> = {}): ConnectorStatusStore {
  let status: ConnectorStatus = { connected: false, initialized: true, address: null, ...initial }
  return {
    get: () => status,
    set(patch) {
      const next = { ...status, ...patch }
      if (!next.connected) next.address = null
      if (next.connected === status.connected && next.address === status.address && next.initialized === status.initialized) return
      status = next
      events?.emit(CONNECTORS_CHANGED, { plugin })
    },
  }
}

/**
 * Wait for a wallet to report an account: `read` is asked up to 10 times, 500 ms apart (spec
 * part 1 section 9). Resolves with the first account, or null when none came.
 */
export async function pollAccounts(
  read: () => Promise<readonly string[] | null | undefined>,
  options: { attempts?: number; intervalMs?: number; signal?: AbortSignal; sleep?: (ms: number) => Promise<void> } = {},
): Promise<string | null> {
  const attempts = options.attempts ?? ACCOUNT_POLL_ATTEMPTS
  const interval = options.intervalMs ?? ACCOUNT_POLL_INTERVAL_MS
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  for (let i = 0; i < attempts; i++) {
    if (options.signal?.aborted) return null
    const accounts = await read().catch(() => null)
    if (accounts?.[0]) return accounts[0]
    if (i < attempts - 1) await sleep(interval)
  }
  return null
}

/**
 * Disconnect a connector when its wallet reports no accounts (spec part 1 section 4):
 * listens to EIP-1193 `accountsChanged`; returns the unsubscribe.
 */
export function watchAccounts(provider: Eip1193Like, status: ConnectorStatusStore): () => void {
  if (typeof provider.on !== 'function') return () => {}
  const onAccounts = (accounts: unknown) => {
    const list = Array.isArray(accounts) ? (accounts as string[]) : []
    if (list.length === 0) status.set({ connected: false })
    else if (status.get().connected) status.set({ address: list[0] })
  }
  const onDisconnect = () => status.set({ connected: false })
  provider.on('accountsChanged', onAccounts)
  provider.on('disconnect', onDisconnect)
  return () => {
    provider.removeListener?.('accountsChanged', onAccounts)
    provider.removeListener?.('disconnect', onDisconnect)
  }
}

/**
 * The EIP-1193 provider a host gets from `getEthereumProvider()`: the wallet's own provider,
 * refusing with 4900 once the connector is disconnected and with 4200 for `eth_sign` (the
 * raw-hash signature the product does not pass on: it signs whatever a page hands it).
 */
export function guardProvider(inner: Eip1193Like, connected: () => boolean): Eip1193Like {
  return {
    async request(args) {
      if (!args || typeof args.method !== 'string') throw providerError(4200)
      if (!connected()) throw providerError(4900)
      if (args.method === 'eth_sign') throw providerError(4200)
      return inner.request(args)
    },
    on: inner.on ? (event, listener) => inner.on!(event, listener) : undefined,
    removeListener: inner.removeListener ? (event, listener) => inner.removeListener!(event, listener) : undefined,
  }
}

/**
 * A connected external wallet, shaped like the embedded wallets' objects (`address`,
 * `chainType`, `walletClientType`, `connectorType`, `walletIndex`, `imported`, `delegated`,
 * `getEthereumProvider()` / Solana `signMessage`), so host code treats both alike.
 */
export interface ExternalWallet {
  address: string
  chainType: 'ethereum' | 'solana'
  walletClientType: string
  connectorType: WalletLoginConnector['connectorType']
  /** The connector it came from (`wallet-connect` screen id param). */
  connectorId: string
  /** Whether the logged-in user has this address linked. */
  linked: boolean
  imported: false
  delegated: false
  walletIndex: null
  recoveryMethod: null
  /** Ethereum wallets: the EIP-1193 provider (4900 once disconnected). */
  getEthereumProvider?(): Promise<Eip1193Like>
  /** Solana wallets: sign bytes with the wallet. */
  signMessage?(message: Uint8Array): Promise<Uint8Array>
  /** Solana wallets: sign a serialized transaction and send it (see the connector's `solanaSignAndSendTransaction`). */
  signAndSendTransaction?(transaction: Uint8Array, chain: string, send: (signed: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array>
  disconnect(): Promise<void>
}

/** The external wallets connected now (any plugin's connector that reports `connected`). */
export function connectedWallets(kernel: Pick<Portico, 'hooks' | 'session'>): ExternalWallet[] {
  const linked = new Set(
    (kernel.session.user?.linkedAccounts ?? [])
      .filter((a) => a.type === 'wallet')
      .map((a) => String((a as { address?: unknown }).address ?? '').toLowerCase()),
  )
  const out: ExternalWallet[] = []
  const seen = new Set<string>()
  for (const c of kernel.hooks.walletConnectors.call([]).filter(isLoginConnector)) {
    const st = c.status?.()
    if (!st?.connected || !st.address) continue
    const key = `${c.chainType}:${st.address.toLowerCase()}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(walletObject(c, st.address, linked.has(st.address.toLowerCase())))
  }
  return out
}

function walletObject(c: WalletLoginConnector, address: string, linked: boolean): ExternalWallet {
  const connected = () => !!c.status?.().connected
  const w: ExternalWallet = {
    address,
    chainType: c.chainType,
    walletClientType: c.walletClientType,
    connectorType: c.connectorType,
    connectorId: c.id,
    linked,
    imported: false,
    delegated: false,
    walletIndex: null,
    recoveryMethod: null,
    disconnect: async () => {
      await c.disconnect?.()
    },
  }
  if (c.chainType === 'ethereum' && c.getEthereumProvider) {
    w.getEthereumProvider = async () => guardProvider(await c.getEthereumProvider!(), connected)
  }
  if (c.chainType === 'solana' && c.solanaSignMessage) {
    w.signMessage = async (message) => {
      if (!connected()) throw providerError(4900)
      return c.solanaSignMessage!(message)
    }
  }
  if (c.chainType === 'solana' && c.solanaSignAndSendTransaction) {
    w.signAndSendTransaction = async (transaction, chain, send) => {
      if (!connected()) throw providerError(4900)
      return c.solanaSignAndSendTransaction!(transaction, chain, send)
    }
  }
  return w
}
