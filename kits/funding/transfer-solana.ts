/**
 * Funding from an external Solana wallet (a wallet-standard wallet from the wallet base's
 * connectors, e.g. Phantom): connect, check that the wallet holds the amount plus the fee
 * ('Wallet {address} does not have enough funds.'), build a SOL transfer to the request's
 * address (the transaction code loads only now), let the wallet sign and send it
 * (`solana:signAndSendTransaction`, or `solana:signTransaction` and the cluster's RPC), and
 * wait until the cluster confirms it. A rejection in the wallet is 'Transaction was rejected by
 * the user'. SPL tokens (USDC) are not sent from a wallet: the request must be for SOL.
 */
import { formatText, PorticoError } from 'portico'
import { toBaseUnits } from './amount'
import { rpcCall, solanaBalance } from './chain'
import { invalidDecimalError, isUserRejection, notEnoughFundsError, rejectedError, type TransferTexts } from './errors'
import { clusterRpc, type ResolvedFundingRequest, type SolanaClusterName } from './request'
import type { TransferStatus } from './transfer'

/** What the funding flow needs of a Solana connector (the wallet base's `WalletLoginConnector`). */
export interface SolanaSender {
  connect(signal?: AbortSignal): Promise<string>
  solanaSignAndSendTransaction?(transaction: Uint8Array, chain: string, send: (signed: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array>
}

/** The fee of a one-signature transaction (lamports per signature). */
export const SOLANA_SIGNATURE_FEE = 5000n

/** The wallet-standard chain of a cluster. */
export function standardChain(cluster: SolanaClusterName | (string & {}) | undefined): string {
  return cluster === 'devnet' ? 'solana:devnet' : cluster === 'testnet' ? 'solana:testnet' : cluster === 'localnet' ? 'solana:localnet' : 'solana:mainnet'
}

/** Sends signed bytes through the cluster's RPC; resolves with the signature bytes. */
export function rpcSender(fetchFn: typeof fetch, rpc: string) {
  return async (signed: Uint8Array): Promise<Uint8Array> => {
    const tx = await import('./solana-tx')
    const sig = await rpcCall<string>(fetchFn, rpc, 'sendTransaction', [tx.toBase64(signed), { encoding: 'base64', preflightCommitment: 'confirmed' }])
    // The RPC names the signature in base58; the wallet-standard API hands bytes.
    return tx.signatureFromString(sig)
  }
}

/** Polls `getSignatureStatuses` until the cluster confirms the signature; throws when it failed. */
export async function waitForSignature(fetchFn: typeof fetch, rpc: string, signature: string, signal?: AbortSignal, intervalMs = 1000): Promise<void> {
  for (;;) {
    if (signal?.aborted) throw signal.reason
    const r = await rpcCall<{ value: ({ err: unknown; confirmationStatus?: string } | null)[] }>(fetchFn, rpc, 'getSignatureStatuses', [[signature]]).catch(() => null)
    const s = r?.value?.[0]
    if (s) {
      if (s.err) throw new Error(`Transaction failed: ${JSON.stringify(s.err)}`)
      if (s.confirmationStatus === 'confirmed' || s.confirmationStatus === 'finalized') return
    }
    await new Promise((res) => setTimeout(res, intervalMs))
  }
}

/** Sign and send `transaction` with the wallet, then wait for the cluster. Resolves with the base58 signature. */
export async function sendWithSolanaWallet(o: {
  sender: SolanaSender
  fetch: typeof fetch
  rpc: string
  chain: string
  transaction: Uint8Array
  texts: Pick<TransferTexts, 'rejected'>
  signal?: AbortSignal
  onSent?(): void
}): Promise<string> {
  if (!o.sender.solanaSignAndSendTransaction) throw new PorticoError('funding_wallet_unsupported', 'This wallet cannot send transactions')
  let sig: Uint8Array
  try {
    sig = await o.sender.solanaSignAndSendTransaction(o.transaction, o.chain, rpcSender(o.fetch, o.rpc))
  } catch (e) {
    throw isUserRejection(e) ? rejectedError(o.texts, e) : e
  }
  o.onSent?.()
  const { signatureToString } = await import('./solana-tx')
  const signature = signatureToString(sig)
  await waitForSignature(o.fetch, o.rpc, signature, o.signal)
  return signature
}

export async function transferFromSolanaWallet(o: {
  sender: SolanaSender
  fetch: typeof fetch
  request: ResolvedFundingRequest
  texts: TransferTexts
  onStatus(status: TransferStatus, from?: string): void
  signal?: AbortSignal
}): Promise<{ signature: string; from: string }> {
  const { request: r, texts } = o
  if (r.chainType !== 'solana' || r.isUSDC) throw new Error('Only SOL can be funded from a Solana wallet')
  const rpc = clusterRpc(r.cluster)
  const live = () => {
    if (o.signal?.aborted) throw o.signal.reason ?? new Error('aborted')
  }
  o.onStatus('connecting')
  const from = await o.sender.connect(o.signal).catch((e) => {
    throw isUserRejection(e) ? rejectedError(texts, e) : e
  })
  live()
  o.onStatus('checking', from)
  const lamports = toBaseUnits(r.amount, r.decimals, () => invalidDecimalError(texts))
  const balance = await solanaBalance(o.fetch, rpc, from)
  if (balance < lamports + SOLANA_SIGNATURE_FEE) throw notEnoughFundsError(formatText(texts.notEnoughFunds, { address: from }))
  const { value } = await rpcCall<{ value: { blockhash: string } }>(o.fetch, rpc, 'getLatestBlockhash', [{ commitment: 'confirmed' }])
  const tx = await import('./solana-tx')
  const transaction = tx.solTransferTransaction({ from, to: r.address, lamports, blockhash: value.blockhash })
  // A screen that went away (the modal closed, or mounted anew) never sends.
  live()
  o.onStatus('awaiting', from)
  const signature = await sendWithSolanaWallet({
    sender: o.sender,
    fetch: o.fetch,
    rpc,
    chain: standardChain(r.cluster?.name),
    transaction,
    texts,
    signal: o.signal,
    onSent: () => o.onStatus('confirming', from),
  })
  o.onStatus('success', from)
  return { signature, from }
}
