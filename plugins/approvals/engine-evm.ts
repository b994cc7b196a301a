/**
 * The Ethereum half of the approvals engine (loaded lazily with viem): sign requests and
 * transaction sessions. Prepare (nonce, gas, fees by the chain's rule), decode, price, check
 * the balance; sign through the wallet's headless signer; send raw through the chain's RPC;
 * wait for the receipt. Failures carry the ethers-style code and the hash when there is one.
 */
import {
  createPublicClient,
  formatUnits,
  http,
  hexToString,
  isHex,
  keccak256,
  maxUint256,
  numberToHex,
  type Hex,
  type PublicClient,
} from 'viem'
import { ERC20_ABI, decodeCalldata } from './decode'
import { maxFee, prepareTransaction, type PreparedTx } from './fees'
import { formatNative, formatTokenAmount, formatUsd, toUsd } from './format'
import { assertSameAddress, validateMessage, validateTransactionRequest } from './validate'
import { classifyEvmError, resetsNonce, type TransactionFailure } from './errors'
import { evmExplorerUrl } from './explorer'
import { builtInChain } from './chains'
import { broadcastTracker } from './broadcast'
import type { Amount, ApprovalRequest, ApprovalSigner, EvmReview, EvmSession, SignSession } from './request'
import type { EngineEnv } from './engine'

export interface ChainConfig {
  id: number
  name: string
  rpcUrl?: string
  rpcUrls?: { default?: { http?: readonly string[] } }
  nativeCurrency?: { symbol: string; decimals: number }
  blockExplorers?: { default?: { url?: string } }
}

export function chainOf(env: EngineEnv, id: number): ChainConfig & { rpc: string | null; symbol: string; decimals: number } {
  const configured = env.chains().find((c) => c.id === id) as ChainConfig | undefined
  const builtIn = builtInChain(id)
  const merged = { ...(builtIn ?? {}), ...(configured ?? {}) } as ChainConfig
  const rpc = configured?.rpcUrl ?? configured?.rpcUrls?.default?.http?.[0] ?? builtIn?.rpcUrls.default.http[0] ?? null
  return {
    ...merged,
    id,
    name: merged.name ?? `Chain ${id}`,
    rpc,
    symbol: merged.nativeCurrency?.symbol ?? 'ETH',
    decimals: merged.nativeCurrency?.decimals ?? 18,
    blockExplorers: configured?.blockExplorers ?? builtIn?.blockExplorers,
  }
}

export function publicClientFor(env: EngineEnv, chainId: number): PublicClient {
  const chain = chainOf(env, chainId)
  if (!chain.rpc) throw new Error(`No RPC URL for chain ${chainId}`)
  return createPublicClient({ transport: http(chain.rpc, { fetchFn: env.fetch, retryCount: 0 }) }) as PublicClient
}

const walletChainId = (env: EngineEnv, req: ApprovalRequest) => (req.chainId || undefined) ?? req.wallet.chainId ?? env.defaultChainId()

/** personal_sign [message, address] / eth_signTypedData_v4 [address, typedData]. */
export function createEvmSignSession(env: EngineEnv, req: ApprovalRequest, signer: ApprovalSigner): SignSession {
  const p = (Array.isArray(req.params) ? req.params : [req.params]) as unknown[]
  const address = req.wallet.address
  if (req.method === 'personal_sign') {
    const raw = validateMessage(p[0])
    assertSameAddress(p[1], address)
    let text = raw
    if (isHex(raw)) {
      try {
        const s = hexToString(raw)
        // eslint-disable-next-line no-control-regex
        if (!/[\u0000-\u0008\u000e-\u001f]/.test(s)) text = s
      } catch {
        /* shown as hex */
      }
    }
    return {
      kind: 'sign',
      method: 'personal_sign',
      address,
      message: text,
      typedData: null,
      payload: raw,
      uiOptions: req.uiOptions ?? {},
      ready: () => env.ready(signer),
      sign: () => signer.signMessage!(isHex(raw) ? { raw } : raw),
    }
  }
  assertSameAddress(p[0], address)
  const rawTyped = p[1]
  if (rawTyped === undefined || rawTyped === null || rawTyped === '') throw env.invalid(env.texts.invalidRequest)
  let typed: SignSession['typedData']
  try {
    typed = typeof rawTyped === 'string' ? JSON.parse(rawTyped) : (rawTyped as SignSession['typedData'])
  } catch {
    throw env.invalid(env.texts.invalidRequest)
  }
  const payload = typeof rawTyped === 'string' ? rawTyped : JSON.stringify(rawTyped, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
  return {
    kind: 'sign',
    method: 'eth_signTypedData_v4',
    address,
    message: null,
    typedData: typed,
    payload,
    uiOptions: req.uiOptions ?? {},
    ready: () => env.ready(signer),
    sign: () => signer.signTypedData!(typed),
  }
}

const toRpcTx = (tx: PreparedTx): Record<string, unknown> => ({
  from: tx.from,
  ...(tx.to ? { to: tx.to } : {}),
  ...(tx.data ? { data: tx.data } : {}),
  value: numberToHex(tx.value),
  nonce: tx.nonce,
  chainId: tx.chainId,
  gasLimit: numberToHex(tx.gasLimit),
  ...(tx.type === 'legacy'
    ? { gasPrice: numberToHex(tx.gasPrice ?? 0n), type: 'legacy' }
    : { maxFeePerGas: numberToHex(tx.maxFeePerGas ?? 0n), maxPriorityFeePerGas: numberToHex(tx.maxPriorityFeePerGas ?? 0n), type: 'eip1559' }),
})

/** A fallback gas limit when estimation fails (the call will likely revert; the user was warned). */
export const FALLBACK_GAS = 500_000n

/** eth_sendTransaction / eth_signTransaction [tx]. */
export function createEvmTxSession(env: EngineEnv, req: ApprovalRequest, signer: ApprovalSigner): EvmSession {
  const p = (Array.isArray(req.params) ? req.params[0] : req.params) as Record<string, unknown>
  const address = req.wallet.address as Hex
  const request = validateTransactionRequest(p, env.chains().map((c) => c.id), walletChainId(env, req))
  assertSameAddress(request.from, address)
  const chain = chainOf(env, request.chainId)
  const client = publicClientFor(env, request.chainId)
  const sponsored = !!req.uiOptions?.sponsored
  let prepared: PreparedTx | null = null
  let lastFailure: TransactionFailure | null = null
  let priceUsd: number | null | undefined
  const broadcast = broadcastTracker()

  const amount = (value: bigint, decimals: number, symbol: string, usdPrice: number | null): Amount => ({
    value,
    decimals,
    symbol,
    text: decimals === chain.decimals ? formatNative(value, decimals) : formatTokenAmount(value, decimals),
    usd: usdPrice === null ? null : formatUsd(toUsd(value, decimals, usdPrice)),
  })

  const session: EvmSession = {
    kind: 'evm',
    method: req.method as EvmSession['method'],
    address,
    uiOptions: req.uiOptions ?? {},
    ready: () => env.ready(signer),
    async prepare(options = {}) {
      const resetNonce = options.resetNonce ?? (lastFailure ? resetsNonce(lastFailure) : false)
      let preparationError: string | null = null
      const base = { ...request, from: address, chainId: request.chainId }
      try {
        prepared = await prepareTransaction(client, base, { resetNonce })
      } catch (e) {
        // Estimation failed (the call reverts, or the node refused): warn, and let the user try.
        preparationError = env.texts.preparationError
        prepared = await prepareTransaction(client, { ...base, gasLimit: base.gasLimit ?? FALLBACK_GAS }, { resetNonce }).catch(() => {
          throw e
        })
      }
      const tx = prepared!
      if (priceUsd === undefined) priceUsd = await env.price(request.chainId, chain.symbol)
      const [balance, token] = await Promise.all([client.getBalance({ address }), readToken(client, tx)])
      const decoded = decodeCalldata(tx.data, { isNft: token === 'nft' })
      const fee = sponsored ? 0n : maxFee(tx)
      const total = tx.value + fee
      const tokenInfo = token && token !== 'nft' ? token : null
      const tokenAmount =
        decoded.amount === undefined
          ? null
          : decoded.amount === maxUint256
            ? env.texts.maximum
            : tokenInfo
              ? `${formatTokenAmount(decoded.amount, tokenInfo.decimals)} ${tokenInfo.symbol}`
              : decoded.amount.toString()
      const review: EvmReview = {
        chainId: tx.chainId,
        chainName: chain.name,
        chain: {
          id: tx.chainId,
          name: chain.name,
          nativeCurrency: { name: (chain.nativeCurrency as { name?: string } | undefined)?.name ?? chain.symbol, symbol: chain.symbol, decimals: chain.decimals },
          rpcUrls: { default: { http: chain.rpc ? [chain.rpc] : [] } },
        },
        missing: balance < total ? total - balance : 0n,
        from: address,
        to: tx.to ?? null,
        value: amount(tx.value, chain.decimals, chain.symbol, priceUsd),
        fee: amount(fee, chain.decimals, chain.symbol, priceUsd),
        total: amount(total, chain.decimals, chain.symbol, priceUsd),
        balance: amount(balance, chain.decimals, chain.symbol, priceUsd),
        sponsored,
        insufficient: balance < total,
        decoded,
        token: tokenInfo,
        tokenAmount,
        preparationError,
        priceDisplay: env.priceDisplay(),
      }
      return review
    },
    closed: () => broadcast.closed(),
    submit: () =>
      broadcast.run(async (turn) => {
        if (!prepared) await session.prepare()
        const tx = prepared!
        if (req.method === 'eth_sendTransaction' && signer.sendTransaction) return sendThroughSigner(tx, turn)
        let signed: Hex
        try {
          signed = (await signer.signTransaction!(toRpcTx(tx))) as Hex
        } catch (e) {
          throw failure(classifyEvmError(e))
        }
        if (req.method === 'eth_signTransaction') return { result: signed, hash: null, explorerUrl: null }
        // Closed while it was signing: the user rejected it, nothing is sent.
        if (turn.left()) throw failure({ code: 'ACTION_REJECTED', message: env.texts.userRejected })
        const hash = keccak256(signed)
        const explorerUrl = evmExplorerUrl(chain, 'tx', hash)
        try {
          await client.sendRawTransaction({ serializedTransaction: signed })
        } catch (e) {
          // The node may have mined it anyway (hardhat reports a revert as an error): look.
          const receipt = await client.getTransactionReceipt({ hash }).catch(() => null)
          if (receipt) turn.sent(hash)
          throw failure(classifyEvmError(e, receipt ? hash : undefined), explorerUrl)
        }
        turn.sent(hash)
        return included(hash, explorerUrl)
      }),
  }
  /** The sent transaction's receipt: success resolves with its hash; a revert or a time-out is the failure screen's. */
  async function included(hash: Hex, explorerUrl: string | null) {
    let receipt
    try {
      receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 250, timeout: 120_000 })
    } catch (e) {
      throw failure(classifyEvmError(e, hash), explorerUrl)
    }
    if (receipt.status !== 'success') throw failure({ code: 'CALL_EXCEPTION', message: 'transaction execution reverted', hash }, explorerUrl)
    lastFailure = null
    return { result: hash, hash, explorerUrl }
  }
  /** A signer that sends for itself (a smart account's user operation): its hash, then the receipt. */
  async function sendThroughSigner(tx: PreparedTx, turn: { left(): boolean; sent(hash: string): void }) {
    if (turn.left()) throw failure({ code: 'ACTION_REJECTED', message: env.texts.userRejected })
    let hash: Hex
    try {
      hash = (await signer.sendTransaction!({ to: tx.to ?? null, data: tx.data, value: numberToHex(tx.value), chainId: tx.chainId })) as Hex
    } catch (e) {
      throw failure(classifyEvmError(e))
    }
    turn.sent(hash)
    return included(hash, evmExplorerUrl(chain, 'tx', hash))
  }
  const failure = (f: TransactionFailure, explorerUrl: string | null = null) => {
    lastFailure = f
    return { code: f.code, message: f.message, hash: f.hash ?? null, explorerUrl: f.hash ? explorerUrl : null }
  }
  return session
}

/** ERC-20 details of the called contract (symbol, decimals), 'nft' when it has no decimals, null for no call. */
async function readToken(client: PublicClient, tx: PreparedTx): Promise<{ address: string; symbol: string; decimals: number } | 'nft' | null> {
  if (!tx.to || !tx.data || tx.data.length < 10) return null
  const to = tx.to
  try {
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: to, abi: ERC20_ABI, functionName: 'symbol' }),
      client.readContract({ address: to, abi: ERC20_ABI, functionName: 'decimals' }),
    ])
    return { address: to, symbol, decimals }
  } catch {
    const code = await client.getCode({ address: to }).catch(() => undefined)
    return code && code !== '0x' ? 'nft' : null
  }
}

export { formatUnits }
