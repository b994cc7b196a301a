/**
 * 'delegated-actions-consent' — 'Enable offline access': the consent page of the wallet service
 * in a visible iframe (its own origin). The page shows the app's name, the wallet and the
 * policy in plain words, with Allow and Not now; only a click on Allow THERE delegates (this
 * page cannot click for the user, and no message alone delegates). Then success or the error
 * shows here and the modal closes after 2.5 s; Not now (or ×, or Escape) declines.
 */
import { useEffect, useRef, useState } from 'react'
import { toPorticoError } from 'portico'
import { ScreenLayout, StatusIcon, useKernel, usePlugin, useScreen, useTexts, type ScreenProps } from 'portico/ui/screens'
import type { EmbeddedWalletApi, WalletPageKit } from 'portico/plugins/embedded-wallet'
import { DELEGATED_ACTIONS, RESULT_CLOSE_MS } from '../ids'
import type { ConsentScreenParams, ScreenOutcome } from '../flow'
import { CONSENT_ESCAPE, CONSENT_RESIZE } from '../protocol'
import { DELEGATED_ACTIONS_TEXTS } from '../strings'

/** The iframe's height before the page reports its own (and its bounds). */
export const CONSENT_FRAME_HEIGHT = 340
const MIN_HEIGHT = 160
const MAX_HEIGHT = 560

type Phase = { step: 'asking' } | { step: 'success' } | { step: 'error'; message: string }

export default function ConsentScreen({ params }: ScreenProps<ConsentScreenParams>) {
  const kernel = useKernel()
  const screen = useScreen()
  const api = usePlugin('delegated-actions')
  const T = useTexts(DELEGATED_ACTIONS, DELEGATED_ACTIONS_TEXTS)
  const outcome = useRef<ScreenOutcome | null>(null)
  const [phase, setPhase] = useState<Phase>({ step: 'asking' })
  const [height, setHeight] = useState(CONSENT_FRAME_HEIGHT)
  const ew: EmbeddedWalletApi | null = kernel.hasPlugin('embedded-wallet') ? kernel.plugin('embedded-wallet') : null
  const origin = ew?.frameOrigin() ?? null
  // The page's iframe and handshake: the embedded-wallet plugin's, loaded on use.
  const [page, setPage] = useState<WalletPageKit | null>(null)

  const failed = (e: unknown, message = toPorticoError(e).message) => {
    outcome.current = { error: e }
    setPhase({ step: 'error', message })
  }

  useEffect(() => {
    if (ew && origin) void ew.walletPage().then(setPage, failed)
    else failed(new Error(T.noWalletFrame), T.noWalletFrame)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [origin])

  // Success or failure: the modal closes after 2.5 s (spec part 2 section 9).
  useEffect(() => {
    if (phase.step === 'asking') return
    const t = setTimeout(() => screen.close(outcome.current), RESULT_CLOSE_MS)
    return () => clearTimeout(t)
  }, [phase.step, screen])

  if (phase.step !== 'asking') {
    return (
      <ScreenLayout
        title={phase.step === 'success' ? T.consentSuccess : T.failedTitle}
        description={phase.step === 'error' ? phase.message : undefined}
        icon={<StatusIcon status={phase.step} />}
        back={false}
        className="delegated-actions-result"
      />
    )
  }
  return (
    <ScreenLayout title={T.consentTitle} className="delegated-actions-consent" back={false}>
      {page && origin && (
        <page.WalletPageFrame
          origin={origin}
          path={(look) => page.pagePath(kernel.config.appId, 'delegate', look)}
          run={(target, signal) => api.consent(ew, params, target, origin, signal)}
          onDone={(r) => {
            if ('declined' in r) return screen.close({ declined: true } satisfies ScreenOutcome)
            outcome.current = { done: true }
            setPhase({ step: 'success' })
          }}
          onError={(e) => failed(e)}
          escape={CONSENT_ESCAPE}
          resize={{ type: CONSENT_RESIZE, on: (h) => setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h)))) }}
          title={T.frameTitle}
          height={height}
          // In the dialog's tab order (its focus trap counts [tabindex]): Tab reaches Not now and Allow inside.
          tabIndex={0}
          className="delegated-actions-frame"
          testId="delegated-actions-frame"
        />
      )}
    </ScreenLayout>
  )
}
