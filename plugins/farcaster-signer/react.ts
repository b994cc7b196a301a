/** React hooks of Farcaster signers. */
import { useMemo } from 'react'
import { useKernel } from 'portico/ui'
import type { CastAddBody, FarcasterNetworkName } from './cast'

/**
 * `{ requestFarcasterSigner(), getFarcasterSignerPublicKey(), signFarcasterMessage(hash),
 * makeCastAdd(body) }` (stable references).
 */
export function useFarcasterSigner() {
  const kernel = useKernel()
  return useMemo(() => {
    const api = () => kernel.plugin('farcaster-signer')
    return {
      requestFarcasterSigner: () => api().requestFarcasterSigner(),
      getFarcasterSignerPublicKey: () => api().getFarcasterSignerPublicKey(),
      signFarcasterMessage: (hash: Uint8Array) => api().signFarcasterMessage(hash),
      makeCastAdd: (body: CastAddBody, options?: { fid?: number; network?: FarcasterNetworkName }) => api().makeCastAdd(body, options),
    }
  }, [kernel])
}
