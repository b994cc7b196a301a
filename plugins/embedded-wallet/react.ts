/**
 * React hooks: `useWallets()` (every embedded wallet, or one chain's), `useSolanaWallets()`,
 * `useCreateWallet()`, `useEmbeddedWallet()` (the API and the connection state).
 */
import { useCallback, useMemo } from 'react'
import { usePlugin, useStore, useUser } from 'portico/ui/core'
import type { ChainType } from './protocol'
import type { CreateOptions, EmbeddedWallet, ImportOptions } from './wallets'

export function useEmbeddedWallet() {
  const api = usePlugin('embedded-wallet')
  const state = useStore(api.state)
  return { api, state }
}

/** The user's embedded wallets (`chainType` filters), with `ready` once the frame connected them. */
export function useWallets(chainType?: ChainType): { wallets: EmbeddedWallet[]; ready: boolean; status: string } {
  const api = usePlugin('embedded-wallet')
  const state = useStore(api.state)
  const { user } = useUser()
  const wallets = useMemo(
    () => api.wallets().filter((w) => !chainType || w.chainType === chainType),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, user, state.version, chainType],
  )
  return { wallets, ready: state.status === 'connected', status: state.status }
}

export function useSolanaWallets() {
  return useWallets('solana')
}

export function useCreateWallet() {
  const api = usePlugin('embedded-wallet')
  const state = useStore(api.state)
  const createWallet = useCallback((options?: CreateOptions) => api.create(options), [api])
  return { createWallet, creating: state.create.status === 'creating' }
}

/** `importWallet({ privateKey, chainType })`: an imported root wallet (spec part 2 section 3). */
export function useImportWallet() {
  const api = usePlugin('embedded-wallet')
  const importWallet = useCallback((options: ImportOptions) => api.importWallet(options), [api])
  return { importWallet }
}
