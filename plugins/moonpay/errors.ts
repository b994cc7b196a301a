/** MoonPay errors: the flow's failure (spec section 8 'MoonPay failure'). */
import { ERROR_SCREEN, PorticoError, defineErrors, type ErrorDeclarations } from 'portico'
import type { MOONPAY_TEXTS } from './strings'

export const MOONPAY = 'moonpay'

export function moonpayErrors(texts: () => typeof MOONPAY_TEXTS): ErrorDeclarations {
  return defineErrors({
    moonpay_failure: () => ({ title: texts().failure, cta: texts().tryAgain, screen: ERROR_SCREEN }),
  })
}

export const moonpayFailure = (t: typeof MOONPAY_TEXTS, cause?: unknown) => new PorticoError('moonpay_failure', t.failure, { kind: 'provider_error', cause })
