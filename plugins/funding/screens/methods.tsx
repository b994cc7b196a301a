/**
 * 'funding-methods': the amount (with 'Edit' → 'Confirm or edit amount') and the methods the
 * app and the request allow, from the kernel's `fundingMethods` hook. A method unsupported for
 * this request is shown disabled with its reason ('Coinbase is not available on {network}.'). On-ramps open their popup inside the click ('Unable to initialize flow' when the
 * browser blocks it). Opened with `forward`, it goes straight to the request's default method
 * (or the only one) when that needs no popup.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { formatText } from 'portico'
import { Button, ListButton, ScreenLayout, icons, useKernel, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { listFundingMethods, openFundingPopup, type FundingMethod } from 'portico/kits/funding'
import { FUNDING } from '../errors'
import { FUNDING_AMOUNT_SCREEN } from '../ids'
import { FUNDING_TEXTS } from '../strings'

type IconComponent = (props: { width?: number; height?: number }) => ReactNode

function iconOf(icon: unknown): ReactNode {
  if (typeof icon === 'function') {
    const Icon = icon as IconComponent
    return <Icon width={20} height={20} />
  }
  return typeof icon === 'string' ? <img src={icon} alt="" width={20} height={20} /> : null
}

export default function FundingMethodsScreen(_: ScreenProps) {
  const kernel = useKernel()
  const api = usePlugin('funding')
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  const screen = useScreen<{ forward?: boolean }>()
  const { request } = useStore(api.state)
  const [error, setError] = useState<string | null>(null)
  const listed = useMemo(() => (request ? listFundingMethods(kernel, request, api.config()) : []), [kernel, api, request])

  useEffect(() => {
    if (!screen.params.forward || !request) return
    const usable = listed.filter((m) => !m.unsupported && !m.method.popup)
    const target = request.defaultFundingMethod ? usable.find((m) => m.method.kind === request.defaultFundingMethod) : listed.length === 1 ? usable[0] : undefined
    if (target) screen.replace(target.method.screen, { ...target.method.params })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (!request) return <ScreenLayout title={T.methodsTitle}><p className="portico-error" role="alert">{T.somethingWentWrong}</p></ScreenLayout>

  const choose = (m: FundingMethod) => {
    setError(null)
    let popup = undefined
    if (m.popup) {
      popup = openFundingPopup()
      if (!popup) return setError(T.popupBlocked)
    }
    screen.open(m.screen, { ...m.params, popup })
  }

  return (
    <ScreenLayout
      title={T.methodsTitle}
      description={formatText(T.methodsDescription, { amount: request.amount, symbol: request.symbol })}
      icon={<icons.WalletIcon width={32} height={32} />}
    >
      <div className="portico-actions-row" data-funding-amount="">
        <span className="portico-emphasis">
          {request.amount} {request.symbol} · {request.network}
        </span>
        <Button variant="ghost" fullWidth={false} onClick={() => screen.open(FUNDING_AMOUNT_SCREEN)}>
          {T.editAmount}
        </Button>
      </div>
      {request.chainType === 'solana' && request.symbol === 'SOL' ? <SolValue amount={request.amount} /> : null}
      {error ? (
        <p className="portico-field-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="portico-list">
        {listed.map(({ method, unsupported }) => (
          <li key={method.id}>
            <ListButton
              method={method.id}
              label={method.label}
              icon={iconOf(method.icon ?? (method.popup ? icons.GlobeIcon : undefined))}
              disabled={!!unsupported}
              onClick={() => choose(method)}
            />
            {unsupported ? (
              <p className="portico-help" data-unsupported={method.id}>
                {unsupported}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </ScreenLayout>
  )
}

/**
 * The USD value of a SOL amount, or 'Unable to fetch SOL price' when the price cannot be
 * fetched (the server's price source unreachable or failing).
 */
function SolValue({ amount }: { amount: string }) {
  const api = usePlugin('funding')
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  const [value, setValue] = useState<{ usd: number } | { failed: true } | null>(null)
  useEffect(() => {
    let live = true
    setValue(null)
    api.solUsdValue(amount).then(
      (usd) => live && setValue({ usd }),
      () => live && setValue({ failed: true }),
    )
    return () => {
      live = false
    }
  }, [api, amount])
  if (!value) return null
  if ('failed' in value) {
    return (
      <p className="portico-field-error" role="alert" data-funding-price-error="">
        {T.solPriceError}
      </p>
    )
  }
  return (
    <p className="portico-help" data-funding-usd="">
      {formatText(T.usdValue, { usd: value.usd.toFixed(2) })}
    </p>
  )
}
