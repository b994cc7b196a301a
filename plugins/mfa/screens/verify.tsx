/**
 * 'mfa-verify' — 'Verify your identity' (part 2 sections 2, 4, 8): the first of the user's
 * methods preselected and initialised on open; code methods show the six boxes and 'Not
 * now'; passkey runs by itself ('Verifying with passkey', 'Try again' when it failed);
 * 'Choose another method' only with more than one method; 'The code you entered is not
 * valid' inline; a blocking error (max attempts, time limit) disables input.
 */
import { useEffect, useRef, useState } from 'react'
import { Button, ListButton, ScreenLayout, Spinner, icons, useKernel, usePlugin, useStore, useTexts, type CodeInputHandle } from 'portico/ui/screens'
import { CODE_LENGTH } from 'portico/ui'
import { MfaCodeBoxes, type MfaType } from 'portico/kits/mfa'
import { MFA_TEXTS } from '../strings'

export function methodLabel(type: MfaType, T: typeof MFA_TEXTS): string {
  return type === 'totp' ? T.totpLabel : type === 'sms' ? T.smsLabel : T.passkeyLabel
}

export function MethodIcon({ type }: { type: MfaType }) {
  return type === 'sms' ? <icons.PhoneIcon width={20} height={20} /> : type === 'passkey' ? <icons.KeyIcon width={20} height={20} /> : <icons.LockIcon width={20} height={20} />
}

export default function MfaVerifyScreen() {
  const kernel = useKernel()
  const api = usePlugin('mfa')
  const state = useStore(api.state)
  const T = useTexts('mfa', MFA_TEXTS)
  const [choosing, setChoosing] = useState(false)
  const boxes = useRef<CodeInputHandle>(null)
  const methods = state.methods.length ? state.methods : api.methods()
  const method = state.method
  const blocked = state.blocking !== null

  // The first method, preselected and initialised on open.
  useEffect(() => {
    // The store's state now (a remounted screen must not initialise twice).
    const now = api.state.get()
    if (!now.method && methods[0] && !now.blocking && now.pending) void api.init(methods[0]).catch(() => {})
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // A wrong code clears the boxes (the message stays until the next code).
  useEffect(() => {
    if (state.status === 'awaiting-code' && state.error) boxes.current?.reset()
  }, [state.status, state.error, state.attempts])

  const leave = () => {
    api.cancel()
    const nav = kernel.screens
    if (nav.getState().current?.id !== 'mfa-verify') return
    if (nav.getState().stack.length > 1) nav.back()
    else nav.dismiss()
  }
  const choose = (type: MfaType) => {
    setChoosing(false)
    void api.init(type).catch(() => {})
  }

  const help =
    state.reason === 'change'
      ? T.verificationRequired
      : method === 'totp'
        ? T.codeHelpTotp
        : method === 'sms'
          ? T.codeHelpSms
          : method === 'passkey'
            ? T.passkeyHelp
            : undefined

  const another =
    methods.length > 1 && !blocked ? (
      <Button variant="ghost" onClick={() => setChoosing(true)} disabled={state.status === 'submitting'}>
        {T.chooseAnother}
      </Button>
    ) : null

  if (choosing) {
    return (
      <ScreenLayout title={T.verifyTitle} description={T.chooseDescription} back={() => setChoosing(false)}>
        <div className="portico-list" role="list" data-mfa-choose="">
          {methods.map((m) => (
            <ListButton key={m} method={m} icon={<MethodIcon type={m} />} label={methodLabel(m, T)} onClick={() => choose(m)} />
          ))}
        </div>
      </ScreenLayout>
    )
  }

  return (
    <ScreenLayout
      title={T.verifyTitle}
      description={help}
      icon={<icons.LockIcon width={28} height={28} />}
      back={false}
    >
      <div data-mfa-verify="" data-mfa-method={method ?? ''} data-mfa-status={state.status} data-mfa-blocking={state.blocking ?? ''}>
        {method === 'passkey' ? (
          state.status === 'verifying-passkey' ? (
            <div className="portico-actions">
              <Spinner size="large" label={T.verifyingWithPasskey} />
              <p className="portico-help">{T.verifyingWithPasskey}</p>
            </div>
          ) : (
            <>
              {state.error ? (
                <p className="portico-field-error" role="alert">
                  {state.error}
                </p>
              ) : null}
              {!blocked ? <Button onClick={() => void api.init('passkey').catch(() => {})}>{T.tryAgain}</Button> : null}
            </>
          )
        ) : method ? (
          <>
            <MfaCodeBoxes
              ref={boxes}
              key={method}
              disabled={blocked || state.status === 'submitting' || state.status === 'initializing' || state.status === 'success'}
              error={blocked ? null : state.error}
              status={state.status === 'success' ? 'success' : undefined}
              onComplete={(code) => {
                if (code.length === CODE_LENGTH) void api.submit(method, code).catch(() => {})
              }}
            />
            {blocked ? (
              <p className="portico-field-error" role="alert" data-mfa-blocking-text="">
                {state.error}
              </p>
            ) : null}
          </>
        ) : state.error ? (
          <p className="portico-field-error" role="alert">
            {state.error}
          </p>
        ) : (
          <Spinner />
        )}
      </div>
      <div className="portico-actions">
        {another}
        {method !== 'passkey' || blocked ? (
          <Button variant="secondary" onClick={leave}>
            {T.notNow}
          </Button>
        ) : null}
      </div>
    </ScreenLayout>
  )
}
