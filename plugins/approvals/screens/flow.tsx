/**
 * The lifecycle both transaction screens share (Ethereum and Solana): prepare (with the
 * 'Preparing' screen and the preparation-error screen), the review steps, submit, the receipt
 * and the failed-submit screens, and the review's action row (Continue, Add funds or Approve).
 */
import { useCallback, useEffect, type ReactNode } from 'react'
import { Button, ScreenLayout, Spinner, StatusIcon, useKernel, useScreen } from 'portico/ui/screens'
import type { ApprovalsTexts } from '../strings'
import { AppIcon, FailurePanel, fill, useFunding, type Failure } from './parts'
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
type TransactionFlow = ReturnType<typeof useTransactionFlow>

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

/** The receipt: its title (also the success icon's label), what was sent, 'View on explorer' when the chain has one, and the closing button. */
export function ReceiptScreen(props: { title: string; description?: string; explorerUrl: string | null; closeLabel: string; onClose: () => void; T: ApprovalsTexts; children: ReactNode }) {
  const { explorerUrl: url, T } = props
  return (
    <ScreenLayout title={props.title} description={props.description} icon={<StatusIcon status="success" label={props.title} />}>
      {props.children}
      {url && (
        <p className="portico-step">
          <a href={url} target="_blank" rel="noopener noreferrer">
            {T.viewOnExplorer}
          </a>
        </p>
      )}
      <div className="portico-actions">
        <Button onClick={props.onClose}>{props.closeLabel}</Button>
      </div>
    </ScreenLayout>
  )
}

/** A failed submit: the failure (its code, message and hash) and 'Retry transaction'. */
export function SubmitFailedScreen(props: { title: string; label: string; failure: Failure; hashLabel: string; onRetry: () => void; T: ApprovalsTexts }) {
  return (
    <ScreenLayout title={props.title} icon={<StatusIcon status="error" label={props.label} />}>
      <FailurePanel failure={props.failure} T={props.T} hashLabel={props.hashLabel} />
      <div className="portico-actions">
        <Button onClick={props.onRetry}>{props.T.retryTransaction}</Button>
      </div>
    </ScreenLayout>
  )
}

/** The review's step counter ('Step n of m') when there is more than one step. */
export function StepCounter({ step, steps, T }: { step: number; steps: number; T: ApprovalsTexts }) {
  if (steps <= 1) return null
  return <p className="portico-step">{fill(T.step, { n: step + 1, total: steps })}</p>
}

/**
 * The review's action row: Continue before the last step; then Add funds (short of funds, when
 * the app has the funding plugin: `fundRequest` goes to its `fund`, and the review is prepared
 * again once funding completed) or Approve.
 */
export function ReviewActions(props: {
  flow: Pick<TransactionFlow, 'phase' | 'step' | 'setStep' | 'prepare' | 'approve'>
  last: boolean
  insufficient: boolean
  fundRequest: () => Record<string, unknown>
  T: ApprovalsTexts
}): ReactNode {
  const { flow, last, insufficient, T } = props
  const fund = useFunding()
  const sending = flow.phase === 'sending'
  return (
    <div className="portico-actions">
      {!last ? (
        <Button onClick={() => flow.setStep(flow.step + 1)}>{T.continue}</Button>
      ) : insufficient && fund ? (
        <Button onClick={() => fund(props.fundRequest(), () => void flow.prepare())}>{T.addFunds}</Button>
      ) : (
        <Button loading={sending} disabled={sending || insufficient} onClick={flow.approve}>
          {T.approve}
        </Button>
      )}
    </div>
  )
}
