/**
 * The lifecycle both transaction screens share (Ethereum and Solana): prepare (with the
 * 'Preparing' screen and the preparation-error screen), the review steps, submit, and the
 * receipt's explorer link and the review's action row (Continue, Add funds or Approve).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, ScreenLayout, Spinner, StatusIcon, useScreen } from 'portico/ui'
import type { ApprovalsTexts } from '../strings'
import { AppIcon, fill, type Failure } from './parts'

const SUCCESS_CLOSE_MS = 1400

export type Phase = 'preparing' | 'review' | 'sending' | 'receipt' | 'signed' | 'error' | 'failed-prepare'

interface FlowSession<Review, Result extends { result: unknown }> {
  ready(): Promise<void>
  prepare(): Promise<Review>
  submit(): Promise<Result>
}

/** Phase, review, step, failure and result of one transaction screen; `signOnly` closes with the result after 'Success'. */
export function useTransactionFlow<Review, Result extends { result: unknown }>(s: FlowSession<Review, Result>, signOnly: boolean) {
  const screen = useScreen()
  const [phase, setPhase] = useState<Phase>('preparing')
  const [review, setReview] = useState<Review | null>(null)
  const [step, setStep] = useState(0)
  const [failure, setFailure] = useState<Failure | null>(null)
  const [result, setResult] = useState<Result | null>(null)
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    return () => void (alive.current = false)
  }, [])

  const prepare = useCallback(async () => {
    setPhase('preparing')
    setStep(0)
    try {
      await s.ready()
      const r = await s.prepare()
      if (!alive.current) return
      setReview(r)
      setPhase('review')
    } catch (e) {
      if (!alive.current) return
      setFailure({ code: null, message: (e as Error)?.message ?? String(e), hash: null })
      setPhase('failed-prepare')
    }
  }, [s])
  useEffect(() => void prepare(), [prepare])

  const approve = async () => {
    setPhase('sending')
    try {
      const r = await s.submit()
      if (!alive.current) return
      setResult(r)
      if (signOnly) {
        setPhase('signed')
        setTimeout(() => screen.close(r.result), SUCCESS_CLOSE_MS)
      } else setPhase('receipt')
    } catch (e) {
      if (!alive.current) return
      setFailure(e as Failure)
      setPhase('error')
    }
  }

  return { phase, review, step, setStep, failure, result, prepare, approve, close: screen.close }
}

/** 'Preparing transaction…' under the caller's title and icon. */
export function PreparingScreen({ title, iconUrl, T }: { title: string; iconUrl: string | undefined; T: ApprovalsTexts }) {
  return (
    <ScreenLayout title={title} icon={<AppIcon url={iconUrl} />}>
      <div className="portico-hero">
        <Spinner label={T.preparing} />
      </div>
      <p className="portico-step">{T.preparing}</p>
    </ScreenLayout>
  )
}

/** The preparation-error screen: 'Something went wrong', an optional notice, the message, 'Try again'. */
export function PrepareFailedScreen({ failure, notice, onRetry, T }: { failure: Failure; notice?: string; onRetry: () => void; T: ApprovalsTexts }) {
  return (
    <ScreenLayout title={T.somethingWentWrong} icon={<StatusIcon status="error" label={T.somethingWentWrong} />}>
      {notice && (
        <p className="portico-notice" role="alert">
          {notice}
        </p>
      )}
      <p className="portico-message">{failure.message}</p>
      <div className="portico-actions">
        <Button onClick={onRetry}>{T.tryAgain}</Button>
      </div>
    </ScreenLayout>
  )
}

/** 'Success', closing by itself (sign-only methods). */
export function SignedScreen({ T }: { T: ApprovalsTexts }) {
  return <ScreenLayout title={T.success} icon={<StatusIcon status="success" label={T.success} />} close={false} />
}

/** 'View on explorer' under a receipt, when the chain has an explorer. */
export function ExplorerLink({ url, T }: { url: string | null; T: ApprovalsTexts }) {
  if (!url) return null
  return (
    <p className="portico-step">
      <a href={url} target="_blank" rel="noopener noreferrer">
        {T.viewOnExplorer}
      </a>
    </p>
  )
}

/** The review's step counter ('Step n of m') when there is more than one step. */
export function StepCounter({ step, steps, T }: { step: number; steps: number; T: ApprovalsTexts }) {
  if (steps <= 1) return null
  return <p className="portico-step">{fill(T.step, { n: step + 1, total: steps })}</p>
}

/** The review's action row: Continue before the last step; then Add funds (short of funds, funding there) or Approve. */
export function ReviewActions(props: {
  last: boolean
  onContinue: () => void
  insufficient: boolean
  onFund: (() => void) | null
  sending: boolean
  onApprove: () => void
  T: ApprovalsTexts
}): ReactNode {
  const { last, insufficient, onFund, sending, T } = props
  return (
    <div className="portico-actions">
      {!last ? (
        <Button onClick={props.onContinue}>{T.continue}</Button>
      ) : insufficient && onFund ? (
        <Button onClick={onFund}>{T.addFunds}</Button>
      ) : (
        <Button loading={sending} disabled={sending || insufficient} onClick={props.onApprove}>
          {T.approve}
        </Button>
      )}
    </div>
  )
}
