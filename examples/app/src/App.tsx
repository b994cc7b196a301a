import { lazy, Suspense, useState } from 'react'
import { useLinkAccount, useLogin, useLogout, usePortico, useUser, type LoginSuccess } from 'portico/ui'
import { useUnlinkEmail, useUpdateEmail } from 'portico/plugins/email'
import { useUnlinkWallet } from 'portico/kits/wallet'
import { usePlugin } from 'portico/ui'
import { useUnlinkFarcaster } from 'portico/plugins/farcaster'
import type { PorticoError } from 'portico'
import { AccountExtras } from './account-extras'
import { ConfirmButton } from './confirm-button'
import { MfaExtras } from './mfa-extras'
import { OAuthExtras } from './oauth-extras'
// The wallet panel (and viem) load when a user is logged in.
const WalletPanel = lazy(() => import('./wallet-panel').then((m) => ({ default: m.WalletPanel })))
import { FundingDemo, LOCAL_EVM_RPC } from './funding-demo'
// Export and delegation controls: their own chunk, shown once a user has an embedded wallet.
const WalletAccess = lazy(() => import('./wallet-access').then((m) => ({ default: m.WalletAccess })))
const ApprovalsPanel = lazy(() => import('./approvals-panel').then((m) => ({ default: m.ApprovalsPanel })))
const SmartWalletPanel = lazy(() => import('./smart-wallet-panel').then((m) => ({ default: m.SmartWalletPanel })))

export function App({ appId }: { appId: string }) {
  const { ready, status, authenticated, error, retry } = usePortico()
  const { user } = useUser()
  const [result, setResult] = useState<string>('')
  const onComplete = (r: LoginSuccess) => setResult(`complete: ${r.method ?? 'login'}${r.isNewUser ? ' (new user)' : ''}`)
  const onError = (e: PorticoError) => setResult(`error: ${e.code}`)
  const { login } = useLogin({ onComplete, onError })
  const { link } = useLinkAccount({ onComplete: () => setResult('complete: link'), onError })
  const { updateEmail } = useUpdateEmail({ onComplete: () => setResult('complete: update'), onError })
  const { unlinkEmail } = useUnlinkEmail()
  const { unlinkWallet } = useUnlinkWallet()
  const { unlinkFarcaster } = useUnlinkFarcaster()
  const { logout } = useLogout({ onSuccess: () => setResult('logged out') })
  const telegram = usePlugin('telegram')

  return (
    <main className="demo">
      <header className="demo-header">
        <h1>Portico demo</h1>
        <p className="demo-sub">
          App <code>{appId}</code> · <span data-testid="status">
            {status === 'retrying' ? 'server unreachable, retrying' : error ? `start-up failed: ${error.message}` : !ready ? 'loading' : authenticated ? 'logged in' : 'logged out'}
          </span>
          {status === 'retrying' ? (
            <button className="demo-inline" onClick={retry}>
              Retry now
            </button>
          ) : null}
        </p>
      </header>

      <section className="demo-actions" aria-label="Actions">
        {!authenticated || user?.isGuest ? (
          // Never a dead button: before start-up ends, login() opens the modal on a loading screen.
          <button className="demo-primary" onClick={() => void login()} data-testid="login">
            Log in
          </button>
        ) : null}
        {authenticated ? (
          <>
            <button onClick={() => void link('email')}>Link email</button>
            <button onClick={() => void link('sms')}>Link phone</button>
            <button onClick={() => void link('wallet')}>Link wallet</button>
            <button onClick={() => void link('passkey')}>Passkeys</button>
            <button onClick={() => void link('telegram')}>Link Telegram</button>
            <ConfirmButton
              question="Unlink Telegram?"
              onConfirm={() =>
                telegram.unlink(user!.telegram!.telegramUserId).then(() => setResult('complete: unlink telegram'), (e: PorticoError) => setResult(`error: ${e.code}`))
              }
              disabled={!user?.telegram}
            >
              Unlink Telegram
            </ConfirmButton>
            <button onClick={() => void updateEmail()} disabled={!user?.email}>
              Update email
            </button>
            <ConfirmButton
              question={`Unlink ${user?.email?.address ?? 'email'}?`}
              onConfirm={() => unlinkEmail().then(() => setResult('complete: unlink'), (e: PorticoError) => setResult(`error: ${e.code}`))}
              disabled={!user?.email}
            >
              Unlink email
            </ConfirmButton>
            <ConfirmButton
              question="Unlink wallet?"
              onConfirm={() => unlinkWallet().then(() => setResult('complete: unlink wallet'), (e: PorticoError) => setResult(`error: ${e.code}`))}
              disabled={!user?.wallet}
            >
              Unlink wallet
            </ConfirmButton>
            <button onClick={() => void link('farcaster')}>Link Farcaster</button>
            <button onClick={() => void link('cross_app')}>Link cross-app</button>
            <ConfirmButton
              question="Unlink Farcaster?"
              onConfirm={() => unlinkFarcaster().then(() => setResult('complete: unlink farcaster'), (e: PorticoError) => setResult(`error: ${e.code}`))}
              disabled={!user?.farcaster}
            >
              Unlink Farcaster
            </ConfirmButton>
            <button onClick={() => void logout()} data-testid="logout">
              Log out
            </button>
          </>
        ) : null}
      </section>

      <AccountExtras onResult={setResult} />
      <OAuthExtras onResult={setResult} />
      <MfaExtras onResult={setResult} />
      {authenticated ? (
        <Suspense fallback={null}>
          <WalletPanel onResult={setResult} />
          <WalletAccess onResult={setResult} />
          <ApprovalsPanel onResult={setResult} />
          {new URLSearchParams(window.location.search).get('sw') ? <SmartWalletPanel onResult={setResult} /> : null}
        </Suspense>
      ) : null}
      <FundingDemo onResult={setResult} rpc={new URLSearchParams(window.location.search).get('evmRpc') ?? LOCAL_EVM_RPC} />

      <p className="demo-result" data-testid="result" aria-live="polite">
        {result}
      </p>

      <section aria-label="User">
        <h2>User record</h2>
        <pre className="demo-user" data-testid="user">
          {user ? JSON.stringify(user, null, 2) : 'No user'}
        </pre>
      </section>
    </main>
  )
}
