/**
 * wallets:rpc — signing inside the frame. Ethereum: personal_sign, eth_signTypedData_v4,
 * eth_signTransaction (the host fills nonce, gas and fees; the frame signs and serialises),
 * secp256k1_sign. Solana: signMessage, signTransaction (legacy and versioned wire format,
 * parsed with @solana/web3.js; the signer must be one of the transaction's signers).
 */
import { base64 } from '@scure/base'
import { isAddressEqual, type Hex, type TransactionSerializable, type TypedDataDefinition } from 'viem'
import type { FrameTransactionRequest, RpcData } from '../../src/wire/frame'
import { FRAME_TEXTS, FrameFailure } from '../context'
import { unlock } from '../session'
import { register } from './registry'

const bad = (msg: string) => new FrameFailure('invalid_request_arguments', msg)

const big = (v: unknown, name: string): bigint | undefined => {
  if (v === undefined || v === null || v === '') return undefined
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(v)) return BigInt(v)
  throw bad(`${name}: expected a number, bigint or hex string`)
}
const num = (v: unknown, name: string): number | undefined => {
  const b = big(v, name)
  if (b === undefined) return undefined
  if (b > BigInt(Number.MAX_SAFE_INTEGER)) throw bad(`${name}: too large`)
  return Number(b)
}

export function toSerializable(tx: FrameTransactionRequest): TransactionSerializable {
  if (!tx || typeof tx !== 'object') throw bad('Invalid transaction request')
  const chainId = num(tx.chainId, 'chainId')
  if (!chainId) throw bad('chainId: required')
  const gas = big(tx.gas ?? tx.gasLimit, 'gasLimit')
  const base = {
    chainId,
    to: (tx.to ?? undefined) as Hex | undefined,
    data: tx.data,
    value: big(tx.value, 'value'),
    nonce: num(tx.nonce, 'nonce'),
    gas,
  }
  if (tx.to != null && !/^0x[0-9a-fA-F]{40}$/.test(tx.to)) throw bad('to: expected an address')
  if (tx.data != null && !/^0x([0-9a-fA-F]{2})*$/.test(tx.data)) throw bad('data: expected hex')
  const legacy = tx.type === 'legacy' || tx.type === '0x0' || (tx.gasPrice != null && tx.maxFeePerGas == null)
  if (legacy) return { ...base, type: 'legacy', gasPrice: big(tx.gasPrice, 'gasPrice') }
  return {
    ...base,
    type: 'eip1559',
    maxFeePerGas: big(tx.maxFeePerGas, 'maxFeePerGas'),
    maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
    accessList: tx.accessList as never,
  }
}

register('wallets:rpc', async (p, ctx) => {
  if (!Number.isInteger(p.hdWalletIndex) || p.hdWalletIndex < 0) throw bad(FRAME_TEXTS.negativeIndex)
  const req = p.request as { method?: unknown; params?: unknown }
  if (!req || typeof req.method !== 'string') throw bad(FRAME_TEXTS.badArguments)
  const lease = await unlock(ctx, p)
  try {
    if (p.chainType === 'ethereum') {
      const account = lease.root.ethereum(p.hdWalletIndex)
      const r = p.request
      const same = (a: unknown) => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a) && isAddressEqual(a as Hex, account.address)
      switch (r.method) {
        case 'personal_sign': {
          const [message, address] = r.params ?? []
          if (typeof message !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(message)) throw bad('Message must be a non-empty string')
          if (!same(address)) throw bad('Cannot request a signature with this wallet address')
          return { method: r.method, data: await account.signMessage({ message: { raw: message as Hex } }) } satisfies RpcData
        }
        case 'eth_signTypedData_v4': {
          const [address, json] = r.params ?? []
          if (!same(address)) throw bad('Cannot request a signature with this wallet address')
          let typed: TypedDataDefinition
          try {
            typed = (typeof json === 'string' ? JSON.parse(json) : json) as TypedDataDefinition
          } catch {
            throw bad('Invalid typed data')
          }
          const { EIP712Domain: _d, ...types } = ((typed as { types?: Record<string, unknown> }).types ?? {}) as Record<string, unknown>
          return { method: r.method, data: await account.signTypedData({ ...typed, types } as TypedDataDefinition) }
        }
        case 'eth_signTransaction': {
          const [tx] = r.params ?? []
          if (tx?.from != null && !same(tx.from)) throw bad('Cannot request a signature with this wallet address')
          return { method: r.method, data: await account.signTransaction(toSerializable(tx)) }
        }
        case 'secp256k1_sign': {
          // Off unless the app turns it on (its settings, served with the frame page: the host cannot).
          if (ctx.config.allowRawSign !== true) throw new FrameFailure('error', FRAME_TEXTS.rawSignOff)
          const [hash] = r.params ?? []
          if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw bad('hash: expected 32 bytes hex')
          return { method: r.method, data: await account.sign({ hash: hash as Hex }) }
        }
        default:
          throw bad(`Unsupported method ${String((r as { method: unknown }).method)}`)
      }
    }
    if (p.chainType === 'solana') {
      const key = lease.root.solana(p.hdWalletIndex)
      const r = p.request
      switch (r.method) {
        case 'signMessage': {
          const message = decode(r.params?.message, 'message')
          return { method: r.method, data: { signature: base64.encode(key.sign(message)) } }
        }
        case 'signTransaction': {
          const wire = decode(r.params?.transaction, 'transaction')
          const { signSolanaTransaction } = await import('../solana-tx')
          return { method: r.method, data: { signedTransaction: base64.encode(signSolanaTransaction(wire, key)) } }
        }
        default:
          throw bad(`Unsupported method ${String((r as { method: unknown }).method)}`)
      }
    }
    throw bad('chainType: expected ethereum or solana')
  } finally {
    lease.release()
  }
})

function decode(v: unknown, name: string): Uint8Array {
  if (typeof v !== 'string' || !v) throw bad(`${name}: expected base64`)
  try {
    return base64.decode(v)
  } catch {
    throw bad(`${name}: expected base64`)
  }
}
