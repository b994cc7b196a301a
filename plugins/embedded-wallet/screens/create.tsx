/**
 * 'embedded-wallet-create' (spec part 2 section 2, 'Embedded wallet on account create'):
 * creating, then the created screen ('Welcome' for a new user, 'All set!' otherwise) which
 * the login flow closes after 2.5 s; a failure shows with Close.
 */
import { Button, ScreenLayout, StatusIcon, icons, usePlugin, useStore, useTexts } from 'portico/ui/screens'
import { EMBEDDED_WALLET } from '../codes'
import { EMBEDDED_WALLET_TEXTS } from '../strings'

export default function EmbeddedWalletCreateScreen() {
  const api = usePlugin('embedded-wallet')
  const { create } = useStore(api.state)
  const T = useTexts(EMBEDDED_WALLET, EMBEDDED_WALLET_TEXTS)
  const failed = create.status === 'error'
  const done = create.status === 'created'
  const title = failed ? T.failedTitle : done ? (create.isNewUser ? T.createdTitleNewUser : T.createdTitle) : T.creatingTitle
  const detail = failed ? (create.error?.message ?? T.tryAgain) : done ? T.createdDescription : T.creatingDescription
  return (
    <ScreenLayout
      title={title}
      close={false}
      back={false}
      description={<span role={failed ? 'alert' : 'status'}>{detail}</span>}
      icon={
        <StatusIcon status={failed ? 'error' : done ? 'success' : 'loading'} label={failed ? 'error' : done ? 'success' : 'loading'}>
          <icons.WalletIcon width={28} height={28} />
        </StatusIcon>
      }
    >
      {failed ? (
        <div className="portico-actions">
          <Button onClick={() => api.state.set((s) => ({ ...s, create: { ...s.create, status: 'idle' } }))}>{T.close}</Button>
        </div>
      ) : null}
    </ScreenLayout>
  )
}
