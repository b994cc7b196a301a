/**
 * 'coinbase-onramp-status': gets the session token, sends the popup to the Coinbase pay URL,
 * records the start, then polls the status every 1.5 s: success → "You've funded your
 * account!" with Continue; pending → 'In Progress' (go back to Coinbase while the popup is open;
 * retrieving the status after it closed); back to method selection after 3 polls with the popup
 * closed. A failed init → 'Something went wrong adding funds. Please try again or use another
 * method.'
 */
import { useEffect, useState } from 'react'
import type { FundingPopup } from 'portico/plugins/funding'
import { Button, ScreenLayout, StatusIcon, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { getCoinbaseOnrampStatus, initCoinbaseOnramp } from '../calls'
import { COINBASE_ONRAMP } from '../errors'
import { coinbaseTarget, paymentMethodFor } from '../networks'
import { COINBASE_ID_DELAY_MS, watchCoinbase, type CoinbaseStatus } from '../status'
import { COINBASE_ONRAMP_TEXTS } from '../strings'

type Phase = { kind: 'opening' } | { kind: 'status'; status: CoinbaseStatus } | { kind: 'failed'; message: string }

export default function CoinbaseOnrampStatusScreen(_: ScreenProps) {
  const kernel = useKernel()
  const funding = usePlugin('funding')
  const T = useTexts(COINBASE_ONRAMP, COINBASE_ONRAMP_TEXTS)
  const screen = useScreen<{ popup?: FundingPopup; experience?: 'buy' | 'send' }>()
  const { request } = useStore(funding.state)
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' })

  useEffect(() => {
    const popup = screen.params.popup
    const payUrl = funding.config()?.coinbase?.pay_url
    if (!request || !payUrl) return
    if (!popup || popup.closed) return setPhase({ kind: 'failed', message: T.popupBlocked })
    const target = coinbaseTarget(request)
    if ('unsupported' in target) {
      popup.close()
      console.warn(`[portico] ${T.unsupportedChainDetail.replace('{id}', String(target.unsupported))}`)
      return setPhase({ kind: 'failed', message: T.unsupportedChain.replace('{network}', request.network).replace('{id}', String(target.unsupported)) })
    }
    const experience = screen.params.experience ?? 'buy'
    let stopped = false
    let stop = () => {}
    Promise.all([
      initCoinbaseOnramp(kernel.api, { addresses: [{ address: request.address, blockchains: [target.network] }], assets: [target.asset] }),
      import('@coinbase/cbpay-js'),
    ])
      .then(([init, cbpay]) => {
        if (stopped) return
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
        setPhase({ kind: 'status', status: 'pending-in-flow' })
        const p = watchCoinbase({
          status: async () => (await getCoinbaseOnrampStatus(kernel.api, init.partner_user_id)).status,
          popupClosed: () => popup.closed,
          onStatus: (status) => !stopped && setPhase({ kind: 'status', status }),
        })
        p.result.then((r) => {
          if (!stopped && r === 'closed') screen.back()
        })
        stop = () => {
          p.stop()
          cancelId()
        }
      })
      .catch(() => {
        if (stopped) return
        if (!popup.closed) popup.close()
        setPhase({ kind: 'failed', message: T.failure })
      })
    return () => {
      stopped = true
      stop()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (phase.kind === 'failed') {
    return (
      <ScreenLayout title={phase.message} titleHidden icon={<StatusIcon status="error" />}>
        <p className="portico-error" role="alert">
          {phase.message}
        </p>
        <Button variant="secondary" onClick={() => screen.back()}>
          {T.chooseAnotherMethod}
        </Button>
      </ScreenLayout>
    )
  }
  if (phase.kind === 'opening') return <ScreenLayout title={T.openingTitle} description={T.openingDescription} icon={<StatusIcon status="loading" />} />
  if (phase.status === 'success') {
    return (
      <ScreenLayout title={T.fundedTitle} description={T.fundedDescription} icon={<StatusIcon status="success" />}>
        <Button onClick={() => screen.close({ method: screen.params.experience === 'send' ? 'exchange' : 'card', provider: 'coinbase' })}>{T.continue}</Button>
      </ScreenLayout>
    )
  }
  return (
    <ScreenLayout
      title={T.inProgressTitle}
      description={phase.status === 'pending-after-flow' ? T.afterFlowDescription : T.inFlowDescription}
      icon={<StatusIcon status="loading" />}
    />
  )
}
