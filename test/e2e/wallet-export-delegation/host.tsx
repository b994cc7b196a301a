/**
 * The host app of the export/delegation browser test: a React page on its own origin with the
 * real modal, the e-mail login, embedded wallets (frame on another origin), key export and
 * delegated actions, and the demo app's export/delegation buttons (examples/app/src/wallet-access.tsx).
 * Settings from the query: app, api, frame, theme, mfa=1 (the MFA plugins).
 */
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { createPortico } from 'portico'
import { PorticoProvider, useLogin, usePortico, useUser } from 'portico/ui'
import { email } from 'portico/plugins/email'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'
import { walletExport } from 'portico/plugins/wallet-export'
import { delegatedActions } from 'portico/plugins/delegated-actions'
import { mfa } from 'portico/plugins/mfa'
import { mfaTotp } from 'portico/plugins/mfa-totp'
import { WalletAccess } from '../../../examples/app/src/wallet-access'

const q = new URLSearchParams(location.search)
const kernel = createPortico({
  appId: q.get('app')!,
  apiUrl: q.get('api')!,
  appearance: { theme: q.get('theme') === 'dark' ? 'dark' : 'light' },
  plugins: [
    email(),
    embeddedWallet({ frameUrl: q.get('frame')!, createOnLogin: 'all-users' }),
    walletExport(),
    delegatedActions(),
    // ?mfa=1: verification before sensitive actions (the MFA plugin taps sensitiveAction).
    ...(q.get('mfa') === '1' ? [mfa(), mfaTotp()] : []),
  ],
})
;(window as unknown as { portico: typeof kernel }).portico = kernel

function App() {
  const { ready, authenticated } = usePortico()
  const { user } = useUser()
  const { login } = useLogin()
  const [result, setResult] = useState('')
  return (
    <main>
      <p data-testid="status">{!ready ? 'loading' : authenticated ? 'logged in' : 'logged out'}</p>
      {!authenticated ? (
        <button onClick={() => void login()} data-testid="login">
          Log in
        </button>
      ) : null}
      <WalletAccess onResult={setResult} />
      <p data-testid="result">{result}</p>
      <pre data-testid="user">{user ? JSON.stringify(user) : 'No user'}</pre>
    </main>
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PorticoProvider kernel={kernel}>
      <App />
    </PorticoProvider>
  </StrictMode>,
)
