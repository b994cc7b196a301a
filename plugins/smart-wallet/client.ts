/**
 * The smart account's client (loaded on first use with permissionless and viem's account
 * abstraction): the account of the app's kind owned by the embedded wallet (its signer signs
 * inside the wallet frame), the bundler and the paymaster (ERC-7677), the link, and the
 * approval screens for every signature and send.
 */
import { createPublicClient, custom, defineChain, http, numberToHex, type Address, type Chain, type Hex, type PublicClient, type Transport } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { createBundlerClient, createPaymasterClient, entryPoint07Address, entryPoint08Address, type BundlerClient, type SmartAccount } from 'viem/account-abstraction'
import type { SignedAuthorization } from 'viem'
import { toAccount, type LocalAccount } from 'viem/accounts'
import { PorticoError, type PluginContext, type Store, type WireUser } from 'portico'
import { linkedSmartWallet, type SmartWalletConfig, type SmartWalletState } from './index'
import type { SmartWalletTexts } from './strings'
import type { AuthorizeOutcome, AuthorizeScreenParams } from './screens/authorize'

/** Simple7702Account (EntryPoint v0.8): the implementation an EIP-7702 upgrade delegates to (one of the authorisation page's EIP7702_IMPLEMENTATIONS). */
const SIMPLE_7702: Address = '0xe6Cae83BdE06E4c305530e199D7217f42808555B'
const AUTHORIZE_SCREEN = 'smart-wallet-authorize'

/** One call of a batch. */
export interface SmartWalletCall {
  to: Address
  data?: Hex
  value?: bigint
}

/** A single call, or `{ calls }` for a batch (one user operation). */
export type SmartWalletTransaction = SmartWalletCall | { calls: SmartWalletCall[] }

/** Contract addresses of an account kind on a chain where they are not canonical (permissionless's option names). */
export type SmartWalletContracts = Partial<Record<'safe' | 'kernel' | 'light_account' | 'coinbase_smart_wallet' | 'nexus' | 'thirdweb' | 'biconomy', Record<string, unknown>>>

/** What the approval screens may be given (see portico/plugins/approvals). */
export interface SmartWalletUiOptions {
  showWalletUIs?: boolean
  title?: string
  description?: string
  buttonText?: string
  transactionInfo?: { title?: string; actionDescription?: string; action?: string }
}

export interface SmartWalletClient {
  /** The smart account's address (counterfactual until the first user operation deploys it). */
  readonly address: Address
  readonly chainId: number
  /** The account kind (the app config's `type`; 'eip7702' for the upgraded embedded wallet). */
  readonly type: string
  /** Sends one call or a batch as one user operation (the approval screen first); resolves with the transaction hash once included. */
  sendTransaction(tx: SmartWalletTransaction, options?: { uiOptions?: SmartWalletUiOptions }): Promise<Hex>
  /** Signs as the smart account (ERC-1271 once deployed; ERC-6492 before). */
  signMessage(message: string | { raw: Hex }, options?: { uiOptions?: SmartWalletUiOptions }): Promise<Hex>
  signTypedData(typedData: { domain?: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> }, options?: { uiOptions?: SmartWalletUiOptions }): Promise<Hex>
  /** An EIP-1193 provider for viem (`custom(provider)`) and wagmi. */
  getEthereumProvider(): SmartWalletProvider
  /** Links the account to the user (done on login; idempotent). */
  link(): Promise<void>
  /** Whether the account's code is on chain yet. */
  isDeployed(): Promise<boolean>
  /** Requests sent to the bundler so far (the bench's round trips per operation). */
  bundlerRequests(): number
}

export interface SmartWalletProvider {
  readonly isPortico: true
  readonly isSmartWallet: true
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>
  on(event: string, listener: (...args: unknown[]) => void): void
  removeListener(event: string, listener: (...args: unknown[]) => void): void
}

class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

interface Deps {
  config: SmartWalletConfig
  network: SmartWalletConfig['networks'][number]
  contracts?: Record<string, unknown> & SmartWalletContracts
  state: Store<SmartWalletState>
  texts: () => SmartWalletTexts
  /** EIP-7702: the embedded wallet's own address, upgraded in place (see SmartWalletOptions.eip7702). */
  eip7702?: boolean
}

type Ctx = Pick<PluginContext, 'api' | 'config' | 'plugin' | 'session' | 'format' | 'fetch' | 'screens'>

const json = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x))

export async function createSmartWalletClient(ctx: Ctx, d: Deps): Promise<SmartWalletClient> {
  const T = d.texts
  const ew = ctx.plugin('embedded-wallet')
  const owner = ew?.ethereumWallets().find((w) => w.walletIndex === 0 && !w.imported)
  if (!ew || !owner) throw new PorticoError('smart_wallet_needs_embedded_wallet', T().noEmbeddedWallet, { kind: 'client_error' })
  const type = d.eip7702 ? 'eip7702' : (d.config.type ?? 'safe')
  const chainId = d.network.chainId
  const settings = ew.settings as { chains?: Chain[]; rpcUrls?: Record<number, string> }
  const known = (settings.chains ?? []).find((c) => c.id === chainId)
  const rpcUrl = settings.rpcUrls?.[chainId] ?? known?.rpcUrls.default.http[0]
  if (!rpcUrl) throw new PorticoError('smart_wallet_chain_not_configured', ctx.format(T().chainNotConfigured, { chainId }), { kind: 'client_error' })
  const chain: Chain = known ?? defineChain({ id: chainId, name: `Chain ${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } })
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }) }) as PublicClient

  // The owner: the embedded wallet's headless signer (the frame signs; no screen of its own —
  // the smart account's approval screen is the one the user sees).
  const signer = ew.signer(owner.address)
  const ownerAccount = toAccount({
    address: owner.address as Address,
    signMessage: ({ message }) => signer.signMessage(message as string | { raw: Hex | Uint8Array }),
    signTypedData: (td) => signer.signTypedData(json(td)),
    signTransaction: () => Promise.reject(new Error('The smart account owner does not sign transactions')),
  })

  const account = d.eip7702
    ? await (await import('permissionless/accounts')).to7702SimpleSmartAccount({ client: publicClient, owner: ownerAccount, entryPoint: { address: entryPoint08Address, version: '0.8' }, accountLogicAddress: SIMPLE_7702 })
    : await toAccountOfKind(type, { client: publicClient, owner: ownerAccount, version: d.config.version, contracts: d.contracts, texts: T, format: ctx.format })
  const address = account.address
  // The account kind's EntryPoint (v0.7; v0.8 for EIP-7702; Coinbase Smart Wallet 1.1 is a v0.6 account).
  const entryPoint = account.entryPoint.address

  // The bundler, counting requests (the bench's figure).
  let bundlerCount = 0
  const counted = (t: Transport): Transport => (opts) => {
    const inner = t(opts)
    return { ...inner, request: (async (args: unknown) => ((bundlerCount += 1), inner.request(args as never))) as typeof inner.request }
  }
  const bundlerTransport = counted(http(d.network.bundlerUrl, { retryCount: 0 }))
  const paymasterTransport = d.network.paymasterUrl ? paymasterTransportFor(ctx, d.network.paymasterUrl) : null
  const paymaster = paymasterTransport ? createPaymasterClient({ transport: paymasterTransport }) : null
  const fees = async () => {
    try {
      const r = (await bundlerTransport({ chain }).request({ method: 'pimlico_getUserOperationGasPrice' } as never)) as { fast: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } }
      return { maxFeePerGas: BigInt(r.fast.maxFeePerGas), maxPriorityFeePerGas: BigInt(r.fast.maxPriorityFeePerGas) }
    } catch {
      const f = await publicClient.estimateFeesPerGas()
      return { maxFeePerGas: f.maxFeePerGas!, maxPriorityFeePerGas: f.maxPriorityFeePerGas! }
    }
  }
  const bundler = (sponsored: boolean): BundlerClient =>
    createBundlerClient({
      account,
      client: publicClient,
      chain,
      transport: bundlerTransport,
      ...(sponsored && paymaster ? { paymaster, paymasterContext: d.network.paymasterContext ?? undefined } : {}),
      pollingInterval: 250,
      userOperation: { estimateFeesPerGas: fees },
    }) as BundlerClient

  /** Whether the app's paymaster sponsors an operation of this account now (its stub answer; nothing recorded). */
  async function sponsorship(callData: Hex, authorization?: SignedAuthorization): Promise<{ sponsored: boolean; reason: string | null }> {
    if (!paymasterTransport) return { sponsored: false, reason: null }
    const [nonce, factory] = await Promise.all([account.getNonce(), account.getFactoryArgs()])
    const deployed = await isDeployed()
    // EIP-7702's first operation carries the authorisation: the paymaster checks what it delegates to.
    const auth = authorization ? { eip7702Auth: { address: authorization.address, chainId: numberToHex(authorization.chainId), nonce: numberToHex(authorization.nonce), r: authorization.r, s: authorization.s, yParity: numberToHex(authorization.yParity ?? 0) } } : {}
    try {
      await paymasterTransport({ chain }).request({
        method: 'pm_getPaymasterStubData',
        params: [
          { sender: address, nonce: numberToHex(nonce), callData, ...(deployed || !factory.factory ? {} : { factory: factory.factory, factoryData: factory.factoryData }), ...auth },
          entryPoint,
          numberToHex(chainId),
          d.network.paymasterContext ?? {},
        ],
      } as never)
      return { sponsored: true, reason: null }
    } catch (e) {
      return { sponsored: false, reason: (e as { details?: string; shortMessage?: string; message?: string }).details ?? (e as Error).message }
    }
  }

  /** Deployed; for EIP-7702: the wallet's code is the delegation to Simple7702Account. */
  async function isDeployed(): Promise<boolean> {
    const code = (await publicClient.getCode({ address }))?.toLowerCase()
    if (d.eip7702) return code === `0xef0100${SIMPLE_7702.slice(2).toLowerCase()}`
    return !!code && code !== '0x'
  }

  /**
   * EIP-7702: the signed authorisation when the wallet is not delegated yet — asked on the
   * wallet service's own page ('Upgrade your wallet'), shown even when the host hides the
   * approval screens; Not now, × or Escape rejects with 4001.
   */
  async function authorization(): Promise<SignedAuthorization | undefined> {
    if (!d.eip7702 || (await isDeployed())) return undefined
    const params: AuthorizeScreenParams = { address, chainId, contractAddress: SIMPLE_7702, nonce: await publicClient.getTransactionCount({ address }) }
    const r = await ctx.screens.open(AUTHORIZE_SCREEN, params)
    const out = (r.ok ? r.value : undefined) as AuthorizeOutcome | undefined
    if (out && 'authorization' in out) {
      const a = out.authorization
      return { address: a.address as Address, chainId: a.chainId, nonce: a.nonce, r: a.r as Hex, s: a.s as Hex, yParity: a.yParity }
    }
    if (out && 'error' in out) throw out.error
    throw new ProviderRpcError(4001, T().declined)
  }

  async function sendUserOperation(calls: SmartWalletCall[], sponsored: boolean, auth?: SignedAuthorization): Promise<Hex> {
    const b = bundler(sponsored)
    let hash: Hex
    try {
      hash = await b.sendUserOperation({ calls: calls.map((c) => ({ to: c.to, data: c.data ?? '0x', value: c.value ?? 0n })), ...(auth ? { authorization: auth } : {}) })
    } catch (e) {
      const reason = (e as { details?: string; shortMessage?: string }).details ?? (e as { shortMessage?: string }).shortMessage ?? (e as Error).message
      throw Object.assign(new Error(ctx.format(T().bundlerFailed, { reason })), { code: 'UNPREDICTABLE_GAS_LIMIT' })
    }
    const r = await b.waitForUserOperationReceipt({ hash, pollingInterval: 250, timeout: 120_000 })
    if (!r.success) throw Object.assign(new Error(r.reason ?? 'user operation reverted'), { code: 'CALL_EXCEPTION', transactionHash: r.receipt.transactionHash })
    d.state.set({ status: 'ready', address, error: null })
    return r.receipt.transactionHash
  }

  const wallet = { address, chainType: 'ethereum' as const, chainId }
  const approvals = () => ctx.plugin('approvals')
  const headless = (ui?: SmartWalletUiOptions) => ui?.showWalletUIs === false || !approvals()

  async function sendTransaction(tx: SmartWalletTransaction, o: { uiOptions?: SmartWalletUiOptions } = {}): Promise<Hex> {
    const calls = 'calls' in tx ? tx.calls : [tx]
    if (!calls.length) throw new ProviderRpcError(-32602, 'No calls to send')
    await link()
    const auth = await authorization()
    const callData = await account.encodeCalls(calls.map((c) => ({ to: c.to, data: c.data ?? '0x', value: c.value ?? 0n })))
    const sponsor = await sponsorship(callData, auth)
    if (headless(o.uiOptions)) return sendUserOperation(calls, sponsor.sponsored, auth)
    const value = calls.reduce((s, c) => s + (c.value ?? 0n), 0n)
    const first = calls[0]
    const ui: Record<string, unknown> = { ...o.uiOptions, sponsored: sponsor.sponsored }
    if (!sponsor.sponsored && sponsor.reason) ui.description = ctx.format(T().notSponsored, { reason: sponsor.reason })
    if (calls.length > 1) {
      const list = calls.map((c) => `${c.data && c.data.length >= 10 ? c.data.slice(0, 10) : 'transfer'} → ${c.to}`).join(', ')
      ui.transactionInfo = { title: ctx.format(T().batchTitle, { count: calls.length }), actionDescription: ctx.format(T().batchDescription, { calls: list }), ...(o.uiOptions?.transactionInfo ?? {}) }
    }
    const request = { from: address, to: first.to, data: first.data, value: numberToHex(value), chainId: numberToHex(chainId) }
    return (await approvals()!.handle(
      { wallet, method: 'eth_sendTransaction', params: [request], uiOptions: ui, chainId },
      { sendTransaction: () => sendUserOperation(calls, sponsor.sponsored, auth) },
    )) as Hex
  }

  async function signMessage(message: string | { raw: Hex }, o: { uiOptions?: SmartWalletUiOptions } = {}): Promise<Hex> {
    const sign = (m: string | { raw: Hex }) => account.signMessage({ message: m })
    if (headless(o.uiOptions)) return sign(message)
    const param = typeof message === 'string' ? message : message.raw
    return (await approvals()!.handle(
      { wallet, method: 'personal_sign', params: [param, address], uiOptions: o.uiOptions, chainId },
      { signMessage: (m: string | { raw: Hex }) => sign(m) },
    )) as Hex
  }

  async function signTypedData(td: Parameters<SmartWalletClient['signTypedData']>[0], o: { uiOptions?: SmartWalletUiOptions } = {}): Promise<Hex> {
    const sign = (t: typeof td) => account.signTypedData(t as never)
    if (headless(o.uiOptions)) return sign(td)
    return (await approvals()!.handle(
      { wallet, method: 'eth_signTypedData_v4', params: [address, json(td)], uiOptions: o.uiOptions, chainId },
      { signTypedData: (t: unknown) => sign((typeof t === 'string' ? JSON.parse(t) : t) as typeof td) },
    )) as Hex
  }

  let linking: Promise<void> | null = null
  function link(): Promise<void> {
    // EIP-7702: the address is the embedded wallet's own, linked already.
    if (d.eip7702) {
      d.state.set({ status: 'ready', address, error: null })
      return Promise.resolve()
    }
    if (linkedSmartWallet(ctx.session.user)?.toLowerCase() === address.toLowerCase()) {
      d.state.set({ status: 'ready', address, error: null })
      return Promise.resolve()
    }
    return (linking ??= (async () => {
      d.state.set({ status: 'creating', address, error: null })
      const { nonce } = await ctx.api.post<{ nonce: string }>('/siwe/init', { address })
      const message = createSiweMessage({
        address,
        chainId,
        domain: location.host,
        uri: location.origin,
        nonce,
        version: '1',
        statement: T().linkStatement,
        issuedAt: new Date(),
      })
      const signature = await account.signMessage({ message })
      const res = await ctx.api.post<{ user: WireUser }>('/siwe/link_smart_wallet', { message, signature, smart_wallet_type: type })
      await ctx.session.setUser(res.user)
      d.state.set({ status: 'ready', address, error: null })
    })().finally(() => (linking = null)))
  }

  const listeners = new Map<string, Set<(...a: unknown[]) => void>>()
  const provider: SmartWalletProvider = {
    isPortico: true,
    isSmartWallet: true,
    async request({ method, params }) {
      const p = (Array.isArray(params) ? params : []) as unknown[]
      switch (method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [address]
        case 'eth_chainId':
          return numberToHex(chainId)
        case 'personal_sign':
          return signMessage(typeof p[0] === 'string' && /^0x[0-9a-fA-F]*$/.test(p[0]) ? { raw: p[0] as Hex } : String(p[0]))
        case 'eth_signTypedData_v4':
          return signTypedData(typeof p[1] === 'string' ? JSON.parse(p[1]) : (p[1] as never))
        case 'eth_sendTransaction': {
          const t = (p[0] ?? {}) as { to?: Address; data?: Hex; value?: Hex | bigint }
          if (!t.to) throw new ProviderRpcError(-32602, 'A smart wallet transaction needs a "to" address')
          return sendTransaction({ to: t.to, data: t.data, value: t.value === undefined ? undefined : BigInt(t.value) })
        }
        case 'wallet_sendCalls': {
          const b = (p[0] ?? {}) as { calls?: { to: Address; data?: Hex; value?: Hex }[] }
          const hash = await sendTransaction({ calls: (b.calls ?? []).map((c) => ({ to: c.to, data: c.data, value: c.value === undefined ? undefined : BigInt(c.value) })) })
          return { id: hash }
        }
        case 'eth_sign':
        case 'eth_signTransaction':
        case 'wallet_switchEthereumChain':
        case 'wallet_addEthereumChain':
          throw new ProviderRpcError(4200, `${method} is not supported by a smart wallet`)
        default:
          return publicClient.request({ method, params } as never)
      }
    },
    on(event, listener) {
      let s = listeners.get(event)
      if (!s) listeners.set(event, (s = new Set()))
      s.add(listener)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
  }

  return {
    address,
    chainId,
    type,
    sendTransaction,
    signMessage,
    signTypedData,
    getEthereumProvider: () => provider,
    link,
    isDeployed,
    bundlerRequests: () => bundlerCount,
  }
}

/** The app's paymaster: through the session's API (bearer and app id) when it is this server's, else its URL. */
function paymasterTransportFor(ctx: Ctx, url: string): Transport {
  const own = `${ctx.config.apiUrl}/api/v1/paymaster`
  if (url.replace(/\/+$/, '') !== own) return http(url, { retryCount: 0 })
  return custom({
    async request({ method, params }: { method: string; params?: unknown }) {
      const r = await ctx.api.post<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>('/paymaster', { jsonrpc: '2.0', id: 1, method, params })
      if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code, data: r.error.data, details: r.error.message })
      return r.result
    },
  })
}

/** The account of the app's kind, from permissionless (viem for Coinbase Smart Wallet). Exported for tests. */
export async function toAccountOfKind(
  type: string,
  o: { client: PublicClient; owner: LocalAccount; version: string | null; contracts?: SmartWalletContracts; texts: () => SmartWalletTexts; format: Ctx['format'] },
): Promise<SmartAccount> {
  const ep07 = { address: entryPoint07Address, version: '0.7' as const }
  const extra = (k: keyof SmartWalletContracts) => (o.contracts?.[k] ?? {}) as Record<string, never>
  const a = await import('permissionless/accounts')
  switch (type) {
    case 'safe':
      return a.toSafeSmartAccount({ client: o.client, owners: [o.owner], version: (o.version ?? '1.4.1') as '1.4.1', entryPoint: ep07, ...extra('safe') })
    case 'kernel':
      return a.toKernelSmartAccount({ client: o.client, owners: [o.owner], entryPoint: ep07, ...extra('kernel') })
    case 'light_account':
      return a.toLightSmartAccount({ client: o.client, owner: o.owner, version: (o.version ?? '2.0.0') as '2.0.0', entryPoint: ep07, ...extra('light_account') })
    case 'nexus':
    case 'biconomy':
      return a.toNexusSmartAccount({ client: o.client, owners: [o.owner], version: '1.0.0', ...extra(type) } as never)
    case 'thirdweb':
      return a.toThirdwebSmartAccount({ client: o.client, owner: o.owner, entryPoint: ep07, ...extra('thirdweb') } as never)
    case 'coinbase_smart_wallet': {
      const { toCoinbaseSmartAccount } = await import('viem/account-abstraction')
      return toCoinbaseSmartAccount({ client: o.client, owners: [o.owner], version: '1.1', ...extra('coinbase_smart_wallet') } as never)
    }
    default:
      throw new PorticoError('smart_wallet_type_not_supported', o.format(o.texts().typeNotSupported, { type }), { kind: 'client_error' })
  }
}
