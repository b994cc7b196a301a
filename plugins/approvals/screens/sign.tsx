/**
 * 'approvals-sign': the sign request (part 2 sections 2, 4): the caller's title, description,
 * button text and icon; the message, or a readable typed-data view with 'Copy full payload';
 * waits up to 30 s for the wallet service, then signing → Success → closes after 1.4 s.
 * Closing without signing rejects the request (4001).
 */
import { useEffect, type ReactNode } from 'react'
import { Button, CopyButton, ScreenLayout, StatusIcon, useTexts, type ScreenProps } from 'portico/ui/screens'
import { APPROVALS_TEXTS } from '../strings'
import type { SignSession } from '../request'
import { AppIcon, Details } from './parts'
import { once, peek, useSessionState } from './persist'
import { useCloseLater } from './flow'

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
  // Kept on the session: MFA's screen over this one (the wallet asks for a verification while
  // it signs) unmounts it, and back here the signing goes on instead of starting over.
  const [phase, setPhase] = useSessionState<Phase>(s, 'phase', 'connecting')
  const [error, setError] = useSessionState<string | null>(s, 'error', null)
  const closeLater = useCloseLater(s)

  useEffect(() => {
    if (!once(s, 'ready')) return
    s.ready().then(
      () => peek<Phase>(s, 'phase', 'connecting') === 'connecting' && setPhase('ready'),
      (e) => {
        setError((e as Error)?.message ?? String(e))
        setPhase('error')
      },
    )
  }, [s, setPhase, setError])

  const sign = async () => {
    if (peek<Phase>(s, 'phase', 'connecting') === 'signing') return
    setPhase('signing')
    setError(null)
    try {
      const result = await s.sign()
      setPhase('success')
      closeLater(result, SUCCESS_CLOSE_MS)
    } catch (e) {
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
