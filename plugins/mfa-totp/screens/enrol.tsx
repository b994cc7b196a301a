/**
 * 'mfa-totp' — authenticator enrolment (part 2 sections 2 and 4): the QR code of the
 * otpauth:// URI plus the copyable secret (read back from the URI with `otpauth`), Continue
 * to the code.
 */
import { Suspense, lazy, useEffect, useId, useState } from 'react'
import { Button, CopyButton, QrSlot, ScreenLayout, Spinner, icons, usePlugin, useScreen, useTexts } from 'portico/ui/screens'
import type { TotpEnrollmentInfo } from '../calls'
import { MFA_TOTP_TEXTS } from '../strings'

const QrCode = lazy(() => import('./qr'))

/** The secret the URI carries (otpauth parses it; the server's copy must match). */
async function secretOf(info: TotpEnrollmentInfo): Promise<string> {
  const { URI, TOTP } = await import('otpauth')
  const otp = URI.parse(info.authUrl)
  if (!(otp instanceof TOTP) || otp.secret.base32 !== info.secret) throw new Error('The enrolment URI does not match its secret.')
  return otp.secret.base32
}

export default function MfaTotpEnrolScreen() {
  const api = usePlugin('mfa-totp')
  const screen = useScreen()
  const T = useTexts('mfa-totp', MFA_TOTP_TEXTS)
  const [info, setInfo] = useState<(TotpEnrollmentInfo & { shown: string }) | null>(null)
  const [error, setError] = useState<string | null>(null)
  const secretId = `portico-totp-secret-${useId()}`

  useEffect(() => {
    let live = true
    api
      .initEnrollment()
      .then(async (i) => ({ ...i, shown: await secretOf(i) }))
      .then((i) => live && setInfo(i))
      .catch(() => live && setError(T.unknownError))
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api])

  return (
    <ScreenLayout title={T.enrolTitle} description={error ? <span role="alert">{error}</span> : T.enrolDescription} icon={<icons.LockIcon width={28} height={28} />}>
      {info ? (
        <div data-mfa-totp-enrol="">
          <QrSlot label={T.qrLabel}>
            <Suspense fallback={<Spinner />}>
              <QrCode value={info.authUrl} label={T.qrLabel} size={200} />
            </Suspense>
          </QrSlot>
          {/* The whole secret, wrapped over lines (a one-line field cut it off), selectable and copyable. */}
          <div className="portico-field">
            <label htmlFor={secretId} className="portico-label">
              {T.secretLabel}
            </label>
            <div className="portico-secret">
              <textarea
                id={secretId}
                className="portico-secret-text"
                value={info.shown}
                readOnly
                rows={Math.max(1, Math.ceil(info.shown.length / 20))}
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                data-mfa-totp-secret=""
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton value={info.shown} label={T.copy} copiedLabel={T.copied} />
            </div>
          </div>
          <div className="portico-actions">
            <Button onClick={() => screen.open('mfa-totp-code')}>{T.continue}</Button>
          </div>
        </div>
      ) : error ? null : (
        <Spinner />
      )}
    </ScreenLayout>
  )
}
