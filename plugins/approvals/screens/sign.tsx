/**
 * 'approvals-sign': the sign request (part 2 sections 2, 4): the caller's title, description,
 * button text and icon; the message, or a readable typed-data view with 'Copy full payload';
 * waits up to 30 s for the wallet service, then signing → Success → closes after 1.4 s.
 * Closing without signing rejects the request (4001).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, CopyButton, ScreenLayout, StatusIcon, useScreen, useTexts, type ScreenProps } from 'portico/ui'
import { APPROVALS_TEXTS } from '../strings'
import type { SignSession } from '../session'
import { AppIcon, Details } from './parts'

const SUCCESS_CLOSE_MS = 1400

type Phase = 'connecting' | 'ready' | 'signing' | 'success' | 'error'

function Value({ value, depth = 0 }: { value: unknown; depth?: number }): ReactNode {
  if (value === null || value === undefined) return <span>—</span>
  if (typeof value !== 'object') return <span>{String(value)}</span>
  if (depth > 3) return <span>{JSON.stringify(value)}</span>
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>)
  return <Details rows={entries.map(([k, v]) => [k, <Value value={v} depth={depth + 1} />])} />
}

export default function SignScreen({ params }: ScreenProps<{ session: SignSession }>) {
  const s = params.session
  const T = useTexts('approvals', APPROVALS_TEXTS)
  const screen = useScreen()
  const [phase, setPhase] = useState<Phase>('connecting')
  const [error, setError] = useState<string | null>(null)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    s.ready().then(
      () => alive.current && setPhase('ready'),
      (e) => {
        if (!alive.current) return
        setError((e as Error)?.message ?? String(e))
        setPhase('error')
      },
    )
    return () => {
      alive.current = false
    }
  }, [s])

  const sign = async () => {
    setPhase('signing')
    setError(null)
    try {
      const result = await s.sign()
      if (!alive.current) return
      setPhase('success')
      setTimeout(() => screen.close(result), SUCCESS_CLOSE_MS)
    } catch (e) {
      if (!alive.current) return
      setError((e as Error)?.message ?? String(e))
      setPhase('error')
    }
  }

  const ui = s.uiOptions
  const typed = s.typedData
  if (phase === 'success') {
    return (
      <ScreenLayout title={T.success} icon={<StatusIcon status="success" label={T.success} />} close={false}>
        <p className="portico-step" role="status">
          {ui.title ?? (typed ? T.signTypedTitle : T.signTitle)}
        </p>
      </ScreenLayout>
    )
  }
  return (
    <ScreenLayout
      title={ui.title ?? (typed ? T.signTypedTitle : T.signTitle)}
      description={ui.description ?? T.signDescription}
      icon={<AppIcon url={ui.iconUrl} />}
    >
      {typed ? (
        <>
          <Details
            rows={[
              typed.domain?.name !== undefined && [T.contract, String(typed.domain.name)],
              typed.primaryType !== undefined && [T.action, String(typed.primaryType)],
            ]}
          />
          <div className="portico-message" data-testid="approvals-typed-data" aria-label={T.message}>
            <Value value={typed.message} />
          </div>
          <div className="portico-actions portico-actions-row">
            <CopyButton value={s.payload} label={T.copyFullPayload} copiedLabel={T.copied} />
          </div>
        </>
      ) : (
        <pre className="portico-message" data-testid="approvals-message" aria-label={T.message}>
          {s.message}
        </pre>
      )}
      {error && (
        <p className="portico-notice" role="alert">
          {error}
        </p>
      )}
      <div className="portico-actions">
        {phase === 'connecting' ? (
          <Button disabled loading fullWidth>
            {T.connecting}
          </Button>
        ) : (
          <Button fullWidth loading={phase === 'signing'} onClick={sign}>
            {phase === 'error' ? T.tryAgain : (ui.buttonText ?? T.signButton)}
          </Button>
        )}
      </div>
    </ScreenLayout>
  )
}
