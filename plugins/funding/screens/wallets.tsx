/**
 * 'funding-wallets': 'Transfer from wallet' — the wallets of the request's chain type that the
 * wallet base's connectors offer (EIP-6963 / injected Ethereum wallets from `siwe`, wallet-standard
 * Solana wallets from `siws`). With no
 * Solana wallet, the 'Create a Phantom wallet' screen.
 */
import { useEffect, useState } from 'react'
import { formatText, type WalletConnectorEntry } from 'portico'
import { ListButton, ScreenLayout, icons, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { FUNDING } from '../errors'
import { FUNDING_PHANTOM_SCREEN, FUNDING_WALLET_TRANSFER_SCREEN } from '../ids'
import { FUNDING_TEXTS } from '../strings'

/** Connectors that can send: an EIP-1193 `provider` for Ethereum, `solanaSignAndSendTransaction` for Solana. */
export function sendingConnectors(list: WalletConnectorEntry[], chainType: 'ethereum' | 'solana'): WalletConnectorEntry[] {
  return list.filter(
    (c) =>
      c.chainType === chainType &&
      (chainType === 'ethereum' ? typeof (c.provider as { request?: unknown } | undefined)?.request === 'function' : typeof c.solanaSignAndSendTransaction === 'function'),
  )
}

/**
 * A wallet's announced icon (wallet-standard and EIP-6963 icons are data: URIs); the generic
 * wallet icon when it cannot load, e.g. under a CSP without `img-src data:`.
 */
export function ConnectorIcon({ src, size = 20 }: { src?: unknown; size?: number }) {
  const [failed, setFailed] = useState(false)
  if (typeof src !== 'string' || !src || failed) return <icons.WalletIcon width={size} height={size} />
  return <img src={src} alt="" width={size} height={size} onError={() => setFailed(true)} />
}

export default function FundingWalletsScreen(_: ScreenProps) {
  const kernel = useKernel()
  const api = usePlugin('funding')
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  const screen = useScreen()
  const { request } = useStore(api.state)
  const connectors = request ? sendingConnectors(kernel.hooks.walletConnectors.call([]), request.chainType) : []

  useEffect(() => {
    if (request?.chainType === 'solana' && connectors.length === 0) screen.replace(FUNDING_PHANTOM_SCREEN)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (!request) return null
  return (
    <ScreenLayout
      title={T.chooseWalletTitle}
      description={formatText(T.chooseWalletDescription, { amount: request.amount, symbol: request.symbol })}
      icon={<icons.WalletIcon width={32} height={32} />}
    >
      {connectors.length ? (
        <ul className="portico-list">
          {connectors.map((c) => (
            <li key={c.id}>
              <ListButton
                method={c.id}
                label={c.name}
                icon={<ConnectorIcon src={c.icon} />}
                onClick={() => screen.open(FUNDING_WALLET_TRANSFER_SCREEN, { connectorId: c.id })}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="portico-help">{T.noWallets}</p>
      )}
    </ScreenLayout>
  )
}
