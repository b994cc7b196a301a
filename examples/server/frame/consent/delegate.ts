/**
 * The delegation itself, run by the consent page (frame/consent/main.ts) after the user's click
 * on Allow: unlock the root for 'delegation' (device share + auth share; a fresh MFA
 * verification when the user has a method), check the wallet is the one asked for, seal THAT
 * wallet's private key (not the phrase, not its siblings) with the policy the user saw to the
 * server's delegation key, and hand it to POST /wallets/delegate. Returns the updated user.
 */
import type { JWK } from 'jose'
import type { ConsentPayload, DelegationPolicy } from '../../src/wire/frame'
import type { WireUser } from '../../src/wire'
import { FrameFailure, type FrameContext } from '../context'
import { withRootSecret } from '../wallet-secret'

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('')

export const CONSENT_FRAME_TEXTS = {
  chainTypes: 'Delegation works only for Ethereum and Solana wallets.',
  notAssociated: 'Address to delegate is not associated with current user.',
  negativeIndex: 'A negative walletIndex is invalid.',
  address: 'address: Required',
} as const

/** Checks the request's wallet fields (before anything is shown). */
export function checkConsentPayload(p: ConsentPayload): void {
  if (p.chainType !== 'ethereum' && p.chainType !== 'solana') throw new FrameFailure('invalid_request_arguments', CONSENT_FRAME_TEXTS.chainTypes)
  if (typeof p.address !== 'string' || !p.address) throw new FrameFailure('invalid_request_arguments', CONSENT_FRAME_TEXTS.address)
  if (!Number.isInteger(p.walletIndex) || p.walletIndex < 0) throw new FrameFailure('invalid_request_arguments', CONSENT_FRAME_TEXTS.negativeIndex)
}

export async function sealAndDelegate(ctx: FrameContext, p: ConsentPayload, policy: DelegationPolicy): Promise<{ user: WireUser }> {
  checkConsentPayload(p)
  let jwk: JWK
  try {
    const res = await fetch(`${ctx.config.apiUrl}/api/v1/wallets/delegation_key`, { headers: { 'privy-app-id': ctx.config.appId }, credentials: 'omit' })
    jwk = ((await res.json()) as { jwk: JWK }).jwk
  } catch {
    throw new FrameFailure('error', 'Failed to connect to wallet proxy')
  }
  const sealed = await withRootSecret(ctx, p, 'delegation', async (s) => {
    const derived = s.root.address(p.chainType, p.walletIndex)
    const same = p.chainType === 'ethereum' ? derived.toLowerCase() === p.address.toLowerCase() : derived === p.address
    if (!same) throw new FrameFailure('invalid_request_arguments', CONSENT_FRAME_TEXTS.notAssociated)
    const key = await s.privateKey(p.chainType, p.walletIndex)
    try {
      const { sealWalletKey } = await import('../delegation-seal')
      return await sealWalletKey(jwk, { address: derived, chain_type: p.chainType, private_key: hex(key), policy })
    } finally {
      key.fill(0)
    }
  })
  const res = await ctx.api<{ user: WireUser }>('/wallets/delegate', { address: p.address, chain_type: p.chainType, sealed_key: sealed }, p.accessToken)
  return { user: res.user }
}
