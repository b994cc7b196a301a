/** React hooks of the Farcaster plugin. */
import { useCallback } from 'react'
import { PorticoError, type FarcasterAccount, type User } from 'portico'
import { useKernel } from 'portico/ui'

/** `unlinkFarcaster(fid?)`: unlinks the user's Farcaster account (default the linked one) and refreshes the user. */
export function useUnlinkFarcaster() {
  const kernel = useKernel()
  const unlink = useCallback(
    async (fid?: number): Promise<User> => {
      const id = fid ?? (kernel.session.user?.farcaster as FarcasterAccount | undefined)?.fid
      if (!id) throw new PorticoError('invalid_data', 'No Farcaster account is linked.')
      const res = await (await import('./calls')).unlinkFarcaster(kernel.api, id)
      return kernel.session.setUser(res.user)
    },
    [kernel],
  )
  return { unlinkFarcaster: unlink }
}
