/**
 * 'farcaster-connect': opens a channel, shows its connect URI — a QR code on desktop, an
 * 'Open Warpcast app' button on mobile — while the status is polled every 2 s; then logs in
 * (or links, by the modal's intent) and hands over to `useCompleteLogin()`. Leaving the
 * screen stops the polling. Errors (the 2-minute time-out, a refused message) go to the
 * error screen through `screen.error`.
 */
import { lazy, Suspense, useEffect, useState } from 'react'
import { Button, QrSlot, ScreenLayout, Spinner, StatusIcon, useCompleteLogin, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { FARCASTER } from '../errors'
import { FarcasterIcon } from '../icon'
import { FARCASTER_TEXTS } from '../strings'

const QrCode = lazy(() => import('./qr'))

/** Phones and tablets get the app link instead of a QR code. */
export function isMobileDevice(): boolean {
  if (typeof navigator === 'undefined') return false
  return /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
}

export default function FarcasterConnectScreen(_: ScreenProps) {
  const fc = usePlugin('farcaster')
  const T = useTexts(FARCASTER, FARCASTER_TEXTS)
  const screen = useScreen()
  const complete = useCompleteLogin()
  const { status, connectUri } = useStore(fc.state)
  const [mobile] = useState(isMobileDevice)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    const ac = new AbortController()
    const intent = screen.intent === 'link' ? 'link' : 'login'
    Promise.resolve()
      .then(() => fc.connect({ intent, signal: ac.signal }))
      .then(async (response) => {
        if (ac.signal.aborted) return
        fc.state.set({ status: 'success' })
        await complete(response, { method: FARCASTER, intent })
      })
      .catch((e) => {
        if (ac.signal.aborted) return
        fc.state.set({ status: 'idle', connectUri: null })
        screen.error(e, { method: FARCASTER })
      })
    return () => {
      ac.abort()
      fc.state.reset()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt])

  const waiting = status === 'waiting'
  return (
    <ScreenLayout
      title={T.title}
      icon={
        waiting && connectUri ? undefined : (
          <StatusIcon status={status === 'success' ? 'success' : 'loading'} label={status}>
            <FarcasterIcon width={28} height={28} />
          </StatusIcon>
        )
      }
      description={waiting ? (mobile ? T.waiting : T.scan) : status === 'verifying' ? T.verifying : status === 'success' ? T.success : undefined}
    >
      {waiting && connectUri && !mobile && (
        <QrSlot>
          <Suspense fallback={<Spinner />}>
            <QrCode value={connectUri} label={T.qrLabel} />
          </Suspense>
        </QrSlot>
      )}
      {waiting && connectUri && mobile && (
        <div className="portico-actions">
          <a className="portico-button" data-variant="primary" data-full="" href={connectUri} target="_blank" rel="noopener noreferrer">
            <span className="portico-button-label">{T.openApp}</span>
          </a>
        </div>
      )}
      {status === 'idle' && (
        <div className="portico-actions">
          <Button onClick={() => setAttempt((n) => n + 1)}>{T.tryAgain}</Button>
        </div>
      )}
    </ScreenLayout>
  )
}
