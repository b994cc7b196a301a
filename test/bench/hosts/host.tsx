/**
 * The host code of the bench's plugin-set entries (./every-plugin.tsx, ./identity.tsx): the
 * provider and a login button, as in examples/minimal, and nothing else (no demo panels), so
 * that their initial load is the plugins' and Portico's own. Built, never run.
 */
import { createRoot } from 'react-dom/client'
import type { PorticoPlugin } from 'portico'
import { PorticoProvider, usePortico } from 'portico/ui'
import 'portico/ui/styles.css'

function App() {
  const { ready, authenticated, user, login, logout } = usePortico()
  if (!ready) return <p>Loading…</p>
  return authenticated ? (
    <p>
      Logged in as {user?.id} <button onClick={() => void logout()}>Log out</button>
    </p>
  ) : (
    <button onClick={() => void login()}>Log in</button>
  )
}

export function mount(plugins: PorticoPlugin[]): void {
  createRoot(document.getElementById('root')!).render(
    <PorticoProvider appId="portico-demo-app-00000001" config={{ apiUrl: 'http://127.0.0.1:8787' }} plugins={plugins}>
      <App />
    </PorticoProvider>,
  )
}
