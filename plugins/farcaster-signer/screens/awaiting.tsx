/**
 * 'farcaster-signer' (spec part 1 section 2, 'Awaiting Farcaster signer'): while the request is
 * pending, a QR code of the Farcaster app's approval link and the link to copy on desktop; on
 * phones 'Open Warpcast app' (the app's deep link) and 'Take me to Warpcast' (the same request
 * as a web link). The state is polled every 2 s (the flow); 'approved' refreshes the user and
 * closes after 1400 ms; 'revoked' shows 'Request rejected'; after 5 minutes 'Connect failed'.
 * Other failures (no embedded wallet, no Farcaster account) go to the error screen.
 */
import { lazy, Suspense, useEffect, useState } from 'react'
import { Button, CopyButton, QrSlot, ScreenLayout, Spinner, StatusIcon, usePlugin, useScreen, useStore, useTexts, type ScreenProps } from 'portico/ui/screens'
import { FARCASTER_SIGNER_TEXTS } from '../strings'
import { FARCASTER_SIGNER, FARCASTER_SIGNER_CLOSE_MS } from '../state'

const QrCode = lazy(() => import('./qr'))

/** Phones and tablets get the app's buttons instead of a QR code. */
export function isMobileDevice(): boolean {
  if (typeof navigator === 'undefined') return false
  return /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent)
}

/** The approval request as a web link (Warpcast's universal links open the app, or its web page). */
export function webLink(deepLink: string): string {
  return deepLink.startsWith('farcaster://') ? `https://client.warpcast.com/deeplinks/${deepLink.slice('farcaster://'.length)}` : deepLink
}

export default function FarcasterSignerScreen(_: ScreenProps) {
  const api = usePlugin(FARCASTER_SIGNER)
  const T = useTexts(FARCASTER_SIGNER, FARCASTER_SIGNER_TEXTS)
  const screen = useScreen()
  const { status, approvalUrl } = useStore(api.state)
  const [mobile] = useState(isMobileDevice)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    const ac = new AbortController()
    api.run({ signal: ac.signal }).catch((e) => {
      if (ac.signal.aborted) return
      // 'Request rejected' and 'Connect failed' are this screen's own states (the flow set them).
      const own = api.state.get().status === 'revoked' || api.state.get().status === 'failed'
      if (!own) screen.error(e, { method: FARCASTER_SIGNER })
    })
    return () => {
      ac.abort()
      api.state.set({ status: 'idle', approvalUrl: null })
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt])

  useEffect(() => {
    if (status !== 'approved') return
    const t = setTimeout(() => screen.close({ approved: true }), FARCASTER_SIGNER_CLOSE_MS)
    return () => clearTimeout(t)
  }, [status, screen])

  if (status === 'revoked' || status === 'failed') {
    return (
      <ScreenLayout
        title={status === 'revoked' ? T.rejectedTitle : T.failedTitle}
        description={status === 'revoked' ? T.rejectedDetail : T.failedDetail}
        icon={<StatusIcon status="error" label={status} />}
      >
        <div className="portico-actions">
          <Button variant="primary" onClick={() => setAttempt((n) => n + 1)}>
            {T.tryAgain}
          </Button>
        </div>
      </ScreenLayout>
    )
  }
  if (status === 'approved') {
    return <ScreenLayout title={T.approved} description={T.approvedDetail} icon={<StatusIcon status="success" label={status} />} />
  }
  const pending = status === 'pending_approval' && !!approvalUrl
  return (
    <ScreenLayout title={T.title} description={pending ? (mobile ? T.waiting : T.scan) : undefined} icon={pending ? undefined : <StatusIcon status="loading" label={status} />}>
      {pending && !mobile && (
        <>
          <QrSlot>
            <Suspense fallback={<Spinner />}>
              <QrCode value={approvalUrl} label={T.qrLabel} />
            </Suspense>
          </QrSlot>
          <p className="portico-help">{T.copyHint}</p>
          <div className="portico-actions">
            <CopyButton value={approvalUrl} label={T.copyLink} />
          </div>
        </>
      )}
      {pending && mobile && (
        <div className="portico-actions">
          <a className="portico-button" data-variant="primary" data-full="" href={approvalUrl} target="_blank" rel="noopener noreferrer">
            <span className="portico-button-label">{T.openApp}</span>
          </a>
          <a className="portico-button" data-variant="secondary" data-full="" href={webLink(approvalUrl)} target="_blank" rel="noopener noreferrer">
            <span className="portico-button-label">{T.takeMe}</span>
          </a>
        </div>
      )}
    </ScreenLayout>
  )
}
