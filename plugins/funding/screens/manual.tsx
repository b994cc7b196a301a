/**
 * 'funding-manual': 'Receive {amount} {symbol}', the address as a QR code (size 200, the shared
 * `portico/ui/qr`, loaded lazily) and copyable. The balance is polled every 2 s; when it rises
 * above what it was when the screen opened, Continue appears.
 */
import { lazy, Suspense, useEffect, useState } from 'react'
import { formatText } from 'portico'
import { Button, CopyButton, QrSlot, ScreenLayout, Spinner, StatusIcon, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { poll, requestBalance } from 'portico/kits/funding'
import { FUNDING } from '../errors'
import { FUNDING_QR_SIZE, MANUAL_POLL_MS } from '../ids'
import { FUNDING_TEXTS } from '../strings'

const QrCode = lazy(() => import('portico/ui/qr'))

export default function FundingManualScreen(_: ScreenProps) {
  const api = usePlugin('funding')
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  const screen = useScreen()
  const { request } = useStore(api.state)
  const [received, setReceived] = useState(false)
  // Set once the starting balance is known: a rise is measured from it.
  const [watching, setWatching] = useState(false)

  useEffect(() => {
    if (!request) return
    let start: bigint | null = null
    const p = poll<true>({
      intervalMs: MANUAL_POLL_MS,
      tick: async () => {
        const b = await requestBalance(api.fetch, request)
        if (start === null) {
          start = b
          setWatching(true)
        } else if (b > start) return true
        return undefined
      },
    })
    p.result.then(() => setReceived(true)).catch(() => {})
    return () => p.stop()
  }, [api, request])

  if (!request) return null
  return (
    <ScreenLayout
      title={formatText(T.receiveTitle, { amount: request.amount, symbol: request.symbol })}
      description={formatText(T.receiveDescription, { symbol: request.symbol, network: request.network })}
    >
      <QrSlot>
        <Suspense fallback={<Spinner />}>
          <QrCode value={request.address} label={T.qrLabel} size={FUNDING_QR_SIZE} />
        </Suspense>
      </QrSlot>
      <div className="portico-field">
        <span className="portico-label">{T.addressLabel}</span>
        <code className="portico-address" data-funding-address="">
          {request.address}
        </code>
        <CopyButton value={request.address} label={T.copy} copiedLabel={T.copied} />
      </div>
      {received ? (
        <>
          <div className="portico-status-center" role="status">
            <StatusIcon status="success" label={T.fundsReceived} />
            <p className="portico-emphasis">{T.fundsReceived}</p>
          </div>
          <Button onClick={() => screen.close({ method: 'manual' })}>{T.continue}</Button>
        </>
      ) : (
        <p className="portico-help" role="status" data-funding-watching={watching ? '' : undefined}>
          {T.waitingForFunds}
        </p>
      )}
    </ScreenLayout>
  )
}
