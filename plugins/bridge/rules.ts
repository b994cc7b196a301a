/** Where bridging applies (spec part 2 section 5: not for Solana testnet or devnet). */
import type { ResolvedFundingRequest } from 'portico/kits/funding'

export function bridgeSupported(r: Pick<ResolvedFundingRequest, 'chainType' | 'cluster'>): boolean {
  return !(r.chainType === 'solana' && r.cluster && r.cluster.name !== 'mainnet-beta')
}
