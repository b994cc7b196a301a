/**
 * The lifecycle both transaction screens share (Ethereum and Solana): prepare (with the
 * 'Preparing' screen and the preparation-error screen), the review steps, submit, and the
 * receipt's explorer link and the review's action row (Continue, Add funds or Approve).
 */
import { useCallback, useEffect, type ReactNode } from 'react'
import { Button, ScreenLayout, Spinner, StatusIcon, useKernel, useScreen } from 'portico/ui/screens'
import type { ApprovalsTexts } from '../strings'
import { AppIcon, fill, type Failure } from './parts'
import { once, peek, useSessionState } from './persist'

const SUCCESS_CLOSE_MS = 1400

export type Phase = 'preparing' | 'review' | 'sending' | 'receipt' | 'signed' | 'error' | 'failed-prepare'

interface FlowSession<Review, Result extends { result: unknown }> {
  ready(): Promise<void>
  prepare(): Promise<Review>
  submit(): Promise<Result>
}

/**
 * Closes the flow with `value` after `ms`, when the screen on top is still this request's
 * (the user may have closed it meanwhile, or another request opened the modal since).
 */
export function useCloseLater(session: object) {
  const kernel = useKernel()
  return useCallback(
    (value: unknown, ms: number) => {
      setTimeout(() => {
        const cur = kernel.screens.getState().current
        if (cur && (cur.params as { session?: unknown }).session === session) kernel.screens.close(value)
      }, ms)
    },
    [kernel, session],
  )
}

/**
 * Phase, review, step, failure and result of one transaction screen; `signOnly` closes with the
 * result after 'Success'. The state is kept on the session (./persist.ts): a screen pushed over
 * this one (MFA while the wallet signs) and back leaves the flow where it was, so a transaction
 * is neither prepared nor approved twice.
 */
export function useTransactionFlow<Review, Result extends { result: unknown }>(s: FlowSession<Review, Result>, signOnly: boolean) {
  const screen = useScreen()
  const closeLater = useCloseLater(s)
  const [phase, setPhase] = useSessionState<Phase>(s, 'phase', 'preparing')
  const [review, setReview] = useSessionState<Review | null>(s, 'review', null)
  const [step, setStep] = useSessionState(s, 'step', 0)
  const [failure, setFailure] = useSessionState<Failure | null>(s, 'failure', null)
  const [result, setResult] = useSessionState<Result | null>(s, 'result', null)

  const prepare = useCallback(async () => {
    setPhase('preparing')
    setStep(0)
    try {
      await s.ready()
      const r = await s.prepare()
      setReview(r)
      setPhase('review')
    } catch (e) {
      setFailure({ code: null, message: (e as Error)?.message ?? String(e), hash: null })
      setPhase('failed-prepare')
    }
  }, [s, setPhase, setStep, setReview, setFailure])
  useEffect(() => {
    if (once(s, 'prepare')) void prepare()
  }, [s, prepare])

  const approve = async () => {
    if (peek<Phase>(s, 'phase', 'preparing') === 'sending') return
    setPhase('sending')
    try {
      const r = await s.submit()
      setResult(r)
      if (signOnly) {
        setPhase('signed')
        closeLater(r.result, SUCCESS_CLOSE_MS)
      } else setPhase('receipt')
    } catch (e) {
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
