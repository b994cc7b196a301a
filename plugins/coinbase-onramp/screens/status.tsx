/**
 * 'coinbase-onramp-status': gets the session token, sends the popup to the Coinbase pay URL,
 * records the start, then polls the status every 1.5 s: success → "You've funded your
 * account!" with Continue; pending → 'In Progress' (go back to Coinbase while the popup is open;
 * retrieving the status after it closed); back to method selection after 3 polls with the popup
 * closed. A failed init → 'Something went wrong adding funds. Please try again or use another
 * method.' The screen body is the funding kit's `OnrampStatus`.
 */
import { OnrampStatus, type FundingPopup, type OnrampRun, type OnrampView } from 'portico/kits/funding'
import { useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { getCoinbaseOnrampStatus, initCoinbaseOnramp } from '../calls'
import { COINBASE_ONRAMP } from '../errors'
import { coinbaseTarget, paymentMethodFor } from '../networks'
import { COINBASE_ID_DELAY_MS, watchCoinbase, type CoinbaseStatus } from '../status'
import { COINBASE_ONRAMP_TEXTS } from '../strings'

export default function CoinbaseOnrampStatusScreen(_: ScreenProps) {
  const kernel = useKernel()
  const funding = usePlugin('funding')
  const T = useTexts(COINBASE_ONRAMP, COINBASE_ONRAMP_TEXTS)
  const screen = useScreen<{ popup?: FundingPopup; experience?: 'buy' | 'send' }>()
  const { request } = useStore(funding.state)
  const payUrl = funding.config()?.coinbase?.pay_url
  const experience = screen.params.experience ?? 'buy'
  const view = (status: CoinbaseStatus): OnrampView =>
    status === 'success'
      ? { title: T.fundedTitle, description: T.fundedDescription, done: true, close: { method: experience === 'send' ? 'exchange' : 'card', provider: 'coinbase' } }
      : { title: T.inProgressTitle, description: status === 'pending-after-flow' ? T.afterFlowDescription : T.inFlowDescription }

  const start = async (run: OnrampRun) => {
    if (!request || !payUrl) return
    const { popup } = run
    const target = coinbaseTarget(request)
    if ('unsupported' in target) {
      popup.close()
      console.warn(`[portico] ${T.unsupportedChainDetail.replace('{id}', String(target.unsupported))}`)
      return run.fail(T.unsupportedChain.replace('{network}', request.network).replace('{id}', String(target.unsupported)))
    }
    const [init, cbpay] = await Promise.all([
      initCoinbaseOnramp(kernel.api, { addresses: [{ address: request.address, blockchains: [target.network] }], assets: [target.asset] }),
      import('@coinbase/cbpay-js'),
    ])
    if (run.stopped()) return
    const amount = Number(request.amount)
    popup.location.href = cbpay.generateOnRampURL({
      host: payUrl,
      appId: init.app_id,
      sessionToken: init.session_token,
      addresses: { [request.address]: [target.network] },
      defaultExperience: experience,
      presetCryptoAmount: Number.isFinite(amount) && amount > 0 ? amount : undefined,
      defaultNetwork: target.network,
      partnerUserId: init.partner_user_id,
      ...({ defaultPaymentMethod: paymentMethodFor(experience), defaultAsset: target.asset } as object),
    })
    const cancelId = funding.recordStart(
      { provider: 'coinbase', method: experience === 'buy' ? 'card' : 'exchange', address: request.address, amount: request.amount },
      init.partner_user_id,
      COINBASE_ID_DELAY_MS,
    )
    run.show(view('pending-in-flow'))
    const p = watchCoinbase({
      status: async () => (await getCoinbaseOnrampStatus(kernel.api, init.partner_user_id)).status,
      popupClosed: () => popup.closed,
      onStatus: (s) => run.show(view(s)),
    })
    p.result.then((r) => {
      if (r === 'closed') run.back()
    })
    return () => {
      p.stop()
      cancelId()
    }
  }

  return <OnrampStatus texts={T} start={request && payUrl ? start : null} />
}
