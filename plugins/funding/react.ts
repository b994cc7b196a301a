/** React hooks of the funding base: `useFundWallet()` for hosts, `useFundingRequest()` for funding screens. */
import { useCallback } from 'react'
import { useKernel, usePlugin, useStore } from 'portico/ui'
import { PorticoError } from 'portico'
import type { FundingApi, FundingResult } from './api'
import type { FundingRequest, ResolvedFundingRequest } from 'portico/kits/funding'

/** `fundWallet({ address, chain | cluster, amount, asset … })` opens the funding flow. */
export function useFundWallet(): { fundWallet(request: FundingRequest): Promise<FundingResult> } {
  const kernel = useKernel()
  const fundWallet = useCallback(
    (request: FundingRequest) => {
      let api: FundingApi | undefined
      try {
        api = kernel.plugin('funding')
      } catch {
        api = undefined
      }
      // The refusal's text loads with the texts (./strings.ts), not with the entry.
      if (!api) return import('./strings').then((m) => Promise.reject(new PorticoError('funding_not_enabled', kernel.texts('funding', m.FUNDING_TEXTS).notEnabled)))
      return api.fund(request)
    },
    [kernel],
  )
  return { fundWallet }
}

/** The request the funding flow is working on (null outside a flow). */
export function useFundingRequest(): ResolvedFundingRequest | null {
  const api = usePlugin('funding')
  return useStore(api.state).request
}
