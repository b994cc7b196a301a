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
// A transfer's errors (rejected, not enough funds, invalid decimal) are portico/kits/funding's.
