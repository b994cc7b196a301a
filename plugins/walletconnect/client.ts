/**
 * The lazy half of the WalletConnect connector, loaded when the user picks WalletConnect (or
 * the host asks to restore a session): `@walletconnect/sign-client` (its core, relay
 * transport and crypto) and viem's EIP-4361 builder. Nothing here runs at start-up.
 *
 * Closed networks: the relay is `relayUrl` (configurable; the tests' and `npm start`'s
 * stand-in), telemetry is off (`telemetryEnabled: false`), and the Verify API (a hidden
 * attestation iframe, which a strict CSP refuses and sign-client then waits 5 s for) is off
 * with `verify: false`. An unreachable relay fails the connection with a retryable error
 * after `relayTimeoutMs`, never start-up.
 */
import { SignClient } from '@walletconnect/sign-client'
import { createSiweMessage } from 'viem/siwe'
import { getAddress, toHex } from 'viem/utils'
import { pageOrigin, walletClientTypeOf } from 'portico/kits/wallet'
import { disconnectedError, relayUnreachableError, unsupportedMethodError, walletRpcError } from './errors'

/** Default wait for the relay to take a session proposal. */
export const RELAY_TIMEOUT_MS = 10_000

type SignClientInstance = Awaited<ReturnType<typeof SignClient.init>>
type SessionStruct = ReturnType<SignClientInstance['session']['getAll']>[number]

/** Key-value storage sign-client keeps its keys, pairings and sessions in (default: IndexedDB in browsers). */
export interface WalletConnectStorage {
  getKeys(): Promise<string[]>
  getEntries<T = unknown>(): Promise<[string, T][]>
  getItem<T = unknown>(key: string): Promise<T | undefined>
  setItem<T = unknown>(key: string, value: T): Promise<void>
  removeItem(key: string): Promise<void>
}

export interface ClientOptions {
  projectId: string
  relayUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  /** Storage prefix (one per app id, so two apps on one origin keep their sessions apart). */
  storagePrefix: string
  storage?: WalletConnectStorage
  /**
   * Ask WalletConnect's Verify API for an attestation of the page (a hidden iframe to
   * verify.walletconnect.org). Off: proposals go without one, as when Verify is unreachable,
   * without the iframe and its 5 s wait. Default true.
   */
  verify?: boolean
  /** How long to wait for the relay to take the session proposal. Default 10000 ms. */
  relayTimeoutMs?: number
  /** A new pairing URI to show (QR code, deep links). */
  onUri(uri: string): void
  /** The wallet ended the session (or reported no accounts). */
  onSessionEnd(): void
}

export interface WalletSession {
  topic: string
  address: string
  /** Numeric chain id of the account. */
  chainId: number
  /** The wallet's name and wallet client type (from its metadata). */
  peer: { name: string; url: string; icon?: string }
  walletClientType: string
  /** ms epoch when this session was approved in this page (0: restored). */
  approvedAt: number
}

export interface WalletConnectClient {
  /** Pair: a new URI goes to `onUri`; resolves when the wallet approves, rejects when it refuses. */
  connect(chains: number[], cancelled: Promise<never>): Promise<WalletSession>
  /** The live session (after `connect` or a restore), if any. */
  current(): WalletSession | null
  /** Look for a session this app kept (after a reload). */
  restore(topic?: string | null): WalletSession | null
  personalSign(message: string, session: WalletSession): Promise<string>
  request(args: { method: string; params?: unknown }, session: WalletSession, chainId?: number): Promise<unknown>
  disconnect(): Promise<void>
  /** Stop listening (plugin teardown; the page's client stays for the next kernel). */
  close(): Promise<void>
}

/** Spec part 1 section 3 brand wallet client types a wallet's metadata may name. */
const BRANDS = new Set([
  'coinbase_wallet', 'coinbase_smart_wallet', 'metamask', 'phantom', 'rainbow', 'zerion', 'brave_wallet', 'uniswap',
  'okx_wallet', 'rabby_wallet', 'safe', 'universal_profile', 'bybit_wallet',
])

/** The wallet client type of a WalletConnect peer: a spec brand by its name, else 'wallet_connect'. */
export function peerClientType(name: string | undefined): string {
  const type = walletClientTypeOf({ name: name ?? '' })
  return BRANDS.has(type) ? type : 'wallet_connect'
}

const METHODS = ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'eth_signTransaction', 'wallet_switchEthereumChain']
const EVENTS = ['accountsChanged', 'chainChanged']

function toWalletSession(s: SessionStruct, approvedAt: number): WalletSession | null {
  const account = s.namespaces?.eip155?.accounts?.[0]
  if (!account) return null
  const [, chain, address] = account.split(':')
  const meta = s.peer?.metadata
  return {
    topic: s.topic,
    address: getAddress(address),
    chainId: Number(chain),
    peer: { name: meta?.name ?? 'WalletConnect', url: meta?.url ?? '', icon: meta?.icons?.[0] },
    walletClientType: peerClientType(meta?.name),
    approvedAt,
  }
}

/**
 * One sign-client per page and configuration: sign-client keeps a global core per storage
 * prefix, so a kernel created again in the same page (or a second kernel of the same app)
 * shares the client instead of a second core fighting over the same storage.
 */
const clients = new Map<string, Promise<SignClientInstance>>()
const storageIds = new WeakMap<object, number>()
let storageNo = 0

function signClient(options: ClientOptions): Promise<SignClientInstance> {
  let sid = 0
  if (options.storage) {
    if (!storageIds.has(options.storage)) storageIds.set(options.storage, ++storageNo)
    sid = storageIds.get(options.storage)!
  }
  const verify = options.verify !== false
  const key = [options.storagePrefix, options.relayUrl, options.projectId, sid, verify].join('|')
  let c = clients.get(key)
  if (!c) {
    c = SignClient.init({
      projectId: options.projectId,
      relayUrl: options.relayUrl,
      metadata: options.metadata,
      customStoragePrefix: options.storagePrefix,
      telemetryEnabled: false,
      logger: 'silent',
      ...(options.storage ? { storage: options.storage as never } : {}),
    }).then((client) => {
      // No attestation: what sign-client sends when the Verify API cannot be reached.
      if (!verify) (client.core.verify as { register: (...args: unknown[]) => Promise<string> }).register = async () => ''
      return client
    })
    c.catch(() => clients.delete(key))
    clients.set(key, c)
  }
  return c
}

export async function createWalletConnectClient(options: ClientOptions): Promise<WalletConnectClient> {
  const client = await signClient(options)
  let session: WalletSession | null = null
  const end = (topic: string) => {
    if (session?.topic !== topic) return
    session = null
    options.onSessionEnd()
  }
  const onDelete = ({ topic }: { topic: string }) => end(topic)
  const onEvent = ({ topic, params }: { topic: string; params: { event: { name: string; data: unknown } } }) => {
    // A connector disconnects when the wallet reports no accounts (spec part 1 section 4).
    if (params?.event?.name === 'accountsChanged' && Array.isArray(params.event.data) && params.event.data.length === 0) {
      void client.disconnect({ topic, reason: { code: 6000, message: 'No accounts' } }).catch(() => {})
      end(topic)
    }
  }
  const onUpdate = ({ topic }: { topic: string }) => {
    const s = client.session.getAll().find((x) => x.topic === topic)
    if (s && session?.topic === topic) session = toWalletSession(s, session.approvedAt) ?? session
  }
  client.on('session_delete', onDelete)
  client.on('session_expire', onDelete)
  client.on('session_event', onEvent as never)
  client.on('session_update', onUpdate as never)

  const request: WalletConnectClient['request'] = async (args, s, chainId) => {
    const live = client.session.getAll().find((x) => x.topic === s.topic)
    if (!live) throw disconnectedError()
    // A method the wallet did not approve for the session: EIP-1193 4200 (unsupported).
    if (!live.namespaces?.eip155?.methods?.includes(args.method)) throw unsupportedMethodError(args.method)
    try {
      return await client.request({
        topic: s.topic,
        chainId: `eip155:${chainId ?? s.chainId}`,
        request: { method: args.method, params: args.params as never },
      })
    } catch (e) {
      throw walletRpcError(e)
    }
  }

  return {
    async connect(chains, cancelled) {
      const started = client.connect({
        optionalNamespaces: { eip155: { chains: chains.map((c) => `eip155:${c}`), methods: METHODS, events: EVENTS } },
      })
      started.catch(() => {})
      // An unreachable relay never answers the proposal: give up after `relayTimeoutMs`.
      let timer: ReturnType<typeof setTimeout> | undefined
      const unreachable = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(relayUnreachableError()), options.relayTimeoutMs ?? RELAY_TIMEOUT_MS)
      })
      unreachable.catch(() => {})
      const { uri, approval } = await Promise.race([started, cancelled, unreachable]).finally(() => clearTimeout(timer))
      if (uri) options.onUri(uri)
      const approved = approval()
      // A refused approval after the QR was closed must not surface as an unhandled rejection.
      approved.catch(() => {})
      const s = await Promise.race([approved, cancelled])
      const ws = toWalletSession(s, Date.now())
      if (!ws) throw Object.assign(new Error('The wallet approved no Ethereum account.'), { code: 4100 })
      session = ws
      return ws
    },
    current: () => session,
    restore(topic) {
      if (session) return session
      if (!topic) return null
      const found = client.session.getAll().find((s) => s.topic === topic && s.expiry * 1000 > Date.now())
      session = found ? toWalletSession(found, 0) : null
      return session
    },
    async personalSign(message, s) {
      return (await request({ method: 'personal_sign', params: [toHex(message), s.address] }, s)) as string
    },
    request,
    async disconnect() {
      const s = session
      session = null
      if (s) await client.disconnect({ topic: s.topic, reason: { code: 6000, message: 'User disconnected.' } }).catch(() => {})
    },
    async close() {
      // The client stays for the page (shared); this kernel stops listening.
      client.off('session_delete', onDelete)
      client.off('session_expire', onDelete)
      client.off('session_event', onEvent as never)
      client.off('session_update', onUpdate as never)
    },
  }
}

/** The EIP-4361 message of a WalletConnect login (domain and URI: the page's). */
export function buildMessage(input: { address: string; chainId: number; nonce: string; statement: string }): string {
  const page = pageOrigin()
  return createSiweMessage({
    address: getAddress(input.address),
    chainId: input.chainId,
    domain: page.host,
    uri: page.origin,
    nonce: input.nonce,
    version: '1',
    statement: input.statement,
    issuedAt: new Date(),
  })
}
