/**
 * The on-ramp status screen body (spec part 2 section 4) that MoonPay and Coinbase Onramp
 * configure: 'opening' until the provider's URL is known, then the provider's status views
 * (a spinner, or the success mark; Continue where the view has a result), and a failure with
 * 'Choose another method' (back to the method selection). A popup that did not open, or closed
 * before the start, fails at once; a start that throws closes the popup and fails with the
 * provider's failure text. The provider's `start` sends the popup to its URL, records the start,
 * polls, and answers the stop for when the screen goes away.
 */
import { useEffect, useState } from 'react'
import { Button, ScreenLayout, StatusIcon, useScreen } from 'portico/ui/screens'
import type { FundingPopup } from './popup'

/** A status as the provider shows it. */
export interface OnrampView {
  title: string
  description?: string
  /** The success mark (else a spinner). */
  done?: boolean
  /** A Continue button that closes the flow with this result. */
  close?: Record<string, unknown>
}

/** What `start` gets: the popup (open), and the screen's controls (no-ops once the screen went away). */
export interface OnrampRun {
  popup: FundingPopup
  show(view: OnrampView): void
  fail(message: string): void
  /** Back to the method selection. */
  back(): void
  /** Whether the screen went away (an answer that arrives then is dropped). */
  stopped(): boolean
}

export interface OnrampStatusProps {
  texts: { openingTitle: string; openingDescription: string; failure: string; popupBlocked: string; chooseAnotherMethod: string; continue: string }
  /** The failure screen's (hidden) title; default: the failure's message. */
  failedTitle?: string
  /** Null until the provider can start (the request and its config known). Answers the stop. */
  start: ((run: OnrampRun) => Promise<(() => void) | void>) | null
}

type Phase = { kind: 'opening' } | { kind: 'view'; view: OnrampView } | { kind: 'failed'; message: string }

export function OnrampStatus({ texts: T, failedTitle, start }: OnrampStatusProps) {
  const screen = useScreen<{ popup?: FundingPopup }>()
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' })

  useEffect(() => {
    const popup = screen.params.popup
    if (!start) return
    if (!popup || popup.closed) return setPhase({ kind: 'failed', message: T.popupBlocked })
    let stopped = false
    let stop: (() => void) | void
    const run: OnrampRun = {
      popup,
      show: (view) => !stopped && setPhase({ kind: 'view', view }),
      fail: (message) => !stopped && setPhase({ kind: 'failed', message }),
      back: () => !stopped && screen.back(),
      stopped: () => stopped,
    }
    start(run).then(
      (s) => (stopped ? s?.() : (stop = s)),
      () => {
        if (stopped) return
        if (!popup.closed) popup.close()
        setPhase({ kind: 'failed', message: T.failure })
      },
    )
    return () => {
      stopped = true
      stop?.()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (phase.kind === 'failed') {
    return (
      <ScreenLayout title={failedTitle ?? phase.message} titleHidden icon={<StatusIcon status="error" />}>
        <p className="portico-error" role="alert">
          {phase.message}
        </p>
        <Button variant="secondary" onClick={() => screen.back()}>
          {T.chooseAnotherMethod}
        </Button>
      </ScreenLayout>
    )
  }
  if (phase.kind === 'opening') return <ScreenLayout title={T.openingTitle} description={T.openingDescription} icon={<StatusIcon status="loading" />} />
  const { view } = phase
  return (
    <ScreenLayout title={view.title} description={view.description} icon={<StatusIcon status={view.done ? 'success' : 'loading'} />}>
      {view.close ? <Button onClick={() => screen.close(view.close)}>{T.continue}</Button> : null}
    </ScreenLayout>
  )
}
