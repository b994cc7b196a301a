/**
 * The EIP-1193 provider of an embedded Ethereum wallet (loaded lazily with viem): accounts
 * and chain id, `wallet_switchEthereumChain` within the configured chains, the signing
 * methods through the wallet frame, `eth_sendTransaction` (filled with viem and sent through
 * the chain's RPC), and every other read passed to the RPC. Errors are EIP-1193's: 4001
 * rejected, 4100 unauthorised, 4200 unsupported, 4900 disconnected, 4901 chain disconnected
 * (and EIP-3326's 4902 for a chain outside the list).
 *
 * When an `approvals` plugin is set up and the caller did not ask for headless signing
 * (`uiOptions.showWalletUIs === false`), signing and sending go through its screens
 * (`approvals.handle(request, signer)`); otherwise the provider signs headless.
 */
import { createPublicClient, http, isAddressEqual, numberToHex, type Chain, type Hex, type PublicClient } from 'viem'
import { mainnet } from 'viem/chains'
import { PorticoError } from 'portico'
import type { FrameTransactionRequest } from './protocol'
import type { EmbeddedWalletTexts } from './strings'
import type { EmbeddedSigner, EmbeddedWallet, UiOptions } from './wallets'

export interface ApprovalRequest {
  wallet: EmbeddedWallet
  method: string
  params: unknown
  uiOptions?: UiOptions
  /** The chain the provider is on. */
  chainId: number
}

/** What the approvals plugin offers (issue 15): shows the screen, signs through `signer`, sends and waits for sends. */
export interface ApprovalsLike {
  handle(request: ApprovalRequest, signer: EmbeddedSigner): Promise<unknown>
}

export interface ProviderOptions {
  wallet: EmbeddedWallet
  signer: EmbeddedSigner
  chains: Chain[]
  rpcUrls: Record<number, string>
  fetch: typeof fetch
  uiOptions?: UiOptions
  approvals(): ApprovalsLike | undefined
  texts: () => EmbeddedWalletTexts
}

export interface RequestArguments {
  method: string
  params?: readonly unknown[] | object
}

export interface EIP1193Provider {
  readonly isPortico: true
  request(args: RequestArguments): Promise<unknown>
  on(event: string, listener: (...args: any[]) => void): void
  removeListener(event: string, listener: (...args: any[]) => void): void
  /** The chain currently in use. */
  chainId(): number
}

export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'ProviderRpcError'
  }
}

const SIGNING = new Set(['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction', 'eth_sendTransaction'])
const UNSUPPORTED = new Set(['eth_sign', 'eth_signTypedData', 'eth_signTypedData_v1', 'eth_signTypedData_v3', 'wallet_addEthereumChain', 'wallet_watchAsset', 'eth_coinbase', 'eth_subscribe', 'eth_unsubscribe'])

/** Numbers as the frame carries them (hex quantities). */
const q = (v: unknown): string | undefined => {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'bigint') return numberToHex(v)
  if (typeof v === 'number') return numberToHex(v)
  return String(v)
}

export function createEthereumProvider(o: ProviderOptions): EIP1193Provider {
  const chains = o.chains.length ? o.chains : [mainnet]
  let chain = chains[0]
  const listeners = new Map<string, Set<(...a: any[]) => void>>()
  const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((l) => l(...args))
  const clients = new Map<number, PublicClient>()
  const T = o.texts

  const rpcUrl = (c: Chain) => {
    const url = o.rpcUrls[c.id] ?? c.rpcUrls.default.http[0]
    if (!url) throw new ProviderRpcError(4901, T().disconnected)
    return url
  }
  const client = (c: Chain): PublicClient => {
    let pc = clients.get(c.id)
    if (!pc) {
      pc = createPublicClient({ chain: c, transport: http(rpcUrl(c), { fetchFn: o.fetch, retryCount: 0 }) }) as PublicClient
      clients.set(c.id, pc)
    }
    return pc
  }

  const own = (address: unknown) => {
    if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address) || !isAddressEqual(address as Hex, o.wallet.address as Hex)) {
      throw new ProviderRpcError(4100, T().unauthorized)
    }
  }

  /** A complete transaction request: nonce, gas and fees from the chain (viem). */
  async function fill(tx: Record<string, unknown>): Promise<FrameTransactionRequest> {
    const c = tx.chainId !== undefined ? chains.find((x) => x.id === Number(tx.chainId)) : chain
    if (!c) throw new ProviderRpcError(4901, T().chainNotSupported.replace('{id}', String(tx.chainId)))
    const gas = tx.gas ?? tx.gasLimit
    const prepared = await client(c).prepareTransactionRequest({
      account: o.wallet.address as Hex,
      chain: c,
      to: (tx.to as Hex | undefined) ?? undefined,
      data: tx.data as Hex | undefined,
      value: tx.value !== undefined ? BigInt(tx.value as string) : undefined,
      gas: gas !== undefined ? BigInt(gas as string) : undefined,
      nonce: tx.nonce !== undefined ? Number(tx.nonce) : undefined,
      ...(tx.gasPrice !== undefined
        ? { gasPrice: BigInt(tx.gasPrice as string) }
        : {
            maxFeePerGas: tx.maxFeePerGas !== undefined ? BigInt(tx.maxFeePerGas as string) : undefined,
            maxPriorityFeePerGas: tx.maxPriorityFeePerGas !== undefined ? BigInt(tx.maxPriorityFeePerGas as string) : undefined,
          }),
    } as never)
    const p = prepared as Record<string, unknown>
    return {
      from: o.wallet.address,
      to: (p.to as string | undefined) ?? null,
      data: p.data as Hex | undefined,
      value: q(p.value),
      nonce: Number(p.nonce),
      chainId: c.id,
      gas: q(p.gas),
      gasPrice: p.type === 'legacy' ? q(p.gasPrice) : undefined,
      maxFeePerGas: q(p.maxFeePerGas),
      maxPriorityFeePerGas: q(p.maxPriorityFeePerGas),
      type: p.type === 'legacy' ? 'legacy' : 'eip1559',
    }
  }

  /** Passes a read to the chain's RPC. */
  async function forward(method: string, params: unknown): Promise<unknown> {
    let res: Response
    try {
      res = await o.fetch(rpcUrl(chain), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: Date.now(), method, params: params ?? [] }),
      })
    } catch (e) {
      throw new ProviderRpcError(4901, T().disconnected, e)
    }
    const body = (await res.json().catch(() => null)) as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | null
    if (!body) throw new ProviderRpcError(4901, T().disconnected)
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }

  async function headless(method: string, params: any[]): Promise<unknown> {
    switch (method) {
      case 'personal_sign': {
        const [message, address] = params
        own(address)
        if (typeof message !== 'string' || !message) throw new ProviderRpcError(-32602, T().messageEmpty)
        return o.signer.signMessage(/^0x([0-9a-fA-F]{2})*$/.test(message) ? { raw: message as Hex } : message)
      }
      case 'eth_signTypedData_v4': {
        const [address, typed] = params
        own(address)
        return o.signer.signTypedData(typed as string)
      }
      case 'eth_signTransaction': {
        const [tx] = params as [Record<string, unknown>]
        if (tx?.from !== undefined) own(tx.from)
        return o.signer.signTransaction(await fill(tx ?? {}))
      }
      case 'eth_sendTransaction': {
        const [tx] = params as [Record<string, unknown>]
        if (tx?.from !== undefined) own(tx.from)
        const filled = await fill(tx ?? {})
        const raw = await o.signer.signTransaction(filled)
        const c = chains.find((x) => x.id === Number(filled.chainId)) ?? chain
        return client(c).sendRawTransaction({ serializedTransaction: raw })
      }
    }
    throw new ProviderRpcError(4200, T().unsupportedMethod)
  }

  async function request({ method, params }: RequestArguments): Promise<unknown> {
    const list = (Array.isArray(params) ? params : params === undefined ? [] : [params]) as any[]
    switch (method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [o.wallet.address]
      case 'eth_chainId':
        return numberToHex(chain.id)
      case 'net_version':
        return String(chain.id)
      case 'wallet_switchEthereumChain': {
        const id = Number((list[0] as { chainId?: string })?.chainId)
        const next = chains.find((c) => c.id === id)
        if (!next) throw new ProviderRpcError(4902, T().chainNotSupported.replace('{id}', String(id)))
        if (next.id !== chain.id) {
          chain = next
          emit('chainChanged', numberToHex(next.id))
        }
        return null
      }
    }
    if (UNSUPPORTED.has(method)) throw new ProviderRpcError(4200, T().unsupportedMethod)
    if (SIGNING.has(method)) {
      try {
        const approvals = o.uiOptions?.showWalletUIs === false ? undefined : o.approvals()
        if (approvals) return await approvals.handle({ wallet: o.wallet, method, params: list, uiOptions: o.uiOptions, chainId: chain.id }, o.signer)
        return await headless(method, list)
      } catch (e) {
        throw toProviderError(e)
      }
    }
    return forward(method, list)
  }

  return {
    isPortico: true,
    request,
    chainId: () => chain.id,
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
  }
}

/** Any failure as an EIP-1193 error: the user's refusal 4001, our own codes kept, the rest 32603. */
export function toProviderError(e: unknown): ProviderRpcError {
  if (e instanceof ProviderRpcError) return e
  const code = (e as { code?: unknown })?.code
  if (typeof code === 'number') return new ProviderRpcError(code, (e as Error).message, (e as { data?: unknown }).data)
  if (e instanceof PorticoError) {
    if (/^exited_|rejected|canceled|cancelled/i.test(e.code)) return new ProviderRpcError(4001, e.message, { code: e.code })
    if (e.code === 'EMBEDDED_WALLET_NOT_FOUND') return new ProviderRpcError(4100, e.message, { code: e.code })
    return new ProviderRpcError(-32603, e.message, { code: e.code })
  }
  return new ProviderRpcError(-32603, (e as Error)?.message ?? 'Internal error')
}
