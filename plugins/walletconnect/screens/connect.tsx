/**
 * 'walletconnect-connect': the awaiting-connection screen of the WalletConnect connector.
 * While pairing: the QR code (desktop) or one link per wallet app (mobile: the wallet's
 * universal link carrying the `wc:` URI), 'Copy link', and 'Close QR code' ('Cancel' on mobile) — closing the QR counts as
 * the user rejecting ('You rejected the request', with 'Try connecting again'). Then the wallet
 * base's connection states: signing, 'Sign with your wallet' (mobile), errors with Retry, done.
 * The pairing URI is on the QR element as `data-portico-wc-uri`.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Button, CLOSE_DELAY_MS, CopyButton, QrSlot, ScreenLayout, Spinner, StatusIcon, useCompleteLogin, useKernel, usePlugin, useScreen, useStore, useTexts } from 'portico/ui'
import { formatText } from 'portico'
import { createWalletConnection, walletErrorText, WALLET_TEXTS, type ConnectionState, type WalletConnection } from 'portico/plugins/wallet'
import { WALLETCONNECT_TEXTS } from '../strings'
import { walletDeepLink, walletOpenLink } from '../wallets'

const QrCode = lazy(() => import('./qr'))

export default function WalletConnectConnectScreen() {
  const kernel = useKernel()
  const wc = usePlugin('walletconnect')
  const screen = useScreen<{ connectorId?: string; connectOnly?: boolean }>()
  // Connect-only (the wallet base's connect-only list): the account, no sign-in.
  const connectOnly = !!screen.params.connectOnly
  const S = useTexts('wallet', WALLET_TEXTS)
  const T = useTexts('walletconnect', WALLETCONNECT_TEXTS)
  const complete = useCompleteLogin()
  const { uri, status: pairing, walletName, walletClientType } = useStore(wc.state)
  const connector = wc.connector()
  const intent = screen.intent === 'link' ? 'link' : 'login'
  const [state, setState] = useState<ConnectionState | null>(null)
  const [mobile] = useState(() => wc.isMobile())
  const conn = useRef<WalletConnection | null>(null)
  const errorRef = useRef(screen.error)
  errorRef.current = screen.error

  useEffect(() => {
    if (!connector) return
    // `connectOnly` is honoured by wallet bases that support it (passed through untyped).
    const hooks = {
      confirmSign: connector.confirmSign,
      connectOnly,
      onError: (e: Parameters<typeof screen.error>[0]) => {
        const context = { method: 'siwe' }
        if (kernel.screens.hasOwnScreen(e, context)) errorRef.current(e, context)
      },
    }
    const c = createWalletConnection(connector, intent, (response, meta) => complete(response, meta), hooks)
    conn.current = c
    setState(c.getState())
    let closing: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = c.subscribe((st) => {
      setState(st)
      if (connectOnly && st.status === 'done' && !closing) {
        closing = setTimeout(() => {
          if (kernel.screens.getState().open) kernel.screens.close({ wallet: { address: st.address, connectorId: connector.id } })
        }, CLOSE_DELAY_MS)
      }
    })
    void c.start()
    return () => {
      clearTimeout(closing)
      unsubscribe()
      c.cancel()
      wc.closeQr()
    }
    // One connection per screen; `complete` is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connector?.id, intent])

  if (!connector) {
    return (
      <ScreenLayout title={S.couldNotLogIn} description={S.unsupportedWallet} icon={<StatusIcon status="error" />}>
        <Button variant="secondary" onClick={() => screen.back()}>
          {S.useDifferentWallet}
        </Button>
      </ScreenLayout>
    )
  }

  const s = state?.status ?? 'connecting'
  const back = (
    <Button variant="secondary" onClick={() => screen.back()}>
      {S.useDifferentWallet}
    </Button>
  )
  const known = wc.mobileWallets().find((w) => w.id === walletClientType)

  if (s === 'error' && state?.error) {
    const text = walletErrorText(state.error, state.phase, state.retriesUsed, S)
    return (
      <ScreenLayout title={text.title} description={text.hint} icon={<StatusIcon status="error" />}>
        <div className="portico-actions" data-portico-wallet-status="error">
          {state.canRetry ? (
            <Button onClick={() => void conn.current?.retry()}>{state.phase === 'sign' ? S.retry : S.tryConnectingAgain}</Button>
          ) : null}
          {back}
        </div>
      </ScreenLayout>
    )
  }

  if (s === 'done') {
    return (
      <ScreenLayout title={S.connected} icon={<StatusIcon status="success" />}>
        <div data-portico-wallet-status="done" />
      </ScreenLayout>
    )
  }

  if (s === 'ready') {
    return (
      <ScreenLayout title={walletName ?? connector.name} icon={<StatusIcon status="loading" />}>
        <div className="portico-actions" data-portico-wallet-status="ready">
          <Button onClick={() => void conn.current?.sign()}>{S.signWithWallet}</Button>
          {back}
        </div>
      </ScreenLayout>
    )
  }

  if (s === 'connecting' && pairing === 'pairing' && uri) {
    return (
      <ScreenLayout title={connector.name} description={mobile ? T.chooseWallet : T.scan}>
        <div data-portico-wc-pairing={mobile ? 'mobile' : 'qr'} data-portico-wc-uri={uri}>
          {mobile ? (
            <ul className="portico-list" data-portico-wc-wallets="">
              {wc.mobileWallets().map((w) => (
                <li key={w.id}>
                  <a className="portico-button" data-variant="secondary" data-full="" data-portico-wc-wallet={w.id} href={walletDeepLink(w, uri)} rel="noopener noreferrer">
                    <span className="portico-button-label">{formatText(T.openWallet, { wallet: w.name })}</span>
                  </a>
                </li>
              ))}
              <li>
                <a className="portico-button" data-variant="ghost" data-full="" data-portico-wc-wallet="other" href={uri}>
                  <span className="portico-button-label">{T.otherWallet}</span>
                </a>
              </li>
            </ul>
          ) : (
            <QrSlot>
              <Suspense fallback={<Spinner />}>
                <QrCode value={uri} label={T.scan} />
              </Suspense>
            </QrSlot>
          )}
        </div>
        <div className="portico-actions">
          <CopyButton value={uri} label={T.copyLink} copiedLabel={T.copied} />
          <Button variant="secondary" data-portico-wc-close="" onClick={() => wc.closeQr()}>
            {mobile ? T.cancel : T.closeQr}
          </Button>
        </div>
      </ScreenLayout>
    )
  }

  const signing = s === 'signing'
  const title = signing ? S.signWithWallet : formatText(T.preparing, { wallet: connector.name })
  return (
    <ScreenLayout title={title} description={signing ? T.signOnPhone : undefined} icon={<StatusIcon status="loading" />}>
      <div className="portico-actions" data-portico-wallet-status={s}>
        {signing && mobile && known ? (
          <a className="portico-button" data-variant="primary" data-full="" data-portico-wc-open={known.id} href={walletOpenLink(known)} rel="noopener noreferrer">
            <span className="portico-button-label">{formatText(T.openWallet, { wallet: known.name })}</span>
          </a>
        ) : null}
        {back}
      </div>
    </ScreenLayout>
  )
}
