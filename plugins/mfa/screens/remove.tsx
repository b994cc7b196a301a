/** 'mfa-remove' — the removal confirmation (part 2 sections 2 and 4); verification first when needed. */
import { useState } from 'react'
import { formatText } from 'portico'
import { Button, ScreenLayout, icons, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import { hasCode } from '../errors'
import { MFA_ERRORS, type MfaType } from 'portico/kits/mfa'
import { MFA_TEXTS } from '../strings'
import { methodLabel } from './verify'

export default function MfaRemoveScreen() {
  const api = usePlugin('mfa')
  const screen = useScreen<{ type: MfaType }>()
  const T = useTexts('mfa', MFA_TEXTS)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const method = methodLabel(screen.params.type, T)

  const remove = async () => {
    setBusy(true)
    setError(null)
    try {
      await api.unenroll(screen.params.type)
      screen.back()
    } catch (e) {
      if (!hasCode(e, MFA_ERRORS.canceled)) setError(T.unknownEnrolmentError)
    } finally {
      setBusy(false)
    }
  }

  return (
    <ScreenLayout
      title={formatText(T.removeTitle, { method })}
      description={error ? <span role="alert">{error}</span> : T.removeDescription}
      icon={<icons.AlertIcon width={28} height={28} />}
    >
      <div className="portico-actions" data-mfa-remove={screen.params.type}>
        <Button onClick={() => void remove()} loading={busy}>
          {T.removeConfirm}
        </Button>
        <Button variant="secondary" onClick={() => screen.back()} disabled={busy}>
          {T.cancel}
        </Button>
      </div>
    </ScreenLayout>
  )
}
