/**
 * The mobile interstitial (spec part 1 section 2, part 2 section 4): 'Redirecting to Phantom
 * Mobile Wallet' (the wallet's name) while the page hands over to the wallet app through its
 * deep link; if the page is still here after about 1 s (the app is not installed), 'Go to App
 * Store' links to the wallet's store page. Params: `{ connectorId }` (a redirect connector,
 * whose `connect` builds the deep link and leaves the page) or `{ brand }` (a brand's
 * in-app-browser link to this page).
 */
import { useEffect, useState } from 'react'
import { ScreenLayout, StatusIcon, useKernel, useScreen, useTexts } from 'portico/ui/screens'
import { formatText } from 'portico'
import { brandLinks } from '../brand-links'
import { brandName, mobilePlatform, walletBrand, isLoginConnector, WALLET_CONNECT_SCREEN, WALLET_FAILED_SCREEN, APP_STORE_FALLBACK_MS, navigateTo, pageUrl } from '../base'
import { WALLET_TEXTS } from '../strings'
import { WalletLogo } from './wallet-logo'

/** How long the interstitial shows before the page hands over to the wallet app. */
export const REDIRECT_SETTLE_MS = 50

export default function WalletMobileRedirectScreen() {
  const kernel = useKernel()
  const screen = useScreen<{ connectorId?: string; brand?: string; connectOnly?: boolean }>()
  const S = useTexts('wallet', WALLET_TEXTS)
  const connector = screen.params.connectorId
    ? kernel.hooks.walletConnectors.call([]).filter(isLoginConnector).find((c) => c.id === screen.params.connectorId)
    : undefined
  const brand = walletBrand(screen.params.brand ?? connector?.walletClientType)
  const name = connector?.name ?? (brand ? brandName(brand, kernel.config.name) : '')
  const links = brandLinks(brand?.id)
  const [fallback, setFallback] = useState(false)

  useEffect(() => {
    const controller = new AbortController()
    const fallbackTimer = setTimeout(() => {
      if (typeof document === 'undefined' || document.visibilityState !== 'hidden') setFallback(true)
    }, APP_STORE_FALLBACK_MS)
    const fail = (e: unknown) => {
      if (!controller.signal.aborted) {
        screen.replace(WALLET_FAILED_SCREEN, { connectorId: connector?.id, brand: brand?.id, cause: String((e as Error)?.message ?? e) })
      }
    }
    // Leave the page a moment after the screen settled: the modal mounts a screen once, but
    // React's StrictMode (development) runs effects twice; only the mount that stays opens
    // the wallet app.
    const leave = setTimeout(() => {
      try {
        if (connector) {
          // A redirect connector leaves the page; one already connected answers at once.
          connector.connect(controller.signal).then(() => {
            if (!controller.signal.aborted) screen.replace(WALLET_CONNECT_SCREEN, { connectorId: connector.id, connectOnly: screen.params.connectOnly })
          }, fail)
        } else if (brand && links.browseUrl) {
          navigateTo(links.browseUrl(pageUrl()))
        }
      } catch (e) {
        fail(e)
      }
    }, REDIRECT_SETTLE_MS)
    return () => {
      controller.abort()
      clearTimeout(fallbackTimer)
      clearTimeout(leave)
    }
    // Once per screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const platform = mobilePlatform()
  const store = links.appStore ? links.appStore[platform === 'android' ? 'android' : 'ios'] : links.installUrl
  return (
    <ScreenLayout
      title={formatText(S.redirecting, { wallet: name })}
      icon={<StatusIcon status="loading"><WalletLogo src={connector?.icon} brand={brand?.id} size={32} /></StatusIcon>}
    >
      <div className="portico-actions" data-portico-wallet-redirect={fallback ? 'fallback' : 'waiting'}>
        {fallback && store ? (
          <a className="portico-button" data-variant="primary" data-full="" href={store} target="_blank" rel="noopener noreferrer">
            <span className="portico-button-label">{S.goToAppStore}</span>
          </a>
        ) : null}
      </div>
    </ScreenLayout>
  )
}
