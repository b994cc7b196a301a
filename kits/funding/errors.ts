/**
 * The errors a transfer reports (spec part 2 section 8 'Funding'): the funding plugin declares
 * their views; a provider (bridge) that sends from a wallet reports the same ones.
 */
import { PorticoError } from 'portico'

/** The texts a transfer needs (the funding plugin's FUNDING_TEXTS has them, overridable under `texts: { funding: {...} }`). */
export interface TransferTexts {
  /** 'Transaction was rejected by the user' */
  rejected: string
  /** 'Wallet {address} does not have enough funds.' */
  notEnoughFunds: string
  /** 'Number is not a valid decimal number' */
  invalidDecimal: string
}

export const rejectedError = (t: Pick<TransferTexts, 'rejected'>, cause?: unknown) => new PorticoError('funding_rejected', t.rejected, { cause })
export const invalidDecimalError = (t: Pick<TransferTexts, 'invalidDecimal'>) => new PorticoError('invalid_data', t.invalidDecimal)
export const notEnoughFundsError = (message: string) => new PorticoError('funding_insufficient_funds', message)

/** An EIP-1193 / wallet-standard rejection (code 4001, or a message saying so), anywhere in the cause chain. */
export function isUserRejection(e: unknown): boolean {
  for (const x of PorticoError.walk(e)) {
    const code = (x as { code?: unknown }).code
    if (code === 4001 || code === 'ACTION_REJECTED') return true
    if (/reject|denied|cancel/i.test((x as Error)?.message ?? '')) return true
  }
  return false
}
