/** React hooks of key export. */
import { useMemo } from 'react'
import { useKernel } from 'portico/ui'
import type { ExportOptions } from './flow'

/** `{ exportWallet({ address?, phrase? }), exportSolanaWallet({ address? }) }` (stable references). */
export function useExportWallet() {
  const kernel = useKernel()
  return useMemo(() => {
    const api = () => kernel.plugin('wallet-export')
    return {
      exportWallet: (options?: ExportOptions) => api().exportWallet(options),
      exportSolanaWallet: (options?: Omit<ExportOptions, 'phrase'>) => api().exportSolanaWallet(options),
    }
  }, [kernel])
}
