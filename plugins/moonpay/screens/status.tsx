/**
 * 'moonpay-status': signs the widget URL, sends the popup there, records the start, then polls
 * MoonPay: completed → "You've funded your account!" with Continue; waitingAuthorization →
 * 'Processing payment' with Continue; anything else → 'In Progress', 'Go back to MoonPay to
 * finish funding your account.' (no button). Three consecutive errors, or a failed sign → the
 * MoonPay failure text. The screen body is the funding kit's `OnrampStatus`.
 */
import { formatText } from 'portico'
import { OnrampStatus, type FundingPopup, type OnrampRun, type OnrampView } from 'portico/kits/funding'
import { useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { signMoonpayUrl } from '../calls'
import { moonpayCurrencyCode } from '../currency'
import { MOONPAY } from '../errors'
import { MOONPAY_ID_DELAY_MS, moonpayView, watchMoonpay } from '../status'
import { MOONPAY_TEXTS } from '../strings'

export default function MoonpayStatusScreen(_: ScreenProps) {
  const kernel = useKernel()
  const funding = usePlugin('funding')
  const mp = usePlugin('moonpay')
  const T = useTexts(MOONPAY, MOONPAY_TEXTS)
  const screen = useScreen<{ popup?: FundingPopup }>()
  const { request } = useStore(funding.state)
  const config = funding.config()?.moonpay
  const result = { method: 'card', provider: 'moonpay' }
  const view = (status: string | null): OnrampView => {
    const v = moonpayView(status)
    if (v === 'funded') return { title: T.fundedTitle, description: T.fundedDescription, done: true, close: result }
    if (v === 'processing') return { title: T.processingTitle, description: T.processingDescription, close: result }
    return { title: T.inProgressTitle, description: T.inProgressDescription }
  }

  const start = async (run: OnrampRun) => {
    if (!request || !config) return
    const sandbox = mp.options.useSandbox ?? config.use_sandbox
    const currency = moonpayCurrencyCode(request)
    if (currency.defaulted !== undefined) mp.warn(formatText(T.unknownChain, { chainId: currency.defaulted }))
    const amount = request.moonpayConfigOverride?.quoteCurrencyAmount ?? Number(request.amount)
    const theme = kernel.config.appearance?.theme === 'dark' ? 'dark' : 'light'
    const { signedUrl, externalTransactionId } = await signMoonpayUrl(kernel.api, {
      address: request.address,
      useSandbox: sandbox,
      config: {
        currencyCode: currency.code,
        quoteCurrencyAmount: Number.isFinite(amount) && amount > 0 ? amount : undefined,
        paymentMethod: config.payment_method ?? undefined,
        uiConfig: { accentColor: kernel.config.appearance?.accentColor ?? undefined, theme },
      },
    })
    if (run.stopped()) return
    run.popup.location.href = signedUrl
    const cancelId = funding.recordStart({ provider: 'moonpay', method: 'card', address: request.address, amount: request.amount }, externalTransactionId, MOONPAY_ID_DELAY_MS)
    run.show(view(null))
    const p = watchMoonpay({
      fetch: funding.fetch,
      apiUrl: mp.options.apiUrl ?? (sandbox ? config.sandbox_api_url : config.api_url),
      apiKey: sandbox ? config.sandbox_api_key : config.api_key,
      externalTransactionId,
      onStatus: (status) => run.show(view(status)),
    })
    p.result.catch(() => run.fail(T.failure))
    return () => {
      p.stop()
      cancelId()
    }
  }

  return (
    <OnrampStatus
      texts={{ ...T, popupBlocked: screen.params.popup ? T.failure : T.popupBlocked }}
      failedTitle={T.failure}
      start={request && config ? start : null}
    />
  )
}
