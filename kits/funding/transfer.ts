/**
 * Funding from an external EVM wallet (an EIP-1193 provider from the wallet base's connectors):
 * account, switch to the request's chain, check that the wallet holds the amount ('Wallet
 * {address} does not have enough funds.'), send (native value or an ERC-20 `transfer`), wait
 * for the receipt on the chain's RPC. A rejection in the wallet is 'Transaction was rejected by
 * the user'.
 */
import { formatText } from 'portico'
import { erc20TransferData, toBaseUnits } from './amount'
import { requestBalance, waitForReceipt } from './chain'
import { invalidDecimalError, isUserRejection, notEnoughFundsError, rejectedError, type TransferTexts } from './errors'
import type { FundingChain, ResolvedFundingRequest } from './request'

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

export type TransferStatus = 'connecting' | 'checking' | 'awaiting' | 'confirming' | 'success'

const hex = (n: bigint | number) => `0x${n.toString(16)}`

export async function switchChain(provider: Eip1193, chain: FundingChain): Promise<void> {
  const current = Number(await provider.request({ method: 'eth_chainId' }))
  if (current === chain.id) return
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex(chain.id) }] })
  } catch (e) {
    if ((e as { code?: number }).code !== 4902) throw e
    await provider.request({
      method: 'wallet_addEthereumChain',
      params: [{ chainId: hex(chain.id), chainName: chain.name, nativeCurrency: chain.nativeCurrency, rpcUrls: chain.rpcUrls.default.http }],
    })
  }
}


export async function transferFromWallet(o: {
  provider: Eip1193
  fetch: typeof fetch
  request: ResolvedFundingRequest
  texts: TransferTexts
  onStatus(status: TransferStatus, from?: string): void
  signal?: AbortSignal
}): Promise<{ hash: string; from: string }> {
  const { provider, request: r, texts } = o
  const chain = r.chain
  if (r.chainType !== 'ethereum' || !chain) throw new Error('Only EVM chains can be funded from an Ethereum wallet')
  o.onStatus('connecting')
  const accounts = (await provider.request({ method: 'eth_requestAccounts' }).catch((e) => {
    throw isUserRejection(e) ? rejectedError(texts, e) : e
  })) as string[]
  const from = accounts[0]
  const live = () => {
    if (o.signal?.aborted) throw o.signal.reason ?? new Error('aborted')
  }
  live()
  o.onStatus('checking', from)
  await switchChain(provider, chain).catch((e) => {
    throw isUserRejection(e) ? rejectedError(texts, e) : e
  })
  const value = toBaseUnits(r.amount, r.decimals, () => invalidDecimalError(texts))
  const balance = await requestBalance(o.fetch, r, from)
  if (balance < value) throw notEnoughFundsError(formatText(texts.notEnoughFunds, { address: from }))
  // A screen that went away (the modal closed, or mounted anew) never sends.
  live()
  o.onStatus('awaiting', from)
  const tx = r.erc20Address
    ? { from, to: r.erc20Address, data: erc20TransferData(r.address, value) }
    : { from, to: r.address, value: hex(value) }
  let hash: string
  try {
    hash = (await provider.request({ method: 'eth_sendTransaction', params: [tx] })) as string
  } catch (e) {
    throw isUserRejection(e) ? rejectedError(texts, e) : e
  }
  o.onStatus('confirming', from)
  await waitForReceipt(o.fetch, chain.rpcUrls.default.http[0], hash, o.signal)
  o.onStatus('success', from)
  return { hash, from }
}
