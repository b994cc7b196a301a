/** Coinbase Onramp errors (spec section 8 'Coinbase failure', 'Unsupported chainId'). */
import { ERROR_SCREEN, PorticoError, defineErrors, formatText, type ErrorDeclarations } from 'portico'
import type { COINBASE_ONRAMP_TEXTS } from './strings'

export const COINBASE_ONRAMP = 'coinbase-onramp'

export function coinbaseOnrampErrors(texts: () => typeof COINBASE_ONRAMP_TEXTS): ErrorDeclarations {
  return defineErrors({
    coinbase_onramp_failure: () => ({ title: texts().failure, screen: ERROR_SCREEN }),
    // The message is the spec's technical text (for developers); the user reads the clear one.
    coinbase_onramp_unsupported_chain: (e) => ({ title: formatText(texts().unsupportedChain, { network: (e.cause as { network?: string } | undefined)?.network ?? `chain ${(e.cause as { id?: number } | undefined)?.id ?? ''}`.trim() }), screen: ERROR_SCREEN }),
  })
}

export const coinbaseFailure = (t: typeof COINBASE_ONRAMP_TEXTS, cause?: unknown) =>
  new PorticoError('coinbase_onramp_failure', t.failure, { kind: 'provider_error', cause })
export const unsupportedChainError = (t: typeof COINBASE_ONRAMP_TEXTS, id: number, network?: string) =>
  new PorticoError('coinbase_onramp_unsupported_chain', formatText(t.unsupportedChainDetail, { id }), { cause: { id, network } })
