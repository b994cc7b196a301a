/**
 * 'funding-amount': 'Confirm or edit amount'. The field keeps digits and one dot (a leading dot
 * becomes '0.'); Continue needs an amount above 0.
 */
import { useState } from 'react'
import { Button, ScreenLayout, TextInput, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { isPositiveAmount, sanitizeAmount } from 'portico/kits/funding'
import { FUNDING } from '../errors'
import { FUNDING_TEXTS } from '../strings'

export default function FundingAmountScreen(_: ScreenProps) {
  const api = usePlugin('funding')
  const T = useTexts(FUNDING, FUNDING_TEXTS)
  const screen = useScreen()
  const { request } = useStore(api.state)
  const [value, setValue] = useState(request?.amount ?? '')
  const ok = isPositiveAmount(value)
  const submit = () => {
    if (!ok) return
    api.setAmount(value)
    screen.back()
  }
  return (
    <ScreenLayout title={T.editAmountTitle}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <TextInput
          label={T.amountLabel}
          value={value}
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          onChange={(e) => setValue(sanitizeAmount(e.target.value))}
          trailing={<span className="portico-emphasis">{request?.symbol}</span>}
        />
        <Button type="submit" disabled={!ok}>
          {T.continue}
        </Button>
      </form>
    </ScreenLayout>
  )
}
