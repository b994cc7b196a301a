/**
 * 'passkey-link': the user's passkeys (part 1 section 2): 'Secure your account with a
 * passkey' when there is none yet, each passkey's title with a remove button (not while it is
 * enrolled in MFA) that asks 'Unlink {title}?' (Unlink / Cancel) first, 'Add new passkey'
 * (hidden at 5), then 'Passkeys updated' and Done.
 */
import { useEffect, useRef, useState } from 'react'
import { formatText, type PorticoError } from 'portico'
import { Button, ScreenLayout, StatusIcon, icons, useKernel, usePlugin, useScreen, useTexts, useUser } from 'portico/ui/screens'
import { PASSKEY } from '../errors'
import { MAX_PASSKEYS, passkeysOf } from '../flow'
import { PASSKEY_TEXTS } from '../strings'
import { passkeyTitle } from '../title'

export default function PasskeyLinkScreen() {
  const kernel = useKernel()
  const api = usePlugin('passkey')
  const screen = useScreen()
  const T = useTexts(PASSKEY, PASSKEY_TEXTS)
  const { user } = useUser()
  const passkeys = passkeysOf(user)
  const [busy, setBusy] = useState<string | null>(null)
  const [updated, setUpdated] = useState(false)
  const [error, setError] = useState<PorticoError | null>(null)
  // The passkey whose removal waits for the user's confirmation.
  const [confirming, setConfirming] = useState<string | null>(null)
  const confirmRef = useRef<HTMLButtonElement>(null)
  const removeRefs = useRef(new Map<string, HTMLButtonElement>())
  const lastConfirmed = useRef<string | null>(null)
  // Focus follows the question: onto 'Unlink' when asked, back to the row's 'Remove' on Cancel.
  useEffect(() => {
    if (confirming) confirmRef.current?.focus()
    else if (lastConfirmed.current) removeRefs.current.get(lastConfirmed.current)?.focus()
  }, [confirming])

  const act = async (key: string, fn: () => Promise<unknown>) => {
    setBusy(key)
    setError(null)
    try {
      await fn()
      setUpdated(true)
    } catch (e) {
      const err = e as PorticoError
      if (kernel.screens.hasOwnScreen(err, { method: PASSKEY })) screen.error(err, { method: PASSKEY })
      else setError(err)
    } finally {
      setBusy(null)
    }
  }
  const view = error ? kernel.screens.resolveError(error, { method: PASSKEY }) : null

  if (updated && !busy) {
    return (
      <ScreenLayout title={T.updated} icon={<StatusIcon status="success" label="success" />}>
        <ul className="portico-list" aria-label={T.yourPasskeys}>
          {passkeys.map((p) => (
            <li key={p.credentialId} className="portico-list-button">
              <span className="portico-list-label">{passkeyTitle(p, T.unknownDevice)}</span>
            </li>
          ))}
        </ul>
        <div className="portico-actions">
          <Button onClick={() => screen.close({ user: kernel.session.user, method: PASSKEY })}>{T.done}</Button>
        </div>
      </ScreenLayout>
    )
  }

  return (
    <ScreenLayout
      title={T.linkTitle}
      description={view ? <span role="alert">{view.detail}</span> : T.linkDescription}
      icon={<icons.KeyIcon width={28} height={28} />}
    >
      {passkeys.length > 0 && (
        <ul className="portico-list" aria-label={T.yourPasskeys}>
          {passkeys.map((p) => {
            const title = passkeyTitle(p, T.unknownDevice)
            return (
              <li key={p.credentialId} className="portico-list-button" data-credential-id={p.credentialId} data-confirming={confirming === p.credentialId ? '' : undefined}>
                <span className="portico-list-label">{title}</span>
                {p.enrolledInMfa ? (
                  <span className="portico-list-chip">{T.enrolledInMfa}</span>
                ) : confirming === p.credentialId ? (
                  <span className="portico-confirm" role="group" aria-label={formatText(T.unlinkConfirm, { title })} data-passkey-confirm="">
                    <span className="portico-confirm-question">{formatText(T.unlinkConfirm, { title })}</span>
                    <Button
                      ref={confirmRef}
                      variant="primary"
                      fullWidth={false}
                      loading={busy === p.credentialId}
                      disabled={busy !== null}
                      onClick={() => void act(p.credentialId, () => api.unlink(p.credentialId)).then(() => setConfirming(null))}
                    >
                      {T.unlinkConfirmButton}
                    </Button>
                    <Button
                      variant="ghost"
                      fullWidth={false}
                      disabled={busy !== null}
                      onClick={() => {
                        lastConfirmed.current = p.credentialId
                        setConfirming(null)
                      }}
                    >
                      {T.cancel}
                    </Button>
                  </span>
                ) : (
                  <Button
                    ref={(el: HTMLButtonElement | null) => {
                      if (el) removeRefs.current.set(p.credentialId, el)
                      else removeRefs.current.delete(p.credentialId)
                    }}
                    variant="ghost"
                    fullWidth={false}
                    disabled={busy !== null}
                    aria-label={formatText(T.unlinkLabel, { title })}
                    onClick={() => {
                      lastConfirmed.current = null
                      setConfirming(p.credentialId)
                    }}
                  >
                    {T.unlink}
                  </Button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <div className="portico-actions">
        {passkeys.length < MAX_PASSKEYS && (
          <Button loading={busy === 'add'} disabled={busy !== null} icon={<icons.KeyIcon />} onClick={() => void act('add', () => api.link())}>
            {T.addPasskey}
          </Button>
        )}
      </div>
    </ScreenLayout>
  )
}
