/**
 * The EIP-7702 authorisation itself, run by the authorisation page (frame/authorize/main.ts)
 * after the user's click on Allow: unlock the root for 'authorization' (device share + auth
 * share; a fresh MFA verification when the user has a method), check the wallet is the one
 * asked for, and sign the authorisation with its key (viem), here on the wallet service's
 * origin. Only the signature leaves the page.
 */
import type { Address } from 'viem'
import { EIP7702_IMPLEMENTATIONS, type AuthorizePayload, type WireAuthorization } from '../../src/wire/frame'
import { FrameFailure, type FrameContext } from '../context'
import { withRootSecret } from '../wallet-secret'

export const AUTHORIZE_FRAME_TEXTS = {
  unknownContract: 'This wallet does not delegate to that contract.',
  chainId: 'An authorisation needs one chain (chain id 0 would be valid on every chain).',
  notAssociated: 'Address to delegate is not associated with current user.',
  nonce: 'nonce: Expected a non-negative integer',
  address: 'address: Required',
} as const

/** The implementation's name, or null when the page does not let a wallet delegate to it. */
export const implementationName = (contract: unknown): string | null =>
  typeof contract === 'string' && /^0x[0-9a-fA-F]{40}$/.test(contract) ? (EIP7702_IMPLEMENTATIONS[contract.toLowerCase()] ?? null) : null

/** Checks the request before anything is shown. */
export function checkAuthorizePayload(p: AuthorizePayload): void {
  if (typeof p.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(p.address)) throw new FrameFailure('invalid_request_arguments', AUTHORIZE_FRAME_TEXTS.address)
  if (!Number.isSafeInteger(p.chainId) || p.chainId <= 0) throw new FrameFailure('invalid_request_arguments', AUTHORIZE_FRAME_TEXTS.chainId)
  if (!Number.isSafeInteger(p.nonce) || p.nonce < 0) throw new FrameFailure('invalid_request_arguments', AUTHORIZE_FRAME_TEXTS.nonce)
  if (!implementationName(p.contractAddress)) throw new FrameFailure('invalid_request_arguments', AUTHORIZE_FRAME_TEXTS.unknownContract)
}

export async function signAuthorizationFor(ctx: FrameContext, p: AuthorizePayload): Promise<WireAuthorization> {
  checkAuthorizePayload(p)
  const ref = { ...p, chainType: 'ethereum' as const, walletIndex: 0 }
  return withRootSecret(ctx, ref, 'authorization', async (s) => {
    const account = s.root.ethereum(0)
    if (account.address.toLowerCase() !== p.address.toLowerCase()) throw new FrameFailure('invalid_request_arguments', AUTHORIZE_FRAME_TEXTS.notAssociated)
    const a = await account.signAuthorization({ chainId: p.chainId, contractAddress: p.contractAddress as Address, nonce: p.nonce })
    return { address: a.address, chainId: a.chainId, nonce: a.nonce, r: a.r, s: a.s, yParity: a.yParity ?? (a.v === 28n ? 1 : 0) }
  })
}
