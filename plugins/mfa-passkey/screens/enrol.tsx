/**
 * 'mfa-passkey' — passkey enrolment (part 2 sections 2 and 4): the intro when the user has
 * no passkey ('Add a new passkey'), else the list (3, or 2 when more than 3) with 'Enable
 * passkeys' and 'Add new passkey' (hidden at 5); then 'Passkey verification added'.
 */
import { useState } from 'react'
import { formatText } from 'portico'
import { Button, ScreenLayout, icons, usePlugin, useScreen, useTexts, useUser } from 'portico/ui/screens'
import { MFA_SCREENS } from 'portico/kits/mfa'
import { passkeyTitle } from 'portico/plugins/passkey'
import { MAX_MFA_PASSKEYS, passkeysShown } from '../limits'
import { MFA_PASSKEY_TEXTS } from '../strings'

export default function MfaPasskeyEnrolScreen() {
  const api = usePlugin('mfa-passkey')
  const mfa = usePlugin('mfa')
  const screen = useScreen()
  const T = useTexts('mfa-passkey', MFA_PASSKEY_TEXTS)
  const { user } = useUser()
  const [busy, setBusy] = useState<'add' | 'enable' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const passkeys = (user?.linkedAccounts ?? []).filter((a) => a.type === 'passkey') as ReturnType<typeof api.passkeys>

  const run = async (kind: 'add' | 'enable') => {
    setBusy(kind)
    setError(null)
    try {
      if (kind === 'add') await api.initEnrollment()
      const res = await api.submitEnrollment()
      mfa.enrolled('passkey', res, { verified: false })
      screen.open(MFA_SCREENS.success, { title: T.added, method: 'passkey' })
    } catch {
      setError(T.somethingWentWrong)
    } finally {
      setBusy(null)
    }
  }

  const description = error ? <span role="alert">{error}</span> : passkeys.length ? T.listDescription : T.introDescription
  if (!passkeys.length) {
    return (
      <ScreenLayout title={T.introTitle} description={description} icon={<icons.KeyIcon width={28} height={28} />}>
        <div className="portico-actions" data-mfa-passkey-intro="">
          <Button onClick={() => void run('add')} loading={busy === 'add'}>
            {T.addANewPasskey}
          </Button>
        </div>
      </ScreenLayout>
    )
  }
  const shown = passkeys.slice(0, passkeysShown(passkeys.length))
  return (
    <ScreenLayout title={T.listTitle} description={description} icon={<icons.KeyIcon width={28} height={28} />}>
      <ul className="portico-list" aria-label={T.listTitle} data-mfa-passkey-list="">
        {shown.map((p) => (
          <li key={p.credentialId} className="portico-list-button" data-credential-id={p.credentialId}>
            <span className="portico-list-label">{passkeyTitle(p, T.unknownDevice)}</span>
          </li>
        ))}
      </ul>
      {passkeys.length > shown.length ? <p className="portico-help">{formatText(T.more, { count: passkeys.length - shown.length })}</p> : null}
      <div className="portico-actions">
        <Button onClick={() => void run('enable')} loading={busy === 'enable'} disabled={busy !== null}>
          {T.enablePasskeys}
        </Button>
        {passkeys.length < MAX_MFA_PASSKEYS ? (
          <Button variant="secondary" onClick={() => void run('add')} loading={busy === 'add'} disabled={busy !== null}>
            {T.addNewPasskey}
          </Button>
        ) : null}
      </div>
    </ScreenLayout>
  )
}
