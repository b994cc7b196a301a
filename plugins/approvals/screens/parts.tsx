/** Pieces shared by the approval screens: detail rows, amounts, the error panel, funding. */
import type { ReactNode } from 'react'
import { CopyButton, useKernel } from 'portico/ui/screens'
import type { Amount } from '../request'
import type { ApprovalsTexts } from '../strings'

export function Details({ rows }: { rows: Array<[label: string, value: ReactNode] | null | false> }) {
  return (
    <dl className="portico-details">
      {rows.filter(Boolean).map((r) => {
        const [label, value] = r as [string, ReactNode]
        return (
          <div className="portico-details-row" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        )
      })}
    </dl>
  )
}

/** An amount in the app's price display: the primary form, the other one small. */
export function AmountValue({ amount, primary, testid }: { amount: Amount; primary: 'fiat-currency' | 'native-token'; testid?: string }) {
  const token = `${amount.text} ${amount.symbol}`
  if (!amount.usd) return <span data-testid={testid}>{token}</span>
  return primary === 'fiat-currency' ? (
    <>
      <span data-testid={testid}>{amount.usd}</span>
      <small>{token}</small>
    </>
  ) : (
    <>
      <span data-testid={testid}>{token}</span>
      <small>{amount.usd}</small>
    </>
  )
}

export const short = (s: string) => (s.length > 14 ? `${s.slice(0, 6)}…${s.slice(-4)}` : s)

export function Address({ value }: { value: string }) {
  return <span title={value}>{short(value)}</span>
}

export function fill(text: string, values: Record<string, string | number>) {
  return text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? `{${k}}`))
}

export interface Failure {
  code: string | null
  message: string
  hash: string | null
  explorerUrl?: string | null
}

/** The transaction error panel (part 2 section 8): code or 'Something went wrong.', message, hash (copyable), 'Please try again.'. */
export function FailurePanel({ failure, T, hashLabel }: { failure: Failure; T: ApprovalsTexts; hashLabel: string }) {
  return (
    <>
      <Details
        rows={[
          // The row only when there is a code to show (issue 25: it said 'Something went wrong.' in place of one).
          failure.code ? [T.errorCode, <span data-testid="approvals-error-code">{failure.code}</span>] : null,
          failure.hash ? [hashLabel, <Address value={failure.hash} />] : null,
        ]}
      />
      <p className="portico-message" data-testid="approvals-error-message">
        {failure.message}
      </p>
      {failure.hash && (
        <div className="portico-actions portico-actions-row">
          <CopyButton value={failure.hash} label={`${T.copy} ${hashLabel.toLowerCase()}`} copiedLabel={T.copied} />
          {failure.explorerUrl && (
            <a href={failure.explorerUrl} target="_blank" rel="noopener noreferrer">
              {T.viewOnExplorer}
            </a>
          )}
        </div>
      )}
      <p className="portico-step">{T.pleaseTryAgain}</p>
    </>
  )
}

interface FundingPlugin {
  fund(request: Record<string, unknown>): unknown
}

/**
 * 'Add funds' (wave 3 seam 6): the funding plugin's `fund`, or null when the app has none. The
 * funding flow runs inside this one and comes back here; `then` runs once it completed (the
 * screen checks the balance again).
 */
export function useFunding(): ((request: Record<string, unknown>, then?: () => void) => void) | null {
  const kernel = useKernel()
  if (!kernel.hasPlugin('funding')) return null
  return (request, then) =>
    void Promise.resolve((kernel.plugin as unknown as (id: string) => FundingPlugin)('funding').fund(request)).then(
      (r) => (r as { status?: string } | undefined)?.status === 'completed' && then?.(),
      () => {},
    )
}

export function AppIcon({ url }: { url?: string }) {
  return url ? <img className="portico-app-icon" src={url} alt="" /> : null
}
