/**
 * 'approvals-solana-transaction': a Solana transaction (part 2 sections 2, 4, 8): steps through
 * the instructions (sol-transfer, spl-transfer with the token's symbol, unknown), then fee and
 * balance (Approve); signs, sends, confirms; the receipt ('Transaction completed
 * successfully.', 'Close') or the error screen ('Something went wrong.', the message — a log
 * line about insufficient lamports replaces it —, the signature, 'Retry transaction', which
 * refreshes the blockhash). Missing funds: 'Add funds on Solana to complete transaction.'.
 */
import { ScreenLayout, useTexts, type ScreenProps } from 'portico/ui/screens'
import { APPROVALS_TEXTS, type ApprovalsTexts } from '../strings'
import type { SolanaReview, SolanaSession } from '../request'
import type { SolanaInstruction } from '../solana'
import { formatSol, formatTokenAmount, plainUnits } from '../index'
import { Address, AppIcon, Details, fill } from './parts'
import { PrepareFailedScreen, PreparingScreen, ReceiptScreen, ReviewActions, SignedScreen, StepCounter, SubmitFailedScreen, useTransactionFlow } from './flow'

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
  const flow = useTransactionFlow(s, s.method === 'solana_signTransaction')
  const { phase, review, step, failure, result, prepare, close } = flow

  const title = s.uiOptions.transactionInfo?.title ?? s.uiOptions.title ?? T.solanaTransactionTitle
  if (phase === 'failed-prepare' && failure) return <PrepareFailedScreen failure={failure} onRetry={() => void prepare()} T={T} />
  if (phase === 'preparing' || !review) return <PreparingScreen title={title} iconUrl={s.uiOptions.iconUrl} T={T} />
  if (phase === 'receipt' && result) {
    return (
      <ReceiptScreen title={T.solanaReceiptDescription} explorerUrl={result.explorerUrl} closeLabel={T.close} onClose={() => close(result.result)} T={T}>
        {result.signature && <Details rows={[[T.signature, <Address value={result.signature} />], [T.estimatedFee, review.feeText]]} />}
      </ReceiptScreen>
    )
  }
  if (phase === 'signed') return <SignedScreen T={T} />
  if (phase === 'error' && failure) {
    return <SubmitFailedScreen title={T.somethingWentWrongDot} label={T.somethingWentWrong} failure={failure} hashLabel={T.signature} onRetry={() => void prepare()} T={T} />
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
        flow={flow}
        last={last}
        insufficient={review.insufficient}
        // The cluster with its RPC (the one this transaction goes to; a name alone meant mainnet) and the lamports missing.
        fundRequest={() => ({ address: s.address, chainType: 'solana', cluster: { name: review.cluster, rpcUrl: review.rpcUrl }, ...(review.missing > 0n ? { amount: plainUnits(review.missing, 9) } : {}) })}
        T={T}
      />
    </ScreenLayout>
  )
}
