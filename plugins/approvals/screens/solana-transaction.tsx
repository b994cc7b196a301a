/**
 * 'approvals-solana-transaction': a Solana transaction (part 2 sections 2, 4, 8): steps through
 * the instructions (sol-transfer, spl-transfer with the token's symbol, unknown), then fee and
 * balance (Approve); signs, sends, confirms; the receipt ('Transaction completed
 * successfully.', 'Close') or the error screen ('Something went wrong.', the message — a log
 * line about insufficient lamports replaces it —, the signature, 'Retry transaction', which
 * refreshes the blockhash). Missing funds: 'Add funds on Solana to complete transaction.'.
 */
import { Button, ScreenLayout, StatusIcon, useTexts, type ScreenProps } from 'portico/ui/screens'
import { APPROVALS_TEXTS, type ApprovalsTexts } from '../strings'
import type { SolanaReview, SolanaSession } from '../request'
import type { SolanaInstruction } from '../solana'
import { formatSol, formatTokenAmount, plainUnits } from '../index'
import { Address, AppIcon, Details, FailurePanel, fill, useFunding } from './parts'
import { ExplorerLink, PrepareFailedScreen, PreparingScreen, ReviewActions, SignedScreen, StepCounter, useTransactionFlow } from './flow'

function InstructionDetails({ ix, T }: { ix: SolanaInstruction; T: ApprovalsTexts }) {
  if (ix.type === 'sol-transfer') {
    return (
      <Details
        rows={[
          [T.instruction, <span data-testid="approvals-instruction">{T.solTransfer}</span>],
          [T.from, <Address value={ix.fromAccount} />],
          [T.to, <Address value={ix.toAccount} />],
          [T.amount, <span data-testid="approvals-sol-amount">{`${formatSol(ix.value)} SOL`}</span>],
        ]}
      />
    )
  }
  if (ix.type === 'spl-transfer') {
    const symbol = ix.token.symbol || 'tokens'
    return (
      <Details
        rows={[
          [T.instruction, <span data-testid="approvals-instruction">{fill(T.splTransfer, { symbol })}</span>],
          [T.from, <Address value={ix.fromAccount} />],
          [T.to, <Address value={ix.toAccount ?? ix.toAta} />],
          [T.amount, <span data-testid="approvals-spl-amount">{`${formatTokenAmount(ix.value, ix.token.decimals)} ${symbol}`}</span>],
          !!ix.token.address && [T.contract, <Address value={ix.token.address} />],
        ]}
      />
    )
  }
  return (
    <Details
      rows={[
        [T.instruction, <span data-testid="approvals-instruction">{fill(T.unknownInstruction, { program: `${ix.programId.slice(0, 4)}…${ix.programId.slice(-4)}` })}</span>],
        [T.program, <Address value={ix.programId} />],
      ]}
    />
  )
}

export default function SolanaTransactionScreen({ params }: ScreenProps<{ session: SolanaSession }>) {
  const s = params.session
  const T = useTexts('approvals', APPROVALS_TEXTS)
  const fund = useFunding()
  const { phase, review, step, setStep, failure, result, prepare, approve, close } = useTransactionFlow(s, s.method === 'solana_signTransaction')

  const title = s.uiOptions.transactionInfo?.title ?? s.uiOptions.title ?? T.solanaTransactionTitle
  if (phase === 'failed-prepare' && failure) return <PrepareFailedScreen failure={failure} onRetry={() => void prepare()} T={T} />
  if (phase === 'preparing' || !review) return <PreparingScreen title={title} iconUrl={s.uiOptions.iconUrl} T={T} />
  if (phase === 'receipt' && result) {
    return (
      <ScreenLayout title={T.solanaReceiptDescription} icon={<StatusIcon status="success" label={T.solanaReceiptDescription} />}>
        {result.signature && <Details rows={[[T.signature, <Address value={result.signature} />], [T.estimatedFee, review.feeText]]} />}
        <ExplorerLink url={result.explorerUrl} T={T} />
        <div className="portico-actions">
          <Button onClick={() => close(result.result)}>{T.close}</Button>
        </div>
      </ScreenLayout>
    )
  }
  if (phase === 'signed') return <SignedScreen T={T} />
  if (phase === 'error' && failure) {
    return (
      <ScreenLayout title={T.somethingWentWrongDot} icon={<StatusIcon status="error" label={T.somethingWentWrong} />}>
        <FailurePanel failure={failure} T={T} hashLabel={T.signature} />
        <div className="portico-actions">
          <Button onClick={() => void prepare()}>{T.retryTransaction}</Button>
        </div>
      </ScreenLayout>
    )
  }

  const steps = Math.max(review.instructions.length, 1)
  const last = step >= steps - 1
  const ix = review.instructions[step]
  return (
    <ScreenLayout title={title} description={s.uiOptions.description} icon={<AppIcon url={s.uiOptions.iconUrl} />}>
      <StepCounter step={step} steps={steps} T={T} />
      {ix && <InstructionDetails ix={ix} T={T} />}
      {last && (
        <Details
          rows={[
            [T.estimatedFee, review.feeText],
            [T.balance, review.balanceText],
            [T.network, review.cluster],
          ]}
        />
      )}
      {last && review.insufficient && (
        <p className="portico-notice" role="alert" data-testid="approvals-insufficient">
          {T.addFundsOnSolana}
        </p>
      )}
      {last && !review.insufficient && review.simulationError && (
        <p className="portico-notice" role="alert">
          {review.simulationError}
        </p>
      )}
      <ReviewActions
        last={last}
        onContinue={() => setStep(step + 1)}
        insufficient={review.insufficient}
        onFund={
          fund &&
          // The cluster with its RPC (the one this transaction goes to; a name alone meant mainnet) and the lamports missing.
          (() =>
            fund(
              { address: s.address, chainType: 'solana', cluster: { name: review.cluster, rpcUrl: review.rpcUrl }, ...(review.missing > 0n ? { amount: plainUnits(review.missing, 9) } : {}) },
              () => void prepare(),
            ))
        }
        sending={phase === 'sending'}
        onApprove={approve}
        T={T}
      />
    </ScreenLayout>
  )
}
