/**
 * delegated-actions:consent — after the user accepted 'Enable offline access' on the host's
 * screen: unlock the root for 'delegation' (device share + auth share; a fresh MFA
 * verification when the user has a method), check the wallet is the one asked for, seal THAT
 * wallet's private key (not the phrase, not its siblings) to the server's delegation key, and
 * hand it to POST /wallets/delegate. The host gets the updated user back, nothing else.
 */
import type { JWK } from 'jose'
import type { ConsentPayload, ConsentReply } from '../../../../plugins/delegated-actions/protocol'
import '../messages'
import { FrameFailure } from '../context'
import { withRootSecret } from '../wallet-secret'
import { register } from './registry'

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('')

register('delegated-actions:consent', async (p: ConsentPayload, ctx) => {
  if (p.chainType !== 'ethereum' && p.chainType !== 'solana') throw new FrameFailure('invalid_request_arguments', 'Delegation works only for Ethereum and Solana wallets.')
  if (typeof p.address !== 'string' || !p.address) throw new FrameFailure('invalid_request_arguments', 'address: Required')
  if (!Number.isInteger(p.walletIndex) || p.walletIndex < 0) throw new FrameFailure('invalid_request_arguments', 'A negative walletIndex is invalid.')
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
    if (!same) throw new FrameFailure('invalid_request_arguments', 'Address to delegate is not associated with current user.')
    const key = await s.privateKey(p.chainType, p.walletIndex)
    try {
      // jose loads only when a user delegates.
      const { sealWalletKey } = await import('../delegation-seal')
      return await sealWalletKey(jwk, { address: derived, chain_type: p.chainType, private_key: hex(key) })
    } finally {
      key.fill(0)
    }
  })
  const res = await ctx.api<ConsentReply>('/wallets/delegate', { address: p.address, chain_type: p.chainType, sealed_key: sealed }, p.accessToken)
  return { user: res.user }
})
