/**
 * The Farcaster plugin's errors (spec part 1 section 8, "Farcaster"): the 2-minute time-out
 * ('The request timed out. Try again.') and a refused sign-in ('Authentication failed').
 */
import { PorticoError, defineErrors, type ErrorContext } from 'portico'
import { FARCASTER_TEXTS } from './strings'

export { FARCASTER } from './state'
import { FARCASTER } from './state'

export function farcasterTimeout(T: typeof FARCASTER_TEXTS = FARCASTER_TEXTS) {
  return new PorticoError('client_request_timeout', T.timeout, { kind: 'client_error', data: { provider: FARCASTER } })
}

export function farcasterErrors(texts: () => typeof FARCASTER_TEXTS = () => FARCASTER_TEXTS) {
  const mine = (e: PorticoError, ctx: ErrorContext) => e.data?.provider === FARCASTER || ctx.method === FARCASTER
  return defineErrors({
    client_request_timeout: (e, ctx) =>
      mine(e, ctx) ? { title: texts().failedTitle, detail: texts().timeout, cta: texts().tryAgain, action: 'back' } : undefined,
    invalid_credentials: (e, ctx) =>
      ctx.method === FARCASTER ? { title: texts().failedTitle, detail: e.message, cta: texts().tryAgain, action: 'back' } : undefined,
  })
}
