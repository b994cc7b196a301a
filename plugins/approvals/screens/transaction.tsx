/**
 * 'approvals-transaction': an Ethereum transaction (part 2 sections 2, 4, 8): prepare, then
 * the review — the decoded action first when there is one (Continue), then amount, fee (or
 * 'Sponsored'), total and balance in the app's price display (Approve) — then submit and the
 * receipt ('Transaction complete!', "You're all set.", 'All Done'), or the error screen (code,
 * message, copyable hash, 'Retry transaction'; the retry resets the nonce when the error
 * carries a hash). Missing funds: 'Add funds on {chain} to complete transaction.' and 'Add
 * funds' when the funding plugin is there.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { Button, ScreenLayout, Spinner, StatusIcon, useScreen, useTexts, type ScreenProps } from 'portico/ui'
import { APPROVALS_TEXTS, type ApprovalsTexts } from '../strings'
import type { EvmReview, EvmSession } from '../session'
import type { DecodedTransaction } from '../decode'
import { Address, AmountValue, AppIcon, Details, FailurePanel, fill, useFunding, type Failure } from './parts'

const SUCCESS_CLOSE_MS = 1400

type Phase = 'preparing' | 'review' | 'sending' | 'receipt' | 'signed' | 'error' | 'failed-prepare'

const ACTION_LABEL = (T: ApprovalsTexts, a: DecodedTransaction['action']) =>
  ({ approve: T.actionApprove, transfer: T.actionTransfer, 'batch transfer': T.actionBatchTransfer, mint: T.actionMint, transaction: T.actionTransaction })[a]

function ActionDetails({ r, T }: { r: EvmReview; T: ApprovalsTexts }) {
  const d = r.decoded
  return (
    <Details
      rows={[
        [T.action, <span data-testid="approvals-action">{ACTION_LABEL(T, d.action)}</span>],
        !!r.to && [r.token ? r.token.symbol : T.contract, <Address value={r.to} />],
        r.tokenAmount !== null && [T.amount, <span data-testid="approvals-token-amount">{r.tokenAmount}</span>],
        !!d.spender && [T.spender, <Address value={d.spender} />],
        !!d.operator && [T.operator, <Address value={d.operator} />],
        d.approved !== undefined && [T.approved, String(d.approved)],
        !!d.transferTo && [T.to, <Address value={d.transferTo} />],
        d.tokenId !== undefined && [T.tokenId, d.tokenId.toString()],
        !!d.tokenIds && [T.tokenIds, d.tokenIds.join(', ')],
        !!d.amounts && [T.amounts, d.amounts.join(', ')],
      ]}
    />
  )
}

function CostDetails({ r, T, showTo }: { r: EvmReview; T: ApprovalsTexts; showTo: boolean }) {
  const p = r.priceDisplay
  return (
    <Details
      rows={[
        showTo && !!r.to && [T.to, <Address value={r.to} />],
        [T.amount, <AmountValue amount={r.value} primary={p} />],
        [T.estimatedFee, r.sponsored ? <span>{T.sponsored}</span> : <AmountValue amount={r.fee} primary={p} />],
        [T.total, <AmountValue amount={r.total} primary={p} testid="approvals-total" />],
        [T.balance, <AmountValue amount={r.balance} primary={p} />],
        [T.network, r.chainName],
      ]}
    />
  )
}

export default function TransactionScreen({ params }: ScreenProps<{ session: EvmSession }>) {
  const s = params.session
  const T = useTexts('approvals', APPROVALS_TEXTS)
  const screen = useScreen()
  const fund = useFunding()
  const [phase, setPhase] = useState<Phase>('preparing')
  const [review, setReview] = useState<EvmReview | null>(null)
  const [step, setStep] = useState(0)
  const [failure, setFailure] = useState<Failure | null>(null)
  const [result, setResult] = useState<{ result: string; explorerUrl: string | null } | null>(null)
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    return () => void (alive.current = false)
  }, [])

  const prepare = useCallback(
    async (resetNonce?: boolean) => {
      setPhase('preparing')
      setStep(0)
      try {
        await s.ready()
        const r = await s.prepare(resetNonce === undefined ? {} : { resetNonce })
        if (!alive.current) return
        setReview(r)
        setPhase('review')
      } catch (e) {
        if (!alive.current) return
        setFailure({ code: null, message: (e as Error)?.message ?? String(e), hash: null })
        setPhase('failed-prepare')
      }
    },
    [s],
  )
  useEffect(() => void prepare(), [prepare])

  const approve = async () => {
    setPhase('sending')
    try {
      const r = await s.submit()
      if (!alive.current) return
      setResult(r)
      if (s.method === 'eth_signTransaction') {
        setPhase('signed')
        setTimeout(() => screen.close(r.result), SUCCESS_CLOSE_MS)
      } else setPhase('receipt')
    } catch (e) {
      if (!alive.current) return
      setFailure(e as Failure)
      setPhase('error')
    }
  }

  const info = s.uiOptions.transactionInfo
  const title = info?.title ?? s.uiOptions.title ?? T.transactionTitle

  if (phase === 'preparing' || !review) {
    if (phase === 'failed-prepare' && failure) {
      return (
        <ScreenLayout title={T.somethingWentWrong} icon={<StatusIcon status="error" label={T.somethingWentWrong} />}>
          <p className="portico-notice" role="alert">
            {T.preparationError}
          </p>
          <p className="portico-message">{failure.message}</p>
          <div className="portico-actions">
            <Button onClick={() => void prepare()}>{T.tryAgain}</Button>
          </div>
        </ScreenLayout>
      )
    }
    return (
      <ScreenLayout title={title} icon={<AppIcon url={s.uiOptions.iconUrl} />}>
        <div className="portico-hero">
          <Spinner label={T.preparing} />
        </div>
        <p className="portico-step">{T.preparing}</p>
      </ScreenLayout>
    )
  }

  if (phase === 'receipt' && result) {
    return (
      <ScreenLayout title={T.receiptTitle} description={T.receiptDescription} icon={<StatusIcon status="success" label={T.receiptTitle} />}>
        <Details rows={[[T.transactionHash, <Address value={result.result} />], [T.total, <AmountValue amount={review.total} primary={review.priceDisplay} />]]} />
        {result.explorerUrl && (
          <p className="portico-step">
            <a href={result.explorerUrl} target="_blank" rel="noopener noreferrer">
              {T.viewOnExplorer}
            </a>
          </p>
        )}
        <div className="portico-actions">
          <Button onClick={() => screen.close(result.result)}>{T.allDone}</Button>
        </div>
      </ScreenLayout>
    )
  }
  if (phase === 'signed') {
    return <ScreenLayout title={T.success} icon={<StatusIcon status="success" label={T.success} />} close={false} />
  }
  if (phase === 'error' && failure) {
    return (
      <ScreenLayout title={T.transactionFailure} icon={<StatusIcon status="error" label={T.transactionFailure} />}>
        <FailurePanel failure={failure} T={T} hashLabel={T.transactionHash} />
        <div className="portico-actions">
          <Button onClick={() => void prepare()}>{T.retryTransaction}</Button>
        </div>
      </ScreenLayout>
    )
  }

  const hasAction = review.decoded.action !== 'transaction' || !!info?.actionDescription
  const steps = hasAction ? 2 : 1
  const last = step >= steps - 1
  const sending = phase === 'sending'
  return (
    <ScreenLayout title={title} description={info?.actionDescription ?? s.uiOptions.description} icon={<AppIcon url={s.uiOptions.iconUrl} />}>
      {steps > 1 && <p className="portico-step">{fill(T.step, { n: step + 1, total: steps })}</p>}
      {hasAction && step === 0 ? <ActionDetails r={review} T={T} /> : <CostDetails r={review} T={T} showTo={!hasAction} />}
      {review.preparationError && (
        <p className="portico-notice" role="alert">
          {review.preparationError}
        </p>
      )}
      {review.insufficient && last && (
        <p className="portico-notice" role="alert" data-testid="approvals-insufficient">
          {fill(T.addFundsOn, { chain: review.chainName })}
        </p>
      )}
      <div className="portico-actions">
        {!last ? (
          <Button onClick={() => setStep(step + 1)}>{T.continue}</Button>
        ) : review.insufficient && fund ? (
          <Button
            onClick={() =>
              fund({ address: s.address, chainType: 'ethereum', chain: { id: review.chainId, name: review.chainName }, amount: review.total.text })
            }
          >
            {T.addFunds}
          </Button>
        ) : (
          <Button loading={sending} disabled={sending || review.insufficient} onClick={approve}>
            {T.approve}
          </Button>
        )}
      </div>
    </ScreenLayout>
  )
}
