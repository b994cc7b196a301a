/**
 * Funding errors: one code per failure the flows report (the views show the spec's texts,
 * section 8 'Funding'). Provider plugins declare their own (moonpay, coinbase-onramp, bridge).
 */
import { ERROR_SCREEN, PorticoError, defineErrors, type ErrorDeclarations } from 'portico'
import type { FUNDING_TEXTS } from './strings'

export const FUNDING = 'funding'

type Texts = () => typeof FUNDING_TEXTS

export function fundingErrors(texts: Texts): ErrorDeclarations {
  return defineErrors({
    funding_not_enabled: () => ({ title: texts().notEnabled, screen: ERROR_SCREEN, action: 'close' }),
    funding_popup_blocked: () => ({ title: texts().popupBlocked, cta: texts().tryAgain, screen: ERROR_SCREEN }),
    funding_insufficient_funds: (e) => ({ title: texts().somethingWentWrong, detail: e.message, cta: texts().tryAgain, screen: ERROR_SCREEN }),
    funding_rejected: () => ({ title: texts().rejected, cta: texts().tryAgain, screen: ERROR_SCREEN }),
  })
}

export const notEnabledError = (t: typeof FUNDING_TEXTS) => new PorticoError('funding_not_enabled', t.notEnabled)
export const popupBlockedError = (t: typeof FUNDING_TEXTS) => new PorticoError('funding_popup_blocked', t.popupBlocked)
export const rejectedError = (t: typeof FUNDING_TEXTS, cause?: unknown) => new PorticoError('funding_rejected', t.rejected, { cause })
export const invalidDecimalError = (t: Pick<typeof FUNDING_TEXTS, 'invalidDecimal'>) => new PorticoError('invalid_data', t.invalidDecimal)
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
