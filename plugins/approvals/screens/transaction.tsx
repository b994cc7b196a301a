/**
 * 'approvals-transaction': an Ethereum transaction (part 2 sections 2, 4, 8): prepare, then
 * the review — the decoded action first when there is one (Continue), then amount, fee (or
 * 'Sponsored'), total and balance in the app's price display (Approve) — then submit and the
 * receipt ('Transaction complete!', "You're all set.", 'All Done'), or the error screen (code,
 * message, copyable hash, 'Retry transaction'; the retry resets the nonce when the error
 * carries a hash). Missing funds: 'Add funds on {chain} to complete transaction.' and 'Add
 * funds' when the funding plugin is there.
 */
import { ScreenLayout, useTexts, type ScreenProps } from 'portico/ui/screens'
import { APPROVALS_TEXTS, type ApprovalsTexts } from '../strings'
import type { EvmReview, EvmSession } from '../request'
import type { DecodedTransaction } from '../decode'
import { Address, AmountValue, AppIcon, Details, fill } from './parts'
import { plainUnits } from '../index'
import { PrepareFailedScreen, PreparingScreen, ReceiptScreen, ReviewActions, SignedScreen, StepCounter, SubmitFailedScreen, useTransactionFlow } from './flow'

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
  const flow = useTransactionFlow(s, s.method === 'eth_signTransaction')
  const { phase, review, step, failure, result, prepare, close } = flow

  const info = s.uiOptions.transactionInfo
  const title = info?.title ?? s.uiOptions.title ?? T.transactionTitle

  if (phase === 'failed-prepare' && failure) return <PrepareFailedScreen failure={failure} notice={T.preparationError} onRetry={() => void prepare()} T={T} />
  if (phase === 'preparing' || !review) return <PreparingScreen title={title} iconUrl={s.uiOptions.iconUrl} T={T} />

  if (phase === 'receipt' && result) {
    return (
      <ReceiptScreen title={T.receiptTitle} description={T.receiptDescription} explorerUrl={result.explorerUrl} closeLabel={T.allDone} onClose={() => close(result.result)} T={T}>
        <Details rows={[[T.transactionHash, <Address value={result.result} />], [T.total, <AmountValue amount={review.total} primary={review.priceDisplay} />]]} />
      </ReceiptScreen>
    )
  }
  if (phase === 'signed') return <SignedScreen T={T} />
  if (phase === 'error' && failure) {
    return <SubmitFailedScreen title={T.transactionFailure} label={T.transactionFailure} failure={failure} hashLabel={T.transactionHash} onRetry={() => void prepare()} T={T} />
  }

  const hasAction = review.decoded.action !== 'transaction' || !!info?.actionDescription
  const steps = hasAction ? 2 : 1
  const last = step >= steps - 1
  return (
    <ScreenLayout title={title} description={info?.actionDescription ?? s.uiOptions.description} icon={<AppIcon url={s.uiOptions.iconUrl} />}>
      <StepCounter step={step} steps={steps} T={T} />
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
      <ReviewActions
        flow={flow}
        last={last}
        insufficient={review.insufficient}
        // The whole chain (its RPC and currency: funding reads the balance there) and what is missing, exactly.
        fundRequest={() => ({ address: s.address, chainType: 'ethereum', chain: review.chain, ...(review.missing > 0n ? { amount: plainUnits(review.missing, review.chain.nativeCurrency.decimals) } : {}) })}
        T={T}
      />
    </ScreenLayout>
  )
}
