/**
 * Host code as the README writes it (root README 'Using it' and ui/README.md), type-checked by
 * test/consumer/consumer.test.ts against the packed tarball, with moduleResolution `bundler`
 * and `node16`.
 */
import { createPortico } from 'portico'
import { email } from 'portico/plugins/email'
import { google } from 'portico/plugins/google'
import { embeddedWallet } from 'portico/plugins/embedded-wallet'
import { PorticoProvider, useLogin, useUser, usePortico } from 'portico/ui'
import { porticoConnector } from 'portico/wagmi'
import 'portico/ui/styles.css'

export const portico = createPortico({
  appId: 'your-app-id-of-25-chars..',
  apiUrl: 'https://auth.example.com',
  plugins: [email(), google(), embeddedWallet({ frameUrl: 'https://wallet.example.com', createOnLogin: 'users-without-wallets' })],
})
export const ready: Promise<void> = portico.ready()
export const connector = porticoConnector({ kernel: portico })

function Profile() {
  const { ready, authenticated, logout } = usePortico()
  const { login } = useLogin()
  const { user } = useUser()
  if (!ready) return <p>Loading…</p>
  return authenticated ? (
    <button onClick={() => void logout()}>{user?.email?.address ?? user?.id}</button>
  ) : (
    <button onClick={() => void login()}>Log in</button>
  )
}

export function App() {
  return (
    <PorticoProvider kernel={portico}>
      <Profile />
    </PorticoProvider>
  )
}
