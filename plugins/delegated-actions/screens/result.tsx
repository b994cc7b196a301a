/** The consent and revoke screens' shared part: one action, then success or error, closing after 2.5 s. */
import { useEffect, useRef, useState } from 'react'
import { toPorticoError } from 'portico'
import { useScreen } from 'portico/ui/screens'
import { RESULT_CLOSE_MS, type ScreenOutcome } from '../flow'

export type Phase = { step: 'idle' } | { step: 'working' } | { step: 'success' } | { step: 'error'; message: string }

/** Runs `action` once per call; the screen closes RESULT_CLOSE_MS after its success or failure. */
export function useResultAction(action: () => Promise<unknown>) {
  const screen = useScreen()
  const [phase, setPhase] = useState<Phase>({ step: 'idle' })
  const outcome = useRef<ScreenOutcome | null>(null)
  useEffect(() => {
    if (phase.step !== 'success' && phase.step !== 'error') return
    const t = setTimeout(() => screen.close(outcome.current), RESULT_CLOSE_MS)
    return () => clearTimeout(t)
  }, [phase.step, screen])
  const run = () => {
    if (phase.step !== 'idle') return
    setPhase({ step: 'working' })
    action().then(
      () => {
        outcome.current = { done: true }
        setPhase({ step: 'success' })
      },
      (e) => {
        outcome.current = { error: e }
        setPhase({ step: 'error', message: toPorticoError(e).message })
      },
    )
  }
  const decline = () => screen.close({ declined: true } satisfies ScreenOutcome)
  return { phase, run, decline }
}
