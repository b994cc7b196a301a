/**
 * Bench host: the e-mail-only app a host writes from the README ('Using it', React): the
 * provider with `appId`, `config` and `plugins: [email()]`, `usePortico()`, `useLogin()` and
 * `useUser()` from `portico/ui`, the stylesheet. Issue 27's small default entry: at most
 * 16 KB gzip initially (`budgets.readmeEmailInitial`). Built, never run.
 */
import { createRoot } from 'react-dom/client'
import { PorticoProvider, useLogin, usePortico, useUser } from 'portico/ui'
import { email } from 'portico/plugins/email'
import 'portico/ui/styles.css'

function App() {
  const { ready, authenticated, logout } = usePortico()
  const { login } = useLogin({ onComplete: ({ isNewUser }) => console.log(isNewUser ? 'Welcome!' : 'Welcome back!') })
  const { user } = useUser()
  if (!ready) return <p>Loading…</p>
  return authenticated ? (
    <p>
      Logged in as {user?.email?.address} <button onClick={() => void logout()}>Log out</button>
    </p>
  ) : (
    <button onClick={() => void login()}>Log in</button>
  )
}

createRoot(document.getElementById('root')!).render(
  <PorticoProvider appId="your-app-id-of-25-chars.." config={{ apiUrl: 'https://auth.example.com' }} plugins={[email()]}>
    <App />
  </PorticoProvider>,
)
