/**
 * The link-conflict prompt and the check-assets screen (part 1 sections 2 and 4).
 * Prompt → 'Continue' (the other account has an embedded wallet) → check-assets → transfer;
 * or 'Transfer and delete account' right away; 'No thanks' ends the link flow.
 */
import { useState } from 'react'
import { formatText, isPorticoError, type PorticoError, type WireAccountTransferData } from 'portico'
import { Button, CopyButton, ScreenLayout, useCompleteLogin, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import { ACCOUNT_TEXTS } from '../strings'
import { ACCOUNT_SCREENS, TRANSFER_COPY_RESET_MS } from '../transfer'

type Params = { error?: PorticoError; transfer?: WireAccountTransferData }

function useTransferData(): WireAccountTransferData | null {
  const { params } = useScreen<Params>()
  return usePlugin('account').transferData(params.transfer ?? (isPorticoError(params.error) ? params.error.data : undefined))
}

/** The transfer button: loading, then 'Success!', then the flow closes (1400 ms). */
function TransferButton({ data, onState }: { data: WireAccountTransferData; onState: (s: 'idle' | 'loading' | 'success') => void }) {
  const accounts = usePlugin('account')
  const T = useTexts('account', ACCOUNT_TEXTS)
  const { error } = useScreen()
  const complete = useCompleteLogin()
  const [state, setLocal] = useState<'idle' | 'loading' | 'success'>('idle')
  const setState = (s: 'idle' | 'loading' | 'success') => {
    setLocal(s)
    onState(s)
  }
  const run = async () => {
    setState('loading')
    try {
      const res = await accounts.transfer(data)
      setState('success')
      await complete(res, { intent: 'link', method: accounts.methodOf(data.link_method) })
    } catch (e) {
      setState('idle')
      error(e, { method: accounts.methodOf(data.link_method) })
    }
  }
  return (
    <Button
      variant="primary"
      loading={state === 'loading'}
      disabled={state === 'success'}
      data-portico-transfer=""
      onClick={() => void run()}
    >
      {state === 'success' ? T.success : T.transferAndDelete}
    </Button>
  )
}

function Missing() {
  const T = useTexts('account', ACCOUNT_TEXTS)
  const { dismiss } = useScreen()
  return (
    <ScreenLayout title={T.missingData}>
      <Button variant="secondary" onClick={dismiss}>
        {T.noThanks}
      </Button>
    </ScreenLayout>
  )
}

export function LinkConflictScreen() {
  const T = useTexts('account', ACCOUNT_TEXTS)
  const accounts = usePlugin('account')
  const data = useTransferData()
  const { open, dismiss } = useScreen()
  const [busy, setBusy] = useState(false)
  if (!data) return <Missing />
  const method = accounts.label(data.link_method)
  return (
    <ScreenLayout
      // The code behind this screen is spent: no way back to it; no closing while transferring.
      back={false}
      close={!busy}
      title={formatText(T.conflictTitle, { method })}
      description={formatText(T.conflictBody, { account: data.display_name || data.account })}
    >
      <div className="portico-actions" data-portico-link-conflict="" data-link-method={data.link_method}>
        {data.embedded_wallet_address ? (
          <Button variant="primary" onClick={() => open(ACCOUNT_SCREENS.checkAssets, { transfer: data })}>
            {T.continue}
          </Button>
        ) : (
          <TransferButton data={data} onState={(st) => setBusy(st !== 'idle')} />
        )}
        <Button variant="secondary" onClick={dismiss} disabled={busy}>
          {T.noThanks}
        </Button>
      </div>
    </ScreenLayout>
  )
}

export function CheckAssetsScreen() {
  const T = useTexts('account', ACCOUNT_TEXTS)
  const data = useTransferData()
  const [busy, setBusy] = useState(false)
  if (!data) return <Missing />
  const address = data.embedded_wallet_address
  return (
    <ScreenLayout title={T.checkAssetsTitle} description={T.checkAssetsBody} back={!busy} close={!busy}>
      <div className="portico-actions" data-portico-check-assets="">
        {address ? (
          <div className="portico-field">
            <span className="portico-label">{T.walletAddress}</span>
            <p className="portico-help" data-portico-wallet-address="">
              <code className="portico-emphasis">{address}</code>
              <CopyButton value={address} label={T.copy} copiedLabel={T.copied} resetAfterMs={TRANSFER_COPY_RESET_MS} />
            </p>
          </div>
        ) : null}
        <TransferButton data={data} onState={(st) => setBusy(st !== 'idle')} />
      </div>
    </ScreenLayout>
  )
}

