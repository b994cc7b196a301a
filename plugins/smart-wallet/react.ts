/**
 * `useSmartWallets()`: the user's smart account — `{ client, address, ready, status, error }`.
 * `client` is null until the account is computed and linked (on login, when the user has an
 * embedded Ethereum wallet and the app enables smart wallets); then
 * `client.sendTransaction(...)`, `signMessage`, `signTypedData` show the approval screens, and
 * `client.getEthereumProvider()` is an EIP-1193 provider for viem and wagmi.
 */
import { useEffect, useState } from 'react'
import { usePlugin, useStore, useUser } from 'portico/ui'
import type { Store } from 'portico'
import type { SmartWalletClient } from './client'
import type { SmartWalletApi, SmartWalletState } from './index'

/** Without the plugin (not in the host's list): always off. */
const OFF: Store<SmartWalletState> = { get: () => OFF_STATE, set: () => {}, subscribe: () => () => {}, reset: () => {} }
const OFF_STATE: SmartWalletState = { status: 'off', address: null, error: null }

export function useSmartWallets(options: { chainId?: number } = {}): {
  client: SmartWalletClient | null
  address: string | null
  ready: boolean
  status: 'off' | 'creating' | 'ready' | 'error'
  error: string | null
} {
  const api = usePlugin<SmartWalletApi | undefined>('smart-wallet')
  const state = useStore(api?.state ?? OFF)
  const { user } = useUser()
  const [client, setClient] = useState<SmartWalletClient | null>(null)
  useEffect(() => {
    let live = true
    if (!api || state.status !== 'ready' || !user) {
      setClient(null)
      return
    }
    api.getClient({ chainId: options.chainId }).then(
      (c) => live && setClient(c),
      () => live && setClient(null),
    )
    return () => {
      live = false
    }
  }, [api, state.status, state.address, user, options.chainId])
  return { client, address: state.address, ready: !!client, status: state.status, error: state.error }
}
