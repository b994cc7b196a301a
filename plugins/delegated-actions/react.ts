/** React hooks of delegated actions. */
import { useMemo } from 'react'
import { useKernel } from 'portico/ui'
import type { DelegateOptions } from './flow'

/** `{ delegateWallet({ address, chainType }), revokeWallets() }` (stable references). */
export function useDelegatedActions() {
  const kernel = useKernel()
  return useMemo(() => {
    const api = () => kernel.plugin('delegated-actions')
    return {
      delegateWallet: (options: DelegateOptions) => api().delegateWallet(options),
      revokeWallets: () => api().revokeWallets(),
    }
  }, [kernel])
}
