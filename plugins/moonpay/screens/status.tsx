/**
 * 'moonpay-status': signs the widget URL, sends the popup there, records the start, then polls
 * MoonPay: completed → "You've funded your account!" with Continue; waitingAuthorization →
 * 'Processing payment' with Continue; anything else → 'In Progress', 'Go back to MoonPay to
 * finish funding your account.' (no button). Three consecutive errors, or a failed sign → the
 * MoonPay failure text.
 */
import { useEffect, useState } from 'react'
import { formatText } from 'portico'
import type { FundingPopup } from 'portico/plugins/funding'
import { Button, ScreenLayout, StatusIcon, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { signMoonpayUrl } from '../calls'
import { moonpayCurrencyCode } from '../currency'
import { MOONPAY } from '../errors'
import { MOONPAY_ID_DELAY_MS, moonpayView, watchMoonpay } from '../status'
import { MOONPAY_TEXTS } from '../strings'

type Phase = { kind: 'opening' } | { kind: 'status'; status: string | null } | { kind: 'failed' }

export default function MoonpayStatusScreen(_: ScreenProps) {
  const kernel = useKernel()
  const funding = usePlugin('funding')
  const mp = usePlugin('moonpay')
  const T = useTexts(MOONPAY, MOONPAY_TEXTS)
  const screen = useScreen<{ popup?: FundingPopup }>()
  const { request } = useStore(funding.state)
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' })

  useEffect(() => {
    const popup = screen.params.popup
    const config = funding.config()?.moonpay
    if (!request || !config) return
    if (!popup || popup.closed) {
      setPhase({ kind: 'failed' })
      return
    }
    let stopped = false
    let stop = () => {}
    const sandbox = mp.options.useSandbox ?? config.use_sandbox
    const currency = moonpayCurrencyCode(request)
    if (currency.defaulted !== undefined) mp.warn(formatText(T.unknownChain, { chainId: currency.defaulted }))
    const amount = request.moonpayConfigOverride?.quoteCurrencyAmount ?? Number(request.amount)
    const theme = kernel.config.appearance?.theme === 'dark' ? 'dark' : 'light'
    signMoonpayUrl(kernel.api, {
      address: request.address,
      useSandbox: sandbox,
      config: {
        currencyCode: currency.code,
        quoteCurrencyAmount: Number.isFinite(amount) && amount > 0 ? amount : undefined,
        paymentMethod: config.payment_method ?? undefined,
        uiConfig: { accentColor: kernel.config.appearance?.accentColor ?? undefined, theme },
      },
    })
      .then(({ signedUrl, externalTransactionId }) => {
        if (stopped) return
        popup.location.href = signedUrl
        const cancelId = funding.recordStart({ provider: 'moonpay', method: 'card', address: request.address, amount: request.amount }, externalTransactionId, MOONPAY_ID_DELAY_MS)
        setPhase({ kind: 'status', status: null })
        const p = watchMoonpay({
          fetch: funding.fetch,
          apiUrl: mp.options.apiUrl ?? (sandbox ? config.sandbox_api_url : config.api_url),
          apiKey: sandbox ? config.sandbox_api_key : config.api_key,
          externalTransactionId,
          onStatus: (status) => !stopped && setPhase({ kind: 'status', status }),
        })
        p.result.catch(() => !stopped && setPhase({ kind: 'failed' }))
        stop = () => {
          p.stop()
          cancelId()
        }
      })
      .catch(() => {
        if (stopped) return
        if (!popup.closed) popup.close()
        setPhase({ kind: 'failed' })
      })
    return () => {
      stopped = true
      stop()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (phase.kind === 'failed') {
    return (
      <ScreenLayout title={T.failure} titleHidden icon={<StatusIcon status="error" />}>
        <p className="portico-error" role="alert">
          {screen.params.popup ? T.failure : T.popupBlocked}
        </p>
        <Button variant="secondary" onClick={() => screen.back()}>
          {T.chooseAnotherMethod}
        </Button>
      </ScreenLayout>
    )
  }
  if (phase.kind === 'opening') return <ScreenLayout title={T.openingTitle} description={T.openingDescription} icon={<StatusIcon status="loading" />} />
  const view = moonpayView(phase.status)
  if (view === 'funded') {
    return (
      <ScreenLayout title={T.fundedTitle} description={T.fundedDescription} icon={<StatusIcon status="success" />}>
        <Button onClick={() => screen.close({ method: 'card', provider: 'moonpay' })}>{T.continue}</Button>
      </ScreenLayout>
    )
  }
  if (view === 'processing') {
    return (
      <ScreenLayout title={T.processingTitle} description={T.processingDescription} icon={<StatusIcon status="loading" />}>
        <Button onClick={() => screen.close({ method: 'card', provider: 'moonpay' })}>{T.continue}</Button>
      </ScreenLayout>
    )
  }
  return <ScreenLayout title={T.inProgressTitle} description={T.inProgressDescription} icon={<StatusIcon status="loading" />} />
}
