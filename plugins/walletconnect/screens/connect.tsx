/**
 * 'walletconnect-connect': the awaiting-connection screen of the WalletConnect connector.
 * While pairing: the QR code (desktop) or one link per wallet app (mobile: the wallet's
 * universal link carrying the `wc:` URI), 'Copy link', and 'Close QR code' ('Cancel' on mobile) — closing the QR counts as
 * the user rejecting ('You rejected the request', with 'Try connecting again'). The rest is
 * the wallet base's awaiting-connection screen (`walletConnectionScreen`): signing, 'Sign with
 * your wallet' (mobile), errors with Retry, done, the connect-only close.
 * The pairing URI is on the QR element as `data-portico-wc-uri`.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react'
import { Button, CopyButton, QrSlot, ScreenLayout, Spinner, StatusIcon, usePlugin, useScreen, useStore, useTexts } from 'portico/ui/screens'
import { formatText } from 'portico'
import { walletConnectionScreen, type ConnectionState, type WalletTexts } from 'portico/kits/wallet'
import { WALLETCONNECT_TEXTS } from '../strings'
import { walletDeepLink, walletOpenLink } from '../wallets'

const QrCode = lazy(() => import('./qr'))
const WalletConnection = lazy(walletConnectionScreen)

export default function WalletConnectConnectScreen() {
  const wc = usePlugin('walletconnect')
  const screen = useScreen<{ connectorId?: string; connectOnly?: boolean }>()
  const T = useTexts('walletconnect', WALLETCONNECT_TEXTS)
  const { uri, status: pairing, walletName, walletClientType } = useStore(wc.state)
  const connector = wc.connector()
  const [mobile] = useState(() => wc.isMobile())
  const known = wc.mobileWallets().find((w) => w.id === walletClientType)

  const waiting = (state: ConnectionState | null, back: ReactNode, S: WalletTexts) => {
    const s = state?.status ?? 'connecting'
    if (s === 'connecting' && pairing === 'pairing' && uri) {
      return (
        <ScreenLayout title={connector!.name} description={mobile ? T.chooseWallet : T.scan}>
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
    const title = signing ? S.signWithWallet : formatText(T.preparing, { wallet: connector!.name })
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

  return (
    <Suspense fallback={<ScreenLayout title={connector?.name ?? ''} icon={<StatusIcon status="loading" />} />}>
      <WalletConnection
        connector={connector ?? undefined}
        connectOnly={!!screen.params.connectOnly}
        name={walletName ?? undefined}
        renderWaiting={waiting}
        onLeave={() => wc.closeQr()}
      />
    </Suspense>
  )
}
