/** Bridge errors (spec section 8: 'Unable to fetch quotes for bridging', 'Error fetching quote from relay'). */
import { ERROR_SCREEN, PorticoError, defineErrors, type ErrorDeclarations } from 'portico'
import type { BRIDGE_TEXTS } from './strings'

export const BRIDGE = 'bridge'

export function bridgeErrors(texts: () => typeof BRIDGE_TEXTS): ErrorDeclarations {
  return defineErrors({
    bridge_no_quote: () => ({ title: texts().unableToFetchQuotes, screen: ERROR_SCREEN }),
    bridge_quote_error: (e) => ({ title: texts().quoteError, detail: e.message, screen: ERROR_SCREEN }),
  })
}

export const noQuoteError = (t: typeof BRIDGE_TEXTS) => new PorticoError('bridge_no_quote', t.unableToFetchQuotes, { kind: 'provider_error' })
export const quoteError = (t: typeof BRIDGE_TEXTS, cause?: unknown) =>
  new PorticoError('bridge_quote_error', (cause as Error | undefined)?.message || t.quoteError, { kind: 'provider_error', cause })
