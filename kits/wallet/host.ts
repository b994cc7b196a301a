/**
 * The host API over external wallets: `connectWallet` (the connect-only flow: the wallet list,
 * then only the wallet's account, no signature), `connectOrCreateWallet` (the connect-or-create
 * variant), the connected wallets as wallet objects, and their React hooks.
 */
import { useCallback, useEffect, useState } from 'react'
import { PorticoError, type FlowResult, type Portico } from 'portico'
import { useKernel } from 'portico/ui'
import { CONNECTORS_CHANGED, WALLET_LIST_SCREEN } from './ids'
import { connectedWallets, type ExternalWallet } from './wallets'

export interface ConnectWalletResult {
  wallet: ExternalWallet
}

/**
 * Open the connect-only wallet list (the landing variant when logged out, the authenticated
 * variant when logged in): the user picks a wallet, which is asked for its account only (no
 * sign-in). Resolves with the connected wallet; rejects with `exited_link_flow` when closed.
 */
export async function connectWallet(kernel: Portico): Promise<ConnectWalletResult> {
  await kernel.ready()
  const intent = kernel.session.authenticated ? 'link' : 'login'
  const result: FlowResult = await kernel.screens.open(WALLET_LIST_SCREEN, { connectOnly: true }, { intent })
  if (!result.ok) throw result.error
  const wallet = (result.value as { wallet?: ExternalWallet } | undefined)?.wallet
  if (!wallet) throw new PorticoError('exited_link_flow', 'The wallet list was closed.')
  return { wallet }
}

/**
 * The connect-or-create variant: logged out, the wallet list signs in (SIWE / SIWS); logged in
 * without an embedded wallet and with the embedded-wallet plugin on, that plugin creates one;
 * otherwise the connect-only list.
 */
export async function connectOrCreateWallet(kernel: Portico): Promise<FlowResult | ConnectWalletResult | unknown> {
  await kernel.ready()
  if (!kernel.session.authenticated) return kernel.screens.open(WALLET_LIST_SCREEN, {}, { intent: 'login' })
  const embedded = kernel.plugin<{ wallets?: () => unknown[]; create?: (o?: unknown) => Promise<unknown> } | undefined>('embedded-wallet')
  if (embedded?.create && !(embedded.wallets?.() ?? []).length) return embedded.create()
  return connectWallet(kernel)
}

/** The connected external wallets, re-rendering when a connector connects or disconnects. */
export function useExternalWallets(): ExternalWallet[] {
  const kernel = useKernel()
  const [wallets, setWallets] = useState(() => connectedWallets(kernel))
  useEffect(() => {
    const update = () => setWallets(connectedWallets(kernel))
    update()
    kernel.events.on(CONNECTORS_CHANGED, update)
    kernel.events.on('user', update)
    return () => {
      kernel.events.off(CONNECTORS_CHANGED, update)
      kernel.events.off('user', update)
    }
  }, [kernel])
  return wallets
}

/**
 * `connectWallet()` and `connectOrCreateWallet()` for React, with the connected wallets.
 *
 * ```tsx
 * const { connectWallet, wallets } = useConnectWallet({ onSuccess: ({ wallet }) => ... })
 * const provider = await wallets[0].getEthereumProvider?.()
 * ```
 */
export function useConnectWallet(callbacks: { onSuccess?: (r: ConnectWalletResult) => void; onError?: (e: PorticoError) => void } = {}) {
  const kernel = useKernel()
  const wallets = useExternalWallets()
  const { onSuccess, onError } = callbacks
  const connect = useCallback(async () => {
    try {
      const r = await connectWallet(kernel)
      onSuccess?.(r)
      return r
    } catch (e) {
      onError?.(e as PorticoError)
      throw e
    }
  }, [kernel, onSuccess, onError])
  const connectOrCreate = useCallback(() => connectOrCreateWallet(kernel), [kernel])
  return { connectWallet: connect, connectOrCreateWallet: connectOrCreate, wallets }
}
