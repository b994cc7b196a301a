/**
 * The Solana half of the approvals engine (loaded lazily with @solana/web3.js): sign
 * messages, and transaction sessions — parse the instructions, read the fee for the message,
 * the balance and a simulation; sign through the wallet's headless signer; send raw, confirm,
 * fetch the parsed transaction. A retry refreshes the blockhash.
 */
import { ensureBuffer } from './buffer-shim'
import { Connection } from '@solana/web3.js'
import {
  assertContainsKey,
  balanceOf,
  deserializeTransaction,
  feeFor,
  parseInstructions,
  refreshBlockhash,
  sendAndConfirm,
  simulate,
  solanaReads,
  SolanaSendError,
  type VersionedTransaction,
} from './solana'
import { formatSol } from './format'
import { solanaExplorerUrl, SOLANA_RPC } from './explorer'
import { classifySolanaFailure } from './errors'
import { broadcastTracker } from './broadcast'
import type { ApprovalRequest, ApprovalSigner, SignSession, SolanaReview, SolanaSession } from './request'
import type { EngineEnv } from './engine'

const toBytes = (v: unknown): Uint8Array | null => {
  if (v instanceof Uint8Array) return v
  if (Array.isArray(v) && v.every((x) => Number.isInteger(x))) return Uint8Array.from(v as number[])
  if (v && typeof v === 'object' && typeof (v as { serialize?: unknown }).serialize === 'function') {
    return (v as { serialize(o?: unknown): Uint8Array }).serialize({ requireAllSignatures: false, verifySignatures: false })
  }
  return null
}

const params = (req: ApprovalRequest) => (req.params ?? {}) as { message?: unknown; transaction?: unknown; cluster?: string; rpcUrl?: string; chain?: string }

/** wallet-standard chain ids → cluster names. */
const CHAIN_CLUSTERS: Record<string, string> = {
  'solana:mainnet': 'mainnet-beta',
  'solana:devnet': 'devnet',
  'solana:testnet': 'testnet',
  'solana:localnet': 'localnet',
}

export function clusterOf(env: EngineEnv, req: ApprovalRequest) {
  const p = params(req)
  const fromChain = p.chain ? (CHAIN_CLUSTERS[p.chain] ?? p.chain.replace(/^solana:/, '')) : undefined
  const name = p.cluster ?? fromChain ?? req.wallet.cluster ?? env.solana.defaultCluster
  const rpc = p.rpcUrl ?? env.solana.clusters[name] ?? SOLANA_RPC[name]
  if (!rpc) throw env.invalid(env.texts.invalidRequest)
  return { name, rpc }
}

/** solana_signMessage { message: Uint8Array | string }. */
export function createSolanaSignSession(env: EngineEnv, req: ApprovalRequest, signer: ApprovalSigner): SignSession {
  ensureBuffer()
  const m = params(req).message
  const bytes = typeof m === 'string' ? new TextEncoder().encode(m) : toBytes(m)
  if (!bytes || bytes.length === 0) throw env.invalid(env.texts.messageEmpty)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    text = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  }
  return {
    kind: 'sign',
    method: 'solana_signMessage',
    address: req.wallet.address,
    message: text,
    typedData: null,
    payload: text,
    uiOptions: req.uiOptions ?? {},
    ready: () => env.ready(signer),
    sign: () => signer.solanaSignMessage!(bytes),
  }
}

/** solana_signTransaction / solana_signAndSendTransaction { transaction, cluster?, rpcUrl? }. */
export function createSolanaTxSession(env: EngineEnv, req: ApprovalRequest, signer: ApprovalSigner): SolanaSession {
  ensureBuffer()
  const bytes = toBytes(params(req).transaction)
  if (!bytes) throw env.invalid(env.texts.invalidRequest)
  let tx: VersionedTransaction
  try {
    tx = deserializeTransaction(bytes)
  } catch {
    throw env.invalid(env.texts.invalidRequest)
  }
  const address = req.wallet.address
  assertContainsKey(tx, address)
  const cluster = clusterOf(env, req)
  const connection = new Connection(cluster.rpc, { commitment: 'confirmed', fetch: env.fetch as never, disableRetryOnRateLimit: true })
  let failedOnce = false
  const broadcast = broadcastTracker()
  const session: SolanaSession = {
    kind: 'solana',
    method: req.method as SolanaSession['method'],
    address,
    uiOptions: req.uiOptions ?? {},
    ready: () => env.ready(signer),
    async prepare(options = {}) {
      if (options.refreshBlockhash ?? failedOnce) tx = await refreshBlockhash(connection, tx)
      const reads = solanaReads(connection, async (mint) => {
        const info = await env.splTokenInfo(mint, cluster.name)
        return info ? { symbol: info.symbol ?? '', address: mint, decimals: info.decimals } : null
      })
      const [instructions, fee, balance, sim] = await Promise.all([
        parseInstructions(tx, reads),
        feeFor(connection, tx),
        balanceOf(connection, address),
        simulate(connection, tx),
      ])
      const lamportsOut = instructions.reduce((s, i) => (i.type === 'sol-transfer' && i.fromAccount === address ? s + i.value : s), 0n)
      const insufficient =
        (balance !== null && balance < lamportsOut + (fee ?? 0n)) ||
        (!!sim?.err && sim.logs.some((l) => /insufficient (lamports|funds)/i.test(l)))
      const needed = lamportsOut + (fee ?? 0n)
      const review: SolanaReview = {
        cluster: cluster.name,
        rpcUrl: cluster.rpc,
        missing: balance !== null && balance < needed ? needed - balance : 0n,
        instructions,
        fee,
        feeText: fee === null ? '—' : `${formatSol(fee)} SOL`,
        balance,
        balanceText: balance === null ? '—' : `${formatSol(balance)} SOL`,
        insufficient,
        simulationError: sim?.err ? classifySolanaFailure(JSON.stringify(sim.err), sim.logs).message : null,
      }
      return review
    },
    closed: () => broadcast.closed(),
    submit: () =>
      broadcast.run(async (turn) => {
        let signed: Uint8Array
        try {
          signed = await signer.solanaSignTransaction!(tx.serialize())
        } catch (e) {
          throw { code: null, message: (e as Error)?.message ?? String(e), hash: null }
        }
        if (req.method === 'solana_signTransaction') return { result: signed, signature: null, explorerUrl: null }
        // Closed while it was signing: the user rejected it, nothing is sent.
        if (turn.left()) throw { code: null, message: env.texts.userRejected, hash: null }
        try {
          // Once sent, the request resolves with the signature whatever the user closes.
          const { signature, receipt } = await sendAndConfirm(connection, signed, { onSent: (sig) => turn.sent({ signature: sig, receipt: null }) })
          failedOnce = false
          return { result: { signature, receipt }, signature, explorerUrl: solanaExplorerUrl('tx', signature, cluster.name, cluster.rpc) }
        } catch (e) {
          failedOnce = true
          const err = e as SolanaSendError
          // The RPC's (or web3.js's) text is for developers: the console gets it, the screen a clear text and the code.
          const { code, message } = classifySolanaFailure(err.message ?? String(e), err.logs ?? [])
          console.warn(`[portico] approvals: Solana transaction failed: ${err.message ?? String(e)}`)
          throw {
            code,
            message,
            hash: err.txSignature ?? null,
            explorerUrl: err.txSignature ? solanaExplorerUrl('tx', err.txSignature, cluster.name, cluster.rpc) : null,
          }
        }
      }),
  }
  return session
}
