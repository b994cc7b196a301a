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
const kernel = createPortico({ ...config, appId, plugins: demoPlugins(oauth, wallet) })
// Tests read the kernel from the page.
;(window as unknown as { portico: typeof kernel }).portico = kernel

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
