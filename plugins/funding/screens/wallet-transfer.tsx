/**
 * 'funding-wallet-transfer': awaiting the transfer from an external EVM or Solana wallet — connecting,
 * 'Confirm in {wallet}', confirming on the network, then 'Transfer complete', which closes after
 * 4 s. Errors show inline ('Wallet {address} does not have enough funds.', 'Transaction was
 * rejected by the user', 'Something went wrong') with 'Try again'.
 */
import { useEffect, useState } from 'react'
import { formatText, isPorticoError } from 'portico'
import { Button, ScreenLayout, StatusIcon, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { loadSolanaTransfer, transferFromWallet, type Eip1193, type SolanaSender, type TransferStatus } from 'portico/kits/funding'
import { FUNDING } from '../errors'
import { FUNDING_SUCCESS_CLOSE_MS } from '../ids'
import { FUNDING_TEXTS } from '../strings'
import { ConnectorIcon } from './wallets'

export default function FundingWalletTransferScreen(_: ScreenProps) {
  const kernel = useKernel()
  const api = usePlugin('funding')
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  const screen = useScreen<{ connectorId?: string }>()
  const { request } = useStore(api.state)
  const [status, setStatus] = useState<TransferStatus>('connecting')
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const connector = kernel.hooks.walletConnectors.call([]).find((c) => c.id === screen.params.connectorId)
  const wallet = connector?.name ?? 'wallet'

  useEffect(() => {
    if (!request || !connector) return
    const ac = new AbortController()
    setError(null)
    const common = { fetch: api.fetch, request, texts: T, signal: ac.signal, onStatus: (s: TransferStatus) => !ac.signal.aborted && setStatus(s) }
    const transfer =
      request.chainType === 'solana'
        ? loadSolanaTransfer().then((m) => m.transferFromSolanaWallet({ ...common, sender: connector as unknown as SolanaSender }))
        : transferFromWallet({ ...common, provider: connector.provider as Eip1193 })
    transfer.catch((e) => {
      if (ac.signal.aborted) return
      if (!(isPorticoError(e) && e.code.startsWith('funding_'))) console.warn('[portico] funding from a wallet failed:', e)
      setError(isPorticoError(e) && e.code.startsWith('funding_') ? e.message : T.somethingWentWrong)
    })
    return () => ac.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt])

  useEffect(() => {
    if (status !== 'success') return
    const t = setTimeout(() => screen.close({ method: 'wallet' }), FUNDING_SUCCESS_CLOSE_MS)
    return () => clearTimeout(t)
  }, [status, screen])

  if (!request) return null
  const values = { wallet, amount: request.amount, symbol: request.symbol, address: request.address, network: request.network }
  if (error) {
    return (
      <ScreenLayout title={T.somethingWentWrong} icon={<StatusIcon status="error" />}>
        <p className="portico-error" role="alert">
          {error}
        </p>
        <Button onClick={() => setAttempt((n) => n + 1)}>{T.tryAgain}</Button>
        <Button variant="secondary" onClick={() => screen.back()}>
          {T.chooseAnotherMethod}
        </Button>
      </ScreenLayout>
    )
  }
  if (status === 'success') {
    return (
      <ScreenLayout title={T.successTitle} description={formatText(T.successDescription, values)} icon={<StatusIcon status="success" />}>
        <Button onClick={() => screen.close({ method: 'wallet' })}>{T.done}</Button>
      </ScreenLayout>
    )
  }
  const title = status === 'connecting' ? T.connectingTitle : status === 'confirming' ? T.confirmingTitle : T.awaitingTitle
  const description = status === 'confirming' ? T.confirmingDescription : T.awaitingDescription
  return (
    <ScreenLayout
      title={formatText(title, values)}
      description={formatText(description, values)}
      icon={
        <StatusIcon status="loading" label={status}>
          <ConnectorIcon src={connector?.icon} size={28} />
        </StatusIcon>
      }
    />
  )
}
