/**
 * `useOAuthTokens({ onOAuthTokenGrant })`: the provider tokens an OAuth login or link returned
 * (part 1 section 3: provider, access and refresh tokens with their lifetimes, scopes), handed
 * to the app once per grant. Portico stores none of them; keep them only if your app needs to
 * call the provider's API. Without React: `kernel.events.on('oauth:tokens', fn)`.
 */
import { useEffect, useRef } from 'react'
import { useKernel } from 'portico/ui'
import type { OAuthTokenGrant } from './flow'

export interface UseOAuthTokensOptions {
  onOAuthTokenGrant(grant: OAuthTokenGrant): void
}

export function useOAuthTokens({ onOAuthTokenGrant }: UseOAuthTokensOptions): void {
  const kernel = useKernel()
  const latest = useRef(onOAuthTokenGrant)
  latest.current = onOAuthTokenGrant
  useEffect(() => {
    const on = (grant: OAuthTokenGrant) => latest.current(grant)
    kernel.events.on('oauth:tokens', on)
    return () => kernel.events.off('oauth:tokens', on)
  }, [kernel])
}
