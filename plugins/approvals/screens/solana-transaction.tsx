/**
 * 'approvals-solana-transaction': a Solana transaction (part 2 sections 2, 4, 8): steps through
 * the instructions (sol-transfer, spl-transfer with the token's symbol, unknown), then fee and
 * balance (Approve); signs, sends, confirms; the receipt ('Transaction completed
 * successfully.', 'Close') or the error screen ('Something went wrong.', the message — a log
 * line about insufficient lamports replaces it —, the signature, 'Retry transaction', which
 * refreshes the blockhash). Missing funds: 'Add funds on Solana to complete transaction.'.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { Button, ScreenLayout, Spinner, StatusIcon, useScreen, useTexts, type ScreenProps } from 'portico/ui'
import { APPROVALS_TEXTS, type ApprovalsTexts } from '../strings'
import type { SolanaReview, SolanaSession } from '../session'
import type { SolanaInstruction } from '../solana'
import { formatSol, formatTokenAmount } from '../format'
import { Address, AppIcon, Details, FailurePanel, fill, useFunding, type Failure } from './parts'

const SUCCESS_CLOSE_MS = 1400

type Phase = 'preparing' | 'review' | 'sending' | 'receipt' | 'signed' | 'error' | 'failed-prepare'

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
  const screen = useScreen()
  const fund = useFunding()
  const [phase, setPhase] = useState<Phase>('preparing')
  const [review, setReview] = useState<SolanaReview | null>(null)
  const [step, setStep] = useState(0)
  const [failure, setFailure] = useState<Failure | null>(null)
  const [result, setResult] = useState<{ result: unknown; signature: string | null; explorerUrl: string | null } | null>(null)
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
      if (s.method === 'solana_signTransaction') {
        setPhase('signed')
        setTimeout(() => screen.close(r.result), SUCCESS_CLOSE_MS)
      } else setPhase('receipt')
    } catch (e) {
      if (!alive.current) return
      setFailure(e as Failure)
      setPhase('error')
    }
  }

  const title = s.uiOptions.transactionInfo?.title ?? s.uiOptions.title ?? T.solanaTransactionTitle
  if (phase === 'failed-prepare' && failure) {
    return (
      <ScreenLayout title={T.somethingWentWrong} icon={<StatusIcon status="error" label={T.somethingWentWrong} />}>
        <p className="portico-message">{failure.message}</p>
        <div className="portico-actions">
          <Button onClick={() => void prepare()}>{T.tryAgain}</Button>
        </div>
      </ScreenLayout>
    )
  }
  if (phase === 'preparing' || !review) {
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
      <ScreenLayout title={T.solanaReceiptDescription} icon={<StatusIcon status="success" label={T.solanaReceiptDescription} />}>
        {result.signature && <Details rows={[[T.signature, <Address value={result.signature} />], [T.estimatedFee, review.feeText]]} />}
        {result.explorerUrl && (
          <p className="portico-step">
            <a href={result.explorerUrl} target="_blank" rel="noopener noreferrer">
              {T.viewOnExplorer}
            </a>
          </p>
        )}
        <div className="portico-actions">
          <Button onClick={() => screen.close(result.result)}>{T.close}</Button>
        </div>
      </ScreenLayout>
    )
  }
  if (phase === 'signed') return <ScreenLayout title={T.success} icon={<StatusIcon status="success" label={T.success} />} close={false} />
  if (phase === 'error' && failure) {
    return (
      <ScreenLayout title={T.somethingWentWrongDot} icon={<StatusIcon status="error" label={T.somethingWentWrong} />}>
        <FailurePanel failure={{ ...failure, code: null }} T={T} hashLabel={T.signature} />
        <div className="portico-actions">
          <Button onClick={() => void prepare()}>{T.retryTransaction}</Button>
        </div>
      </ScreenLayout>
    )
  }

  const steps = Math.max(review.instructions.length, 1)
  const last = step >= steps - 1
  const ix = review.instructions[step]
  const sending = phase === 'sending'
  return (
    <ScreenLayout title={title} description={s.uiOptions.description} icon={<AppIcon url={s.uiOptions.iconUrl} />}>
      {steps > 1 && <p className="portico-step">{fill(T.step, { n: step + 1, total: steps })}</p>}
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
      <div className="portico-actions">
        {!last ? (
          <Button onClick={() => setStep(step + 1)}>{T.continue}</Button>
        ) : review.insufficient && fund ? (
          <Button onClick={() => fund({ address: s.address, chainType: 'solana', cluster: review.cluster })}>{T.addFunds}</Button>
        ) : (
          <Button loading={sending} disabled={sending || review.insufficient} onClick={approve}>
            {T.approve}
          </Button>
        )}
      </div>
    </ScreenLayout>
  )
}
