/**
 * React hooks: `useWallets()` (every embedded wallet, or one chain's), `useSolanaWallets()`,
 * `useCreateWallet()`, `useEmbeddedWallet()` (the API and the connection state),
 * `useWalletDevices()` (the devices registered for the wallet, and their removal).
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { usePlugin, useStore, useUser } from 'portico/ui'
import type { ChainType, WalletDevice } from './protocol'
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

/**
 * The devices registered for the user's wallet (issue 26), newest state after `remove(id)`;
 * `refresh()` reads them again. Empty while logged out or before the first load.
 */
export function useWalletDevices(): {
  devices: WalletDevice[]
  loading: boolean
  error: Error | null
  refresh(): Promise<void>
  remove(deviceId: string): Promise<void>
} {
  const api = usePlugin('embedded-wallet')
  const { user } = useUser()
  const [devices, setDevices] = useState<WalletDevice[]>([])
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<Error | null>(null)
  const userId = user?.id ?? null
  // Read again once the wallet connects (a recovered device has just been added).
  const connected = useStore(api.state).status === 'connected'
  const refresh = useCallback(async () => {
    if (!userId) return setDevices([])
    setLoading(true)
    try {
      setDevices(await api.devices())
      setError(null)
    } catch (e) {
      setError(e as Error)
    } finally {
      setLoading(false)
    }
  }, [api, userId])
  const remove = useCallback(
    async (deviceId: string) => {
      try {
        setDevices(await api.removeDevice(deviceId))
        setError(null)
      } catch (e) {
        setError(e as Error)
        throw e
      }
    },
    [api],
  )
  useEffect(() => void refresh(), [refresh, connected])
  return { devices, loading, error, refresh, remove }
}
