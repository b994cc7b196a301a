/**
 * The link-conflict prompt and the check-assets screen (part 1 sections 2 and 4).
 * Prompt → 'Continue' (the other account has an embedded wallet) → check-assets → transfer;
 * or 'Transfer and delete account' right away; 'No thanks' ends the link flow.
 */
import { useState } from 'react'
import { formatText, isPorticoError, type PorticoError, type WireAccountTransferData } from 'portico'
import { Button, CopyButton, ScreenLayout, useCompleteLogin, useKernel, useScreen } from 'portico/ui'
import { transfer, transferData } from '../calls'
import { ACCOUNT_TEXTS, methodLabel } from '../strings'
import { accountOptions, TRANSFER_COPY_RESET_MS } from '../index'

type Params = { error?: PorticoError; transfer?: WireAccountTransferData }

function useTransferData(): WireAccountTransferData | null {
  const { params } = useScreen<Params>()
  return transferData(params.transfer ?? (isPorticoError(params.error) ? params.error.data : undefined))
}

/** The transfer button: loading, then 'Success!', then the flow closes (1400 ms). */
function TransferButton({ data, onState }: { data: WireAccountTransferData; onState: (s: 'idle' | 'loading' | 'success') => void }) {
  const kernel = useKernel()
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
      const res = await transfer(kernel.api, data, accountOptions(kernel).transfers)
      setState('success')
      await complete(res, { intent: 'link', method: data.link_method })
    } catch (e) {
      setState('idle')
      error(e, { method: data.link_method })
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
      {state === 'success' ? ACCOUNT_TEXTS.success : ACCOUNT_TEXTS.transferAndDelete}
    </Button>
  )
}

function Missing() {
  const { dismiss } = useScreen()
  return (
    <ScreenLayout title={ACCOUNT_TEXTS.missingData}>
      <Button variant="secondary" onClick={dismiss}>
        {ACCOUNT_TEXTS.noThanks}
      </Button>
    </ScreenLayout>
  )
}

export function LinkConflictScreen() {
  const data = useTransferData()
  const { open, dismiss } = useScreen()
  const [busy, setBusy] = useState(false)
  if (!data) return <Missing />
  const method = methodLabel(data.link_method)
  return (
    <ScreenLayout
      // The code behind this screen is spent: no way back to it; no closing while transferring.
      back={false}
      close={!busy}
      title={formatText(ACCOUNT_TEXTS.conflictTitle, { method })}
      description={formatText(ACCOUNT_TEXTS.conflictBody, { account: data.display_name || data.account })}
    >
      <div className="portico-actions" data-portico-link-conflict="" data-link-method={data.link_method}>
        {data.embedded_wallet_address ? (
          <Button variant="primary" onClick={() => open('check-assets', { transfer: data })}>
            {ACCOUNT_TEXTS.continue}
          </Button>
        ) : (
          <TransferButton data={data} onState={(st) => setBusy(st !== 'idle')} />
        )}
        <Button variant="secondary" onClick={dismiss} disabled={busy}>
          {ACCOUNT_TEXTS.noThanks}
        </Button>
      </div>
    </ScreenLayout>
  )
}

export function CheckAssetsScreen() {
  const data = useTransferData()
  const [busy, setBusy] = useState(false)
  if (!data) return <Missing />
  const address = data.embedded_wallet_address
  return (
    <ScreenLayout title={ACCOUNT_TEXTS.checkAssetsTitle} description={ACCOUNT_TEXTS.checkAssetsBody} back={!busy} close={!busy}>
      <div className="portico-actions" data-portico-check-assets="">
        {address ? (
          <div className="portico-field">
            <span className="portico-label">{ACCOUNT_TEXTS.walletAddress}</span>
            <p className="portico-help" data-portico-wallet-address="">
              <code className="portico-emphasis">{address}</code>
              <CopyButton value={address} label={ACCOUNT_TEXTS.copy} copiedLabel={ACCOUNT_TEXTS.copied} resetAfterMs={TRANSFER_COPY_RESET_MS} />
            </p>
          </div>
        ) : null}
        <TransferButton data={data} onState={(st) => setBusy(st !== 'idle')} />
      </div>
    </ScreenLayout>
  )
}

