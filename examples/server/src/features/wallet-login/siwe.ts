import { getAddress, isAddress, isHex, type Hex } from 'viem'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { verifyMessage as verifyEoaMessage } from 'viem/utils'
import { DEFAULT_CHAINS } from '../../config'
import type { ServerCtx } from '../../core/context'
import { errors } from '../../core/errors'
import { rpcClient } from '../../core/rpc'
import { allowedHosts, checkIssuedAt, checkUri, consumeNonce } from '../../nonces'
import { walletAccount, type WalletFlow } from './flow'

/**
 * An EOA signature is checked locally (ecrecover). Otherwise, when the chain has an RPC URL
 * (PORTICO_RPC_URLS), viem's verifyMessage action checks ERC-1271 (a deployed smart
 * account) and ERC-6492 (a counterfactual one, through the deployless universal validator).
 */
export async function verifyWalletSignature(
  rpcUrls: Record<number, string>,
  p: { chainId: number; address: Hex; message: string; signature: Hex },
): Promise<boolean> {
  try {
    if (await verifyEoaMessage({ address: p.address, message: p.message, signature: p.signature })) return true
  } catch {}
  const url = rpcUrls[p.chainId]
  if (!url) return false
  try {
    return await rpcClient(url).verifyMessage({ address: p.address, message: p.message, signature: p.signature })
  } catch {
    return false
  }
}

function normalise(address: string): string {
  if (!isAddress(address, { strict: false })) throw new Error('bad address')
  return address.toLowerCase()
}

function chainIdOf(v: unknown, fallback?: number): string | null {
  if (typeof v === 'string' && /^eip155:\d+$/.test(v)) return v
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) return `eip155:${Number(v)}`
  return fallback ? `eip155:${fallback}` : null
}

/**
 * Sign-In with Ethereum (EIP-4361): /siwe/{init,authenticate,link,unlink,transfer}.
 * Checks the domain (the app's allowed origins' hosts), the nonce (single use, issued for
 * that address, 10 minutes), expiration / not-before, then the signature (viem).
 * Ethereum wallets are not transferable: a conflict answers linked_to_another_user.
 */
export function siweFlow(ctx: ServerCtx): WalletFlow {
  return {
    base: '/siwe',
    kind: 'siwe',
    normaliseAddress: normalise,
    identifier: (a) => `ethereum:${a.toLowerCase()}`,
    async verify(c, app, b) {
      const message = b.message as string
      let parsed: ReturnType<typeof parseSiweMessage>
      try {
        parsed = parseSiweMessage(message)
      } catch {
        throw errors.invalidCredentials('Invalid SIWE message')
      }
      if (!parsed.address || !parsed.nonce || !parsed.domain || !parsed.uri || parsed.version !== '1') {
        throw errors.invalidCredentials('Invalid SIWE message')
      }
      if (!allowedHosts(app.allowedOrigins).includes(parsed.domain)) {
        throw errors.invalidCredentials('SIWE message domain is not allowed for this app')
      }
      if (!validateSiweMessage({ message: parsed, time: new Date() })) {
        throw errors.invalidCredentials('SIWE message is expired or not yet valid')
      }
      checkUri(parsed.uri, app.allowedOrigins, 'SIWE')
      checkIssuedAt(parsed.issuedAt, 'SIWE')
      const chains = app.supportedChains ?? DEFAULT_CHAINS
      if (!parsed.chainId || !chains.includes(parsed.chainId)) {
        throw errors.invalidCredentials('SIWE message chain is not supported by this app')
      }
      const claimed = chainIdOf(b.chainId)
      if (claimed && claimed !== `eip155:${parsed.chainId}`) throw errors.invalidCredentials('chainId does not match the SIWE message')
      if (typeof b.signature !== 'string' || !isHex(b.signature)) throw errors.invalidCredentials('Invalid signature')
      const address = parsed.address.toLowerCase()
      if (!(await consumeNonce(ctx.store, { appId: app.id, kind: 'siwe', subject: address, nonce: parsed.nonce }))) {
        throw errors.invalidCredentials('Invalid or expired nonce')
      }
      const ok = await verifyWalletSignature(ctx.rpcUrls, {
        chainId: parsed.chainId,
        address: parsed.address,
        message,
        signature: b.signature as Hex,
      })
      if (!ok) throw errors.invalidCredentials('Invalid signature')
      const checksummed = getAddress(parsed.address)
      return walletAccount({ chain: 'ethereum', identifier: `ethereum:${address}`, address: checksummed, chainId: chainIdOf(b.chainId, parsed.chainId), transferable: false, linkMethod: 'siwe' }, b)
    },
  }
}
