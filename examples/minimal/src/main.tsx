/** The smallest Portico app: e-mail login only. `vite build` output is what the bundle benchmark measures. */
import { createRoot } from 'react-dom/client'
import { PorticoProvider, usePortico } from 'portico/ui'
import { email } from 'portico/plugins/email'
import 'portico/ui/styles.css'

const params = new URLSearchParams(window.location.search)

function App() {
  const { ready, authenticated, user, login, logout } = usePortico()
  if (!ready) return <p>Loading…</p>
  return authenticated ? (
    <p>
      Logged in as {user?.email?.address ?? user?.id} <button onClick={() => void logout()}>Log out</button>
    </p>
  ) : (
    <button onClick={() => void login()}>Log in</button>
  )
}

createRoot(document.getElementById('root')!).render(
  <PorticoProvider
    appId={params.get('app') ?? 'portico-demo-app-00000001'}
    config={{ apiUrl: params.get('api') ?? 'http://127.0.0.1:8787', loginMethods: ['email'] }}
    plugins={[email()]}
  >
    <App />
  </PorticoProvider>,
)
