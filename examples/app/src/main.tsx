import { StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { createPortico } from 'portico'
import { PorticoProvider } from 'portico/ui'
import 'portico/ui/styles.css'
import './app.css'
import { App } from './App'
import { demoPlugins } from './plugins'
import { CrossAppTransactPage } from 'portico/plugins/cross-app'
import { settingsFromUrl } from './settings'

const { appId, config, oauth, wallet } = settingsFromUrl(window.location.search)
const kernel = createPortico({
  ...config,
  appId,
  plugins: demoPlugins(oauth, wallet, { coinbase: new URLSearchParams(window.location.search).get('coinbase') === '1' }),
})
// Tests read the kernel from the page.
;(window as unknown as { portico: typeof kernel }).portico = kernel
// ... and what wagmi sees of the user's wallets through portico/wagmi (loaded on call).
;(window as unknown as { porticoWagmi: () => Promise<unknown> }).porticoWagmi = () => import('./wagmi-demo').then((m) => m.readWagmi(kernel))
// ... and the connect-only flow (a wallet's account without signing in): useConnectWallet's.
;(window as unknown as { porticoConnectWallet: () => Promise<unknown> }).porticoConnectWallet = () =>
  import('portico/kits/wallet').then((m) => m.connectWallet(kernel)).then(({ wallet }) => ({ address: wallet.address, walletClientType: wallet.walletClientType, connectorType: wallet.connectorType, linked: wallet.linked }))

// ... and the external wallets connected now (connectedWallets; e.g. reconnected after a reload).
;(window as unknown as { porticoExternalWallets: () => Promise<unknown> }).porticoExternalWallets = () =>
  import('portico/kits/wallet').then((m) => m.connectedWallets(kernel).map((w) => ({ address: w.address, walletClientType: w.walletClientType, connectorType: w.connectorType, linked: w.linked })))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PorticoProvider kernel={kernel}>
      {window.location.pathname === '/oauth/transact' ? (
        // This app as a cross-app provider: the page a requester app opens in a popup.
        <Suspense fallback={null}>
          <CrossAppTransactPage providerName={new URLSearchParams(window.location.search).get('provider') ?? appId} search={window.location.search} />
        </Suspense>
      ) : (
        <App appId={appId} />
      )}
    </PorticoProvider>
  </StrictMode>,
)
